package importer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"engram/backend/memory/format"
)

// mem0 (https://docs.mem0.ai) returns memories from get_all / the export API as a JSON array
// of {id, memory, user_id, agent_id, app_id, run_id, hash, metadata, categories, created_at,
// updated_at}, or wrapped as {"results": […]} (the v1.1 output format) or {"memories": […]}.
// A memory with an agent_id becomes that agent's memory; the rest are global facts about the
// person (type user). categories and metadata.category become tags; the mem0 id is kept in
// the reasoning so the person can trace it.
//
// Exports vary by version and by who wrote them (the platform, the OSS client, a dump of the
// vector store's payloads, a script): the text may be under memory, text, data or content,
// ids may be numbers, categories a string, metadata null. Only the text decides whether an
// entry is a memory: a field around it of another kind is read as well as it can be, never a
// reason to leave the memory out (a numeric user_id used to drop the entry).

type mem0Memory struct {
	ID         any            `json:"id"`
	Memory     *string        `json:"memory"`
	Text       *string        `json:"text"`
	Data       *string        `json:"data"`
	Content    *string        `json:"content"`
	UserID     any            `json:"user_id"`
	AgentID    any            `json:"agent_id"`
	Metadata   map[string]any `json:"metadata"`
	Categories any            `json:"categories"`
	CreatedAt  any            `json:"created_at"`
	UpdatedAt  any            `json:"updated_at"`
}

// text is the first field holding text, in the order mem0's own shapes use them.
func (m mem0Memory) text() string {
	for _, p := range []*string{m.Memory, m.Text, m.Data, m.Content} {
		if p != nil && strings.TrimSpace(*p) != "" {
			return strings.TrimSpace(*p)
		}
	}
	return ""
}

// scalar is an id-like field as text: a string, or a number as written ("" for anything else).
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

// strings of a field that is a list of strings or one string (categories: "health").
func stringsOf(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// mem0Agent makes a mem0 agent_id an Engram agent name: mem0 takes any string ("Support Bot",
// "travel_assistant_v2"), so case and runs of other characters are folded to lowercase and
// dashes ("support-bot"). A name with a path separator or ".." is refused, not folded: it is
// hostile or a path, and no folding of it names the agent the person meant. ok is false when
// nothing usable is left.
func mem0Agent(raw string) (string, bool) {
	a := strings.ToLower(strings.TrimSpace(raw))
	if format.ValidAgent(a) {
		return a, true
	}
	if strings.ContainsAny(a, `/\`) || strings.Contains(a, "..") {
		return "", false
	}
	var b strings.Builder
	dash := false
	for _, r := range a {
		if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	name := strings.Trim(b.String(), "-._")
	if len(name) > 63 {
		name = strings.Trim(name[:63], "-._")
	}
	return name, format.ValidAgent(name)
}

func convertMem0(path string, opts Options) ([]Sourced, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	// Entries are decoded one by one, so one that is not a memory object leaves out that
	// entry, not the export.
	var list []json.RawMessage
	// A byte-order mark (a file saved by Windows tools, PowerShell's Out-File) is not JSON:
	// it read "a mem0 export is JSON".
	trim := strings.TrimSpace(strings.TrimPrefix(string(b), "\ufeff"))
	switch {
	case strings.HasPrefix(trim, "["):
		err = json.Unmarshal([]byte(trim), &list)
	case strings.HasPrefix(trim, "{"):
		// One object, or JSON Lines — one memory object a line, as `jq -c '.[]'` and export
		// scripts write them (it read "invalid character '{' after top-level value").
		dec := json.NewDecoder(strings.NewReader(trim))
		var first json.RawMessage
		if err = dec.Decode(&first); err == nil && dec.More() {
			list = append(list, first)
			for err == nil && dec.More() {
				var next json.RawMessage
				if err = dec.Decode(&next); err == nil {
					list = append(list, next)
				}
			}
			break
		}
		var wrap struct {
			Results  *[]json.RawMessage `json:"results"`
			Memories *[]json.RawMessage `json:"memories"`
		}
		if err == nil {
			err = json.Unmarshal(first, &wrap)
		}
		if err == nil {
			var one mem0Memory
			switch {
			case wrap.Results != nil:
				list = *wrap.Results
			case wrap.Memories != nil:
				list = *wrap.Memories
			case json.Unmarshal(first, &one) == nil && one.text() != "":
				list = []json.RawMessage{first} // a single memory
			default:
				return nil, invalid(path, "a mem0 export is a list of memories or an object with \"results\"")
			}
		}
	default:
		return nil, invalid(path, "a mem0 export is JSON (a list of memories)")
	}
	if err != nil {
		return nil, invalid(path, "not valid JSON: "+err.Error())
	}
	out := make([]Sourced, 0, len(list))
	for i, raw := range list {
		var m mem0Memory
		if err := json.Unmarshal(raw, &m); err != nil {
			if err := badEntry(opts, path, i+1, "not a memory object: "+err.Error(), "detail.entry_not_object", nil); err != nil {
				return nil, err
			}
			continue
		}
		// An entry with empty or blank text is named too: it used to vanish without a word.
		text := m.text()
		if text == "" {
			if err := badEntry(opts, path, i+1, "no \"memory\" text", "detail.entry_no_text", map[string]any{"Field": "memory"}); err != nil {
				return nil, err
			}
			continue
		}
		rec := format.Record{Scope: format.ScopeGlobal, Type: format.TypeUser, Title: titleOf(text), Body: text,
			Tags: []string{"mem0"}, Created: parseTime(m.CreatedAt), Updated: parseTime(m.UpdatedAt)}
		if rec.Updated == nil {
			rec.Updated = rec.Created
		}
		if raw := scalar(m.AgentID); raw != "" {
			a, ok := mem0Agent(raw)
			if !ok {
				if err := badEntry(opts, path, i+1, fmt.Sprintf("agent_id %q is not a usable agent name", raw), "detail.entry_bad_agent", map[string]any{"Agent": raw}); err != nil {
					return nil, err
				}
				continue
			}
			rec.Scope, rec.Agent = format.ScopeAgent, a
		}
		for _, c := range append(stringsOf(m.Categories), stringsOf(m.Metadata["category"])...) {
			rec.Tags = addTag(rec.Tags, tagOf(c))
		}
		var why []string
		if id := scalar(m.ID); id != "" {
			why = append(why, "mem0 id "+id)
		}
		if u := scalar(m.UserID); u != "" {
			why = append(why, "user "+u)
		}
		if raw := scalar(m.AgentID); raw != "" && raw != rec.Agent {
			why = append(why, "agent_id "+raw)
		}
		rec.Reasoning = "Imported from mem0"
		if len(why) > 0 {
			rec.Reasoning += " (" + strings.Join(why, ", ") + ")"
		}
		if len(rec.Reasoning) > 2000 {
			rec.Reasoning = strings.ToValidUTF8(rec.Reasoning[:2000], "")
		}
		rec.Slug = format.SlugFromTitle(rec.Title)
		out = append(out, Sourced{Record: rec, Origin: Origin{Path: path, Entry: i + 1}})
	}
	return out, nil
}
