package importer

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// conversationsJSON is a ChatGPT data export's conversations.json: two conversations, the
// first with a memory saved (an assistant message to the "bio" tool) after the person's
// message and the tool's acknowledgement, its mapping written out of order; the second with
// two memories saved and one plain answer.
const conversationsJSON = "\ufeff" + `[
 {"title": "Trip", "create_time": 1709654400.0, "id": "c1", "current_node": "n4", "mapping": {
  "n4": {"id": "n4", "parent": "n3", "children": [], "message": {"id": "m4", "author": {"role": "tool", "name": "bio"},
         "content": {"content_type": "text", "parts": ["Model set context updated."]}, "create_time": 1709654402.0}},
  "n1": {"id": "n1", "parent": null, "children": ["n2"], "message": null},
  "n3": {"id": "n3", "parent": "n2", "children": ["n4"], "message": {"id": "m3", "author": {"role": "assistant"}, "recipient": "bio",
         "content": {"content_type": "text", "parts": ["Is vegetarian."]}, "create_time": 1709654401.0}},
  "n2": {"id": "n2", "parent": "n1", "children": ["n3"], "message": {"id": "m2", "author": {"role": "user"}, "recipient": "all",
         "content": {"content_type": "text", "parts": ["I am vegetarian, remember that"]}, "create_time": 1709654400.0}}}},
 {"title": "Work", "create_time": 1709740800.0, "id": "c2", "mapping": {
  "b": {"id": "b", "message": {"author": {"role": "assistant"}, "recipient": "bio", "content": {"parts": ["Works at Acme as a data engineer."]}, "create_time": 1709740802.0}},
  "a": {"id": "a", "message": {"author": {"role": "assistant"}, "recipient": "bio", "content": {"parts": ["Lives in Porto."]}, "create_time": 1709740801.0}},
  "c": {"id": "c", "message": {"author": {"role": "assistant"}, "recipient": "all", "content": {"parts": ["Noted!"]}, "create_time": 1709740803.0}}}}
]`

// People point the importer at the unzipped ChatGPT data export or at its conversations.json
// (the file every guide names); it said "a folder, not a file" or "entry 1 has no content
// text". The memories ChatGPT saved — its messages to the memory tool — are read from the
// conversations, in order, dated; nothing else of the chat is. A folder's memory.json wins
// when there is one; a history with no saved memory, and a folder with neither file, are
// refused saying so.
func TestChatGPTDataExport(t *testing.T) {
	dir := t.TempDir()
	export := filepath.Join(dir, "export")
	if err := os.MkdirAll(export, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(export, "conversations.json"), conversationsJSON)
	write(t, filepath.Join(export, "user.json"), `{"id": "user-1", "email": "me@example.com"}`)
	renamed := filepath.Join(dir, "chats.json")
	write(t, renamed, conversationsJSON)
	want := []string{"Is vegetarian.", "Lives in Porto.", "Works at Acme as a data engineer."}
	for _, src := range []string{export, filepath.Join(export, "conversations.json"), renamed} {
		recs, skipped, err := ConvertAll(FormatChatGPT, src, Options{})
		if err != nil || len(skipped) != 0 {
			t.Fatalf("%s: %v, skipped %+v", src, err, skipped)
		}
		var texts []string
		for _, r := range recs {
			texts = append(texts, r.Body)
		}
		if !slices.Equal(texts, want) {
			t.Fatalf("%s: converted %q, want %q", src, texts, want)
		}
		if c := recs[0].Created; c == nil || !c.Equal(time.Unix(1709654401, 0)) || recs[0].Type != "user" || !slices.Contains(recs[0].Tags, "chatgpt") {
			t.Fatalf("%s: first record %+v", src, recs[0])
		}
	}

	// A folder with memory.json reads it, not the conversations.
	write(t, filepath.Join(export, "memory.json"), `[{"content": "Prefers short answers", "enabled": true}]`)
	if recs, err := Convert(FormatChatGPT, export, Options{}); err != nil || len(recs) != 1 || recs[0].Body != "Prefers short answers" {
		t.Fatalf("folder with memory.json: %+v, %v", recs, err)
	}

	// Newer exports split the conversations; a history without saved memories says so.
	split := filepath.Join(dir, "split")
	if err := os.MkdirAll(split, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(split, "conversations-000.json"), `[{"title": "x", "mapping": {"a": {"message": {"author": {"role": "user"}, "content": {"parts": ["hi"]}}}}}]`)
	write(t, filepath.Join(split, "conversations-001.json"), `[]`)
	_, _, err := ConvertAll(FormatChatGPT, split, Options{})
	assertDetail(t, err, "detail.chatgpt_no_saved_memories")
	_, _, err = ConvertAll(FormatChatGPT, t.TempDir(), Options{})
	assertDetail(t, err, "detail.chatgpt_folder")
}

func assertDetail(t *testing.T, err error, key string) {
	t.Helper()
	ie, ok := err.(*Error)
	if !ok || ie.Code != CodeSourceInvalid || ie.Args["DetailKey"] != key {
		t.Fatalf("error %v, want %s with %s", err, CodeSourceInvalid, key)
	}
}
