package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"engram/backend/coded"
)

// A ChatGPT data export (Settings → Data controls → Export data) is a zip whose folder holds
// conversations.json (or conversations-000.json, … in newer ones), user.json, chat.html and,
// in some, memory.json. People point the importer at that folder or at conversations.json,
// the file every guide names; both read "not in the expected format (entry 1 has no content
// text)" or "a folder, not a file", which told them nothing. Now:
//   - the folder: its memory.json (or memories.json) is read when there is one, else its
//     conversations files;
//   - conversations: the memories ChatGPT saved are in them — each is an assistant message to
//     the memory tool (recipient "bio") whose text is the fact written to memory. Those are
//     imported, in the order of the file, dated by their message. A history with none says so
//     and how to copy the memories by hand. Other messages are never memories: the chat itself
//     is not imported.
// conversations.json of a long-used account is often far over MaxFileBytes: it is decoded one
// conversation at a time, bounded by MaxTotalBytes.

var conversationsFileRE = regexp.MustCompile(`^conversations(-\d+)?\.json$`)

// chatgptSource resolves a folder to the files to read; a file is itself.
func chatgptSource(path string) ([]string, error) {
	dir, err := isDir(path)
	if err != nil || !dir {
		return []string{path}, err
	}
	for _, name := range []string{"memory.json", "memories.json"} {
		if st, err := os.Stat(filepath.Join(path, name)); err == nil && st.Mode().IsRegular() {
			return []string{filepath.Join(path, name)}, nil
		}
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fail(CodeSourceRead, coded.Reason(map[string]any{"Path": path}, err), "unable to read %s: %v", path, err)
	}
	var files []string
	for _, e := range entries {
		if e.Type().IsRegular() && conversationsFileRE.MatchString(e.Name()) {
			files = append(files, filepath.Join(path, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, invalidKey(path, "it holds neither memory.json nor conversations.json of a ChatGPT data export", "detail.chatgpt_folder", nil)
	}
	sort.Strings(files)
	return files, nil
}

// isConversations reports whether the file is a conversations file: by its name, or by a
// list whose first entry has a "mapping" (a conversations file renamed).
func isConversations(path string, b []byte) bool {
	if conversationsFileRE.MatchString(strings.ToLower(filepath.Base(path))) {
		return true
	}
	if b == nil {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') || !dec.More() {
		return false
	}
	var first map[string]json.RawMessage
	if dec.Decode(&first) != nil {
		return false
	}
	_, ok := first["mapping"]
	return ok
}

type chatgptConversation struct {
	Mapping map[string]struct {
		Message *struct {
			Author struct {
				Role string `json:"role"`
			} `json:"author"`
			Recipient string `json:"recipient"`
			Content   struct {
				Parts []any `json:"parts"`
				Text  any   `json:"text"`
			} `json:"content"`
			CreateTime any `json:"create_time"`
		} `json:"message"`
	} `json:"mapping"`
}

// convertConversations reads the memories saved in a conversations file (see above).
func convertConversations(path string, add func(text string, created any, from Origin)) error {
	st, err := os.Stat(path)
	if err != nil {
		return fail(CodeSourceRead, coded.Reason(map[string]any{"Path": path}, err), "unable to read %s: %v", path, err)
	}
	if st.Size() > MaxTotalBytes {
		return fail(CodeSourceTooBig, map[string]any{"Path": path, "Max": MaxTotalBytes}, "%s is larger than %d bytes", path, MaxTotalBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(CodeSourceRead, coded.Reason(map[string]any{"Path": path}, err), "unable to read %s: %v", path, err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	if b, _ := r.Peek(3); string(b) == "\ufeff" {
		_, _ = r.Discard(3)
	}
	dec := json.NewDecoder(io.LimitReader(r, MaxTotalBytes))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return invalid(path, "a ChatGPT conversations file is a JSON list of conversations")
	}
	for n := 1; dec.More(); n++ {
		var c chatgptConversation
		if err := dec.Decode(&c); err != nil {
			if _, ok := err.(*json.UnmarshalTypeError); !ok {
				return invalid(path, "not valid JSON: "+err.Error())
			}
			continue // a conversation of another shape holds no memory we can read
		}
		type saved struct {
			text string
			at   float64
			id   string
		}
		var found []saved
		for id, node := range c.Mapping {
			m := node.Message
			if m == nil || m.Recipient != "bio" || m.Author.Role != "assistant" {
				continue
			}
			var parts []string
			for _, p := range m.Content.Parts {
				if s, ok := p.(string); ok && strings.TrimSpace(s) != "" {
					parts = append(parts, strings.TrimSpace(s))
				}
			}
			if s, ok := m.Content.Text.(string); ok && len(parts) == 0 && strings.TrimSpace(s) != "" {
				parts = append(parts, strings.TrimSpace(s))
			}
			if len(parts) == 0 {
				continue
			}
			at, _ := m.CreateTime.(float64)
			found = append(found, saved{strings.Join(parts, "\n"), at, id})
		}
		// The mapping is an object: its order is not the conversation's; the messages' times are.
		sort.Slice(found, func(i, j int) bool {
			if found[i].at != found[j].at {
				return found[i].at < found[j].at
			}
			return found[i].id < found[j].id
		})
		for _, s := range found {
			var created any
			if s.at > 0 {
				created = s.at
			}
			add(s.text, created, Origin{Path: path, Entry: n})
		}
	}
	return nil
}

// noSavedMemories is a conversations history in which ChatGPT saved nothing to memory.
func noSavedMemories(path string) error {
	return invalidKey(path, "it is ChatGPT's conversation history and holds no memory ChatGPT saved; copy your memories from Settings → Personalization → Manage memories into a text file, one a line, and import that", "detail.chatgpt_no_saved_memories", nil)
}
