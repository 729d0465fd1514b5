package organizer

import (
	"engram/backend/coded"
	"engram/backend/memory"
)

// Catalog keys of the messages that say why a decision was not applied. Each names the memory
// at fault ({{.Title}}, {{.Slug}}): "This memory was changed elsewhere since you opened it"
// (error.version_conflict) is an editor's message, and a report of ten decisions needs to say
// which memory moved.
const (
	// KeyEntryChanged: a memory of the decision was edited after the run read it.
	KeyEntryChanged = "organizer.failure.changed"
	// KeyEntryGone: a memory of the decision was deleted or archived after the run read it.
	KeyEntryGone = "organizer.failure.gone"
)

// entryFailure is the failed result of a decision whose memory ref could not be acted on: the
// store's code (version_conflict, not_found, quota_exhausted, …) with its arguments (args, which
// it copies), the catalog key of its message, and msg, the English text. The arguments always
// name the memory by Slug and Title (its slug when it has no title), and Ref is its slug, not the
// id the store may have named it by: error.not_found reads "No memory “{{.Ref}}”". api
// translates I18nKey with Args in the caller's language, as it does every coded error; before,
// the store's English error string ("memory: no memory with id 01J…") was all a person saw.
func entryFailure(code string, ref EntryRef, args map[string]any, msg string) *DecisionResult {
	out := map[string]any{}
	for k, v := range args {
		out[k] = v
	}
	title := ref.Title
	if title == "" {
		title = ref.Slug
	}
	out["Slug"], out["Title"], out["Ref"] = ref.Slug, title, ref.Slug
	if _, ok := out["Detail"]; !ok {
		out["Detail"] = msg
	}
	key := "error." + code
	switch code {
	case memory.CodeVersionConflict:
		key = KeyEntryChanged
	case memory.CodeNotFound:
		key = KeyEntryGone
	}
	return &DecisionResult{Code: code, I18nKey: key, Args: out, Message: msg}
}

// refFor is the entry of d an apply item acted on (by id); the keeper when none matches.
func refFor(d *Decision, id string) EntryRef {
	for _, t := range d.Targets {
		if t.ID == id {
			return t
		}
	}
	if d.Into != nil {
		return *d.Into
	}
	if len(d.Targets) > 0 {
		return d.Targets[0]
	}
	return EntryRef{ID: id}
}

// errArgs are the arguments of a coded error's message, or none.
func errArgs(err error) map[string]any {
	if c, ok := coded.As(err); ok {
		return c.ErrorArgs()
	}
	return nil
}
