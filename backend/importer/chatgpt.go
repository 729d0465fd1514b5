package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"engram/backend/memory/format"
)

// ChatGPT has no documented export of its saved memories. Two shapes are read (and a data
// export's folder or conversations file, chatgpt_export.go):
//   - JSON: the memory.json some data exports carry, or any list of {content (or memory/text),
//     enabled?, created_at?/create_time?, updated_at?/update_time?} — bare or wrapped as
//     {"memories": […]}, or a list of plain strings. Entries with enabled: false (turned off by
//     the person) are skipped; an entry that cannot be used (no text, not an object) is left
//     out and reported (ConvertAll).
//   - Text copied from Settings → Personalization → Manage memories: one memory per line
//     (leading "- " or "• " dropped, blank lines ignored).
// Each becomes a global memory about the person (type user) tagged chatgpt.

type chatgptMemory struct {
	Content    string `json:"content"`
	Memory     string `json:"memory"`
	Text       string `json:"text"`
	Enabled    *bool  `json:"enabled"`
	CreatedAt  any    `json:"created_at"`
	CreateTime any    `json:"create_time"`
	UpdatedAt  any    `json:"updated_at"`
	UpdateTime any    `json:"update_time"`
}

func convertChatGPT(path string, opts Options) ([]Sourced, error) {
	files, err := chatgptSource(path)
	if err != nil {
		return nil, err
	}
	var out []Sourced
	conversations := false
	for _, f := range files {
		var b []byte
		if !isConversations(f, nil) {
			if b, err = readFile(f); err != nil {
				return nil, err
			}
		}
		if isConversations(f, bytes.TrimPrefix(bytes.TrimSpace(b), []byte("\ufeff"))) {
			conversations = true
			err = convertConversations(f, func(text string, created any, from Origin) {
				out = append(out, chatgptRecord(text, created, nil, from))
			})
		} else {
			var recs []Sourced
			recs, err = chatgptMemories(f, b, opts)
			out = append(out, recs...)
		}
		if err != nil {
			return nil, err
		}
	}
	if conversations && len(out) == 0 {
		return nil, noSavedMemories(path)
	}
	return out, nil
}

// chatgptRecord is one ChatGPT memory as a record.
func chatgptRecord(text string, created, updated any, from Origin) Sourced {
	text = strings.TrimSpace(text)
	rec := format.Record{Scope: format.ScopeGlobal, Type: format.TypeUser, Title: titleOf(text), Body: text,
		Tags: []string{"chatgpt"}, Created: parseTime(created), Updated: parseTime(updated),
		Reasoning: "Imported from a ChatGPT memory export"}
	if rec.Updated == nil {
		rec.Updated = rec.Created
	}
	rec.Slug = format.SlugFromTitle(rec.Title)
	return Sourced{Record: rec, Origin: from}
}

// chatgptMemories reads a memory list or the text copied from Manage memories (see above).
func chatgptMemories(path string, b []byte, opts Options) ([]Sourced, error) {
	trim := strings.TrimSpace(strings.TrimPrefix(string(b), "\ufeff"))
	var out []Sourced
	add := func(text string, created, updated any, from Origin) {
		out = append(out, chatgptRecord(text, created, updated, from))
	}
	if !strings.HasPrefix(trim, "[") && !strings.HasPrefix(trim, "{") {
		// Blank lines only separate memories. Lines are counted in the file as it is (the
		// leading blank lines trimmed above included), so a refusal names the line people see.
		lead := strings.Count(string(b)[:strings.Index(string(b), trim)], "\n")
		for i, line := range strings.Split(trim, "\n") {
			line = strings.TrimSpace(line)
			for _, p := range []string{"- ", "* ", "• "} {
				line = strings.TrimPrefix(line, p)
			}
			if line != "" {
				add(line, nil, nil, Origin{Path: path, Line: lead + i + 1})
			}
		}
		return out, nil
	}
	// Entries are decoded one by one, so one that is not a memory object leaves out that
	// entry, not the export.
	var list []json.RawMessage
	if strings.HasPrefix(trim, "{") {
		var wrap struct {
			Memories *[]json.RawMessage `json:"memories"`
		}
		if err := json.Unmarshal([]byte(trim), &wrap); err != nil {
			return nil, invalid(path, "not valid JSON: "+err.Error())
		}
		if wrap.Memories == nil {
			return nil, invalid(path, "a ChatGPT memory export is a list of memories or an object with \"memories\"")
		}
		list = *wrap.Memories
	} else if err := json.Unmarshal([]byte(trim), &list); err != nil {
		return nil, invalid(path, "not valid JSON: "+err.Error())
	}
	for i, raw := range list {
		var line string
		if bytes.HasPrefix(raw, []byte(`"`)) && json.Unmarshal(raw, &line) == nil {
			// A list of plain texts; an empty one is named, as an entry without content is.
			if strings.TrimSpace(line) == "" {
				if err := badEntry(opts, path, i+1, "no text", "detail.entry_no_text", map[string]any{"Field": "content"}); err != nil {
					return nil, err
				}
				continue
			}
			add(line, nil, nil, Origin{Path: path, Entry: i + 1})
			continue
		}
		var m chatgptMemory
		err := json.Unmarshal(raw, &m)
		if err == nil && !bytes.HasPrefix(raw, []byte("{")) {
			err = errors.New("null") // decodes into nothing
		}
		if err != nil {
			if err := badEntry(opts, path, i+1, "not a memory object: "+err.Error(), "detail.entry_not_object", nil); err != nil {
				return nil, err
			}
			continue
		}
		text := firstNonEmpty(m.Content, m.Memory, m.Text)
		if text == "" {
			if m.Enabled != nil && !*m.Enabled {
				continue
			}
			if err := badEntry(opts, path, i+1, "no \"content\" text", "detail.entry_no_text", map[string]any{"Field": "content"}); err != nil {
				return nil, err
			}
			continue
		}
		if m.Enabled != nil && !*m.Enabled {
			continue
		}
		created, updated := m.CreatedAt, m.UpdatedAt
		if created == nil {
			created = m.CreateTime
		}
		if updated == nil {
			updated = m.UpdateTime
		}
		add(text, created, updated, Origin{Path: path, Entry: i + 1})
	}
	return out, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
