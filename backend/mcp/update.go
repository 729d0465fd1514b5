package mcp

import (
	"encoding/json"
	"slices"
	"strings"

	"engram/backend/api"
)

// Codes of memory_update's own refusals.
const (
	codeTitleRequired = "mcp_title_required"
	codeUpdateEmpty   = "mcp_update_empty"
)

type updateArgs struct {
	refArgs
	Title       *string  `json:"title"`
	Body        *string  `json:"body"`
	Mode        string   `json:"mode"`
	Confidence  string   `json:"confidence"`
	SourceQuote *string  `json:"source_quote"`
	Reasoning   *string  `json:"reasoning"`
	Tags        []string `json:"tags"`
	Aliases     []string `json:"aliases"`
}

// held is what a memory holds now, as memory_update compares it.
type held struct {
	title, body, confidence, quote, reasoning, version string
	downgraded                                         bool
	tags, aliases                                      []string
}

// memoryUpdate changes a memory. Pointers keep "set to empty" apart from "leave as it is":
// reasoning or source_quote "" clears it, tags or aliases [] empties the list (the schema
// says they replace), and an empty title is refused naming the title (a memory needs one).
// The memory is read first: an update that would change nothing writes nothing (no new
// version, the person's review mark kept) and says so, instead of reporting an edit that did
// not happen.
func (s *Server) memoryUpdate(c *call, raw json.RawMessage) (any, *toolError) {
	const tool = "memory_update"
	var a updateArgs
	if e := s.decode(tool, raw, &a); e != nil {
		return nil, e
	}
	ref := map[string]any{}
	for k, v := range map[string]string{"id": a.ID, "slug": a.Slug, "scope": a.Scope} {
		if v != "" {
			ref[k] = v
		}
	}
	if a.Title != nil && strings.TrimSpace(*a.Title) == "" {
		return nil, s.codedError(codeTitleRequired, map[string]any{"Tool": tool}, &nextCall{Tool: "memory_read", Arguments: ref})
	}
	if a.Title == nil && a.Body == nil && a.Confidence == "" && a.SourceQuote == nil && a.Reasoning == nil &&
		a.Tags == nil && a.Aliases == nil {
		return nil, s.codedError(codeUpdateEmpty, map[string]any{"Tool": tool}, &nextCall{Tool: "memory_read", Arguments: ref})
	}
	// Read through the caller's view, which decides what it may name (a miss comes back with
	// candidates), then in full by id.
	res, terr := s.recallTool(c, a.Workdir, false, map[string]any{"action": "read", "id": a.ID, "slug": a.Slug, "scope": a.Scope})
	if terr != nil {
		return nil, terr
	}
	entry := res.(api.ToolEntry)
	full, err := s.api.Invoke("memory.read", &api.RefParams{ID: entry.ID})
	if err != nil {
		return nil, s.apiError(err, nil)
	}
	rr := full.(api.ReadResult)
	m := rr.Memory
	cur := held{title: m.Title, body: m.Body, confidence: string(m.Confidence), quote: m.SourceQuote,
		reasoning: m.Reasoning, version: rr.Version, downgraded: m.AutoDowngraded, tags: m.Tags, aliases: m.Aliases}
	p := planUpdate(a, cur)
	if !p.changes && (a.ExpectedVersion == "" || a.ExpectedVersion == cur.version) {
		return map[string]any{"id": entry.ID, "slug": entry.Slug, "version": cur.version, "changed": false,
			"notice": s.api.Text("notice.mcp_update_unchanged", nil)}, nil
	}
	args := map[string]any{"action": "update", "id": entry.ID, "expected_version": a.ExpectedVersion, "mode": p.mode,
		"confidence": a.Confidence}
	if a.ExpectedVersion == "" {
		args["expected_version"] = p.expected
	}
	var keep []string
	for k, v := range map[string]*string{"title": a.Title, "body": p.body, "source_quote": a.SourceQuote, "reasoning": a.Reasoning} {
		if v != nil {
			args[k] = *v
			keep = append(keep, k)
		}
	}
	if a.Tags != nil {
		args["tags"] = a.Tags
	}
	if a.Aliases != nil {
		args["aliases"] = a.Aliases
	}
	out, terr := s.recallTool(c, a.Workdir, true, args, keep...)
	if terr != nil {
		return nil, terr
	}
	var result map[string]any
	if json.Unmarshal(mustJSON(out), &result) != nil || result == nil {
		return out, nil
	}
	result["changed"] = true
	return result, nil
}

// updatePlan is how an update is sent: whether it changes anything, the mode and body to send,
// and the version it must apply to ("" for any).
type updatePlan struct {
	changes  bool
	mode     string
	body     *string
	expected string
}

// planUpdate compares the update with what the memory holds, the way the store applies it
// (texts trimmed, CR line ends folded, lists cleaned of blanks and repeats). The store's mode
// applies to the lists too, where merge only adds: so tags or aliases, which replace, are sent
// with mode replace; with a body to merge as well, the merge is done here against the version
// read and sent whole, bound to that version so that nothing written since is lost.
func planUpdate(a updateArgs, cur held) updatePlan {
	p := updatePlan{mode: a.Mode, body: a.Body}
	changed := func(v *string, now string) bool { return v != nil && api.CleanText(*v) != now }
	bodyChanges := false
	if a.Body != nil {
		nb := api.CleanText(*a.Body)
		if a.Mode == "replace" {
			bodyChanges = nb != strings.TrimSpace(cur.body)
		} else {
			bodyChanges = nb != "" && !api.BodyHolds(cur.body, nb)
		}
	}
	listChanges := a.Tags != nil && !slices.Equal(api.CleanList(a.Tags), api.CleanList(cur.tags)) ||
		a.Aliases != nil && !slices.Equal(api.CleanList(a.Aliases), api.CleanList(cur.aliases))
	p.changes = bodyChanges || listChanges || changed(a.Title, cur.title) || changed(a.SourceQuote, cur.quote) ||
		changed(a.Reasoning, cur.reasoning) || confidenceChanges(a, cur)
	if a.Tags != nil || a.Aliases != nil {
		if a.Body != nil && a.Mode != "replace" {
			p.body = nil
			if bodyChanges {
				merged := strings.TrimRight(cur.body, "\n") + "\n\n" + api.CleanText(*a.Body)
				p.body, p.expected = &merged, cur.version
			}
		}
		p.mode = "replace"
	}
	return p
}

// confidenceChanges applies the evidence contract as the store will: "high" asked without a
// quote lands as the low the memory already has, and that is no change (it rewrote the file
// and took the person's review mark away, answering changed).
func confidenceChanges(a updateArgs, cur held) bool {
	if a.Confidence == "" && a.SourceQuote == nil {
		return false
	}
	requested := api.Confidence(a.Confidence)
	if requested == "" {
		requested = api.Confidence(cur.confidence)
		if cur.downgraded {
			requested = "high"
		}
	}
	quote := cur.quote
	if a.SourceQuote != nil {
		quote = api.CleanText(*a.SourceQuote)
	}
	applied, down := api.ApplyEvidence(requested, quote)
	return string(applied) != cur.confidence || down != cur.downgraded
}
