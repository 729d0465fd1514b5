package importer

import (
	"encoding/json"
	"fmt"
	"strings"

	"engram/backend/memory/format"
)

// mem0 (https://docs.mem0.ai) returns memories from get_all / the export API as a JSON array
// of {id, memory, user_id, agent_id, app_id, run_id, hash, metadata, categories, created_at,
// updated_at}, or wrapped as {"results": […]} (the v1.1 output format) or {"memories": […]}.
// A memory with an agent_id becomes that agent's memory; the rest are global facts about the
// person (type user). categories and metadata.category become tags; the mem0 id is kept in
// the reasoning so the person can trace it.

type mem0Memory struct {
	ID         string         `json:"id"`
	Memory     *string        `json:"memory"`
	UserID     string         `json:"user_id"`
	AgentID    string         `json:"agent_id"`
	Metadata   map[string]any `json:"metadata"`
	Categories []string       `json:"categories"`
	CreatedAt  any            `json:"created_at"`
	UpdatedAt  any            `json:"updated_at"`
}

func convertMem0(path string, opts Options) ([]Sourced, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	// Entries are decoded one by one, so one that is not a memory object leaves out that
	// entry, not the export.
	var list []json.RawMessage
	trim := strings.TrimSpace(string(b))
	switch {
	case strings.HasPrefix(trim, "["):
		err = json.Unmarshal(b, &list)
	case strings.HasPrefix(trim, "{"):
		var wrap struct {
			Results  *[]json.RawMessage `json:"results"`
			Memories *[]json.RawMessage `json:"memories"`
		}
		if err = json.Unmarshal(b, &wrap); err == nil {
			switch {
			case wrap.Results != nil:
				list = *wrap.Results
			case wrap.Memories != nil:
				list = *wrap.Memories
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
		if m.Memory == nil || strings.TrimSpace(*m.Memory) == "" {
			if err := badEntry(opts, path, i+1, "no \"memory\" text", "detail.entry_no_text", map[string]any{"Field": "memory"}); err != nil {
				return nil, err
			}
			continue
		}
		text := strings.TrimSpace(*m.Memory)
		rec := format.Record{Scope: format.ScopeGlobal, Type: format.TypeUser, Title: titleOf(text), Body: text,
			Tags: []string{"mem0"}, Created: parseTime(m.CreatedAt), Updated: parseTime(m.UpdatedAt)}
		if rec.Updated == nil {
			rec.Updated = rec.Created
		}
		if a := strings.ToLower(strings.TrimSpace(m.AgentID)); a != "" {
			if !format.ValidAgent(a) {
				if err := badEntry(opts, path, i+1, fmt.Sprintf("agent_id %q is not a usable agent name", m.AgentID), "detail.entry_bad_agent", map[string]any{"Agent": m.AgentID}); err != nil {
					return nil, err
				}
				continue
			}
			rec.Scope, rec.Agent = format.ScopeAgent, a
		}
		for _, c := range m.Categories {
			rec.Tags = addTag(rec.Tags, tagOf(c))
		}
		if c, ok := m.Metadata["category"].(string); ok {
			rec.Tags = addTag(rec.Tags, tagOf(c))
		}
		var why []string
		if m.ID != "" {
			why = append(why, "mem0 id "+m.ID)
		}
		if m.UserID != "" {
			why = append(why, "user "+m.UserID)
		}
		rec.Reasoning = "Imported from mem0"
		if len(why) > 0 {
			rec.Reasoning += " (" + strings.Join(why, ", ") + ")"
		}
		if len(rec.Reasoning) > 2000 {
			rec.Reasoning = rec.Reasoning[:2000]
		}
		rec.Slug = format.SlugFromTitle(rec.Title)
		out = append(out, Sourced{Record: rec, Origin: Origin{Path: path, Entry: i + 1}})
	}
	return out, nil
}
