package mcp

import (
	"encoding/json"
	"strconv"
	"strings"

	"engram/backend/api"
)

// noticeKey is the field that leads an answer carrying memory text as JSON values.
const noticeKey = "untrusted_data"

// withNotice is a JSON object answer led by the notice that the memory text in it is data, not
// instructions (api.MemoriesNotice). build_context and the Memory Index wrap memories in tags
// that say so; a memory read, search hits, lists and graph answers carried the same text bare,
// where a body could pass for instructions. The answer's own fields follow unchanged, so a
// client reads them as before.
type withNotice struct{ fields any }

func (w withNotice) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(w.fields)
	if err != nil || len(b) < 2 || b[0] != '{' {
		return b, err // not an object: nothing to lead
	}
	head, err := json.Marshal(map[string]string{noticeKey: api.MemoriesNotice})
	if err != nil {
		return nil, err
	}
	head = head[:len(head)-1] // open: the answer's fields follow
	if len(b) > 2 {
		head = append(head, ',')
	}
	return append(head, b[1:]...), nil
}

// renderEntry shows a memory as a resource: its facts in a header block, then the memory as
// build_context hands it to a model (api.UntrustedMemory: inside the wrapper that says it is
// data, its text escaped). The header comes first and the text cannot close the wrapper, so a
// body cannot forge a header line ("reviewed: true") nor end the data early; it was plain
// Markdown with the raw body after the header.
func renderEntry(e api.ToolEntry) string {
	var b strings.Builder
	b.WriteString("---\n")
	for _, kv := range [][2]string{{"id", e.ID}, {"slug", e.Slug}, {"scope", string(e.Scope)}, {"type", string(e.Type)},
		{"confidence", string(e.Confidence)}, {"reviewed", strconv.FormatBool(e.Reviewed)}, {"updated", e.Updated},
		{"version", e.Version}} {
		b.WriteString(kv[0] + ": " + strings.Join(strings.Fields(kv[1]), " ") + "\n")
	}
	b.WriteString("---\n")
	b.WriteString(api.UntrustedMemory(e))
	return b.String()
}
