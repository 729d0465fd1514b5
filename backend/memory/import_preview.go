package memory

import (
	"context"
	"io"
	"sort"
	"strings"
)

// ImportPreview says what an import of the same JSONL would do, without doing any of it:
// Settings → Data shows it before the person applies the import. The import judges every
// line with the same code (importScan), so it does what its preview announced.
type ImportPreview struct {
	Lines int `json:"lines"`
	// New memories would be written; Duplicates are already in the store with the same title
	// and text (skipped); Conflicts hold the id or slug of a memory whose title or text differs
	// in the store or on an earlier line of the source (left out, the first version is kept);
	// Repeated lines say word for word what an earlier line of the source said (imported once).
	New        int `json:"new"`
	Duplicates int `json:"duplicates"`
	Conflicts  int `json:"conflicts"`
	Repeated   int `json:"repeated"`
	// Daily are journal lines to append to their day; KV keys of agents' namespaces to add,
	// KVUnchanged keys already holding the line's value, KVConflicts keys holding another value
	// (kept, and listed in Errors as kv_conflict, as the import lists them).
	Daily       int `json:"daily"`
	KV          int `json:"kv"`
	KVUnchanged int `json:"kv_unchanged"`
	KVConflicts int `json:"kv_conflicts"`
	// Invalid lines would be refused (bad JSON, bad fields, secrets…); OverQuota new memories
	// would be refused because their scope fills up (quota_exhausted).
	Invalid   int `json:"invalid"`
	OverQuota int `json:"over_quota"`
	// Scopes is the quota impact per scope instance that would receive new memories.
	Scopes []ImportScopeImpact `json:"scopes"`
	// ConflictLines and RepeatLines show the first MaxPreviewLines of each.
	ConflictLines []ImportConflict `json:"conflict_lines"`
	RepeatLines   []ImportConflict `json:"repeat_lines"`
	// Errors are every refused line, as the import would list them; the api translates them
	// into its own errors field.
	Errors []LineError `json:"-"`
}

// ImportScopeImpact is what an import would do to one scope instance's quota.
type ImportScopeImpact struct {
	Scope   Scope  `json:"scope"`
	Key     string `json:"key"`
	Workdir string `json:"workdir,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Used    int    `json:"used"`
	Limit   int    `json:"limit"`
	Adding  int    `json:"adding"`
	// After is the count once the import applied; Refused new memories do not fit.
	After   int    `json:"after"`
	Refused int    `json:"refused"`
	Level   string `json:"level"` // the ladder level after the import
}

// ImportConflict is one line naming a memory the store, or an earlier line of the same
// source, holds with other content (a conflict), or one repeating an earlier line.
type ImportConflict struct {
	Line int    `json:"line"`
	Slug string `json:"slug"`
	// ID is the store's memory the line collides with and Title its current title; for a
	// line colliding with an earlier line, First is that line and Title its title.
	ID    string `json:"id"`
	Title string `json:"title"`
	Scope Scope  `json:"scope"`
	First int    `json:"first,omitempty"`
	// From and FirstFrom name the two lines in another tool's source when it was converted.
	From      *ImportOrigin `json:"from,omitempty"`
	FirstFrom *ImportOrigin `json:"first_from,omitempty"`
}

// MaxPreviewLines bounds the conflicts and repeats a preview or an import lists (the counts
// are complete). Refused lines are all listed, by both, so they are summarised alike.
const MaxPreviewLines = 50

// PreviewImport reads JSONL as ImportWith would and judges every line against the store as it
// is now, writing nothing (opts.Workdir as the import would take it; KeepReview changes no count).
func (s *Store) PreviewImport(ctx context.Context, r io.Reader, opts ImportOptions) (ImportPreview, error) {
	p := ImportPreview{Scopes: []ImportScopeImpact{}, ConflictLines: []ImportConflict{}, RepeatLines: []ImportConflict{}, Errors: []LineError{}}
	sc := s.newImportScan(r, opts.Workdir)
	adding := map[scopeRef]*ImportScopeImpact{}
	var kvLines []kvLine
	for {
		j, done, err := sc.next(ctx)
		if err != nil {
			return p, err
		}
		if j.v != vSkip {
			p.Lines++
		}
		switch j.v {
		case vRefused:
			p.Invalid++
			p.Errors = append(p.Errors, *j.err)
		case vKV:
			kvLines = append(kvLines, kvLine{line: j.line, rec: j.kv})
		case vDaily:
			p.Daily++
		case vPresent:
			p.Duplicates++
		case vConflict:
			p.Conflicts++
			p.ConflictLines = addNote(p.ConflictLines, j.note)
		case vRepeat:
			p.Repeated++
			p.RepeatLines = addNote(p.RepeatLines, j.note)
		case vNew:
			if err := s.previewQuota(ctx, &p, adding, j); err != nil {
				return p, err
			}
		}
		if done {
			break
		}
	}
	if err := s.previewKV(kvLines, &p); err != nil {
		return p, err
	}
	for i := range p.Errors {
		sc.placeError(&p.Errors[i])
	}
	sort.SliceStable(p.Errors, func(i, j int) bool { return p.Errors[i].Line < p.Errors[j].Line })
	sc.placeNotes(p.ConflictLines)
	sc.placeNotes(p.RepeatLines)
	for _, im := range adding {
		im.After = im.Used + im.Adding
		im.Level = LadderLevel(im.Limit - im.After)
		p.Scopes = append(p.Scopes, *im)
	}
	sort.Slice(p.Scopes, func(i, j int) bool {
		if p.Scopes[i].Scope != p.Scopes[j].Scope {
			return p.Scopes[i].Scope < p.Scopes[j].Scope
		}
		return p.Scopes[i].Key < p.Scopes[j].Key
	})
	return p, nil
}

// previewQuota counts a new memory against its scope's quota as opWrite would: a write is
// refused once the scope is exhausted (headroom ≤ 5).
func (s *Store) previewQuota(ctx context.Context, p *ImportPreview, adding map[scopeRef]*ImportScopeImpact, j lineVerdict) error {
	m := j.m
	ref := scopeRef{m.Scope, j.key}
	im := adding[ref]
	if im == nil {
		used, err := usedIn(ctx, s.db, m.Scope, j.key)
		if err != nil {
			return err
		}
		im = &ImportScopeImpact{Scope: m.Scope, Key: j.key, Workdir: m.Workdir, Agent: m.Agent, Used: used, Limit: s.opts.QuotaLimit}
		adding[ref] = im
	}
	if LadderLevel(im.Limit-(im.Used+im.Adding)) == LevelExhausted {
		im.Refused++
		p.OverQuota++
		return nil
	}
	im.Adding++
	p.New++
	return nil
}

// previewMemory checks a record the way opWrite would (scope, type, slug, text, field limits,
// secrets) and returns the memory it would write, with its scope key.
func (s *Store) previewMemory(rec Record) (*Memory, string, error) {
	if !rec.Scope.Valid() {
		return nil, "", codeErr(CodeInvalidScope, map[string]any{"Scope": string(rec.Scope)}, "invalid scope %q", rec.Scope)
	}
	if !rec.Type.Writable() {
		return nil, "", codeErr(CodeInvalidType, map[string]any{"Type": string(rec.Type)}, "invalid type %q", rec.Type)
	}
	if err := checkNewSlug(rec.Slug); err != nil {
		return nil, "", err
	}
	wd, ag, key, err := s.importScopeKey(rec.Scope, rec.Workdir, rec.Agent, rec.Project)
	if err != nil {
		return nil, "", err
	}
	title, body := strings.TrimSpace(rec.Title), strings.TrimSpace(rec.Body)
	if err := validateText(title, body); err != nil {
		return nil, "", err
	}
	if body == "" {
		return nil, "", codeErr(CodeMissingBody, nil, "body is required")
	}
	if rec.Confidence != "" && !rec.Confidence.Valid() {
		return nil, "", codeErr(CodeInvalidConf, map[string]any{"Confidence": string(rec.Confidence)}, "invalid confidence %q", rec.Confidence)
	}
	conf, _ := ApplyEvidence(rec.Confidence, strings.TrimSpace(rec.SourceQuote))
	m := &Memory{Slug: rec.Slug, Title: title, Scope: rec.Scope, Workdir: wd, Agent: ag, Type: rec.Type, Confidence: conf,
		SourceQuote: strings.TrimSpace(rec.SourceQuote), Reasoning: strings.TrimSpace(rec.Reasoning),
		Aliases: cleanList(rec.Aliases), Tags: cleanList(rec.Tags), Supersedes: cleanList(rec.Supersedes),
		ConflictsWith: cleanList(rec.ConflictsWith), Body: body, projectKey: key}
	if rec.Source != nil {
		m.Source = *rec.Source
	}
	if err := checkMemory(m); err != nil {
		return nil, "", err
	}
	return m, key, nil
}
