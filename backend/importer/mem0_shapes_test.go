package importer

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// mem0 exports come in the shapes of its versions and of whoever wrote them: the text under
// memory, text, data (the vector store's payload) or content; ids and user_ids as numbers;
// categories as one string; metadata null or its category a list; agent_ids as people type
// them; created_at in Python's str() of a datetime or in milliseconds. Each entry here is a
// memory and must be converted with its agent, tags and dates — a numeric user_id or a string
// of categories left the whole memory out, "Support Bot" as agent_id did too.
func TestMem0ExportShapes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mem0.json")
	write(t, path, `{"results": [
		{"id": 17, "memory": "Prefers window seats", "user_id": 12345, "categories": null, "metadata": null,
		 "created_at": "2024-07-20 10:15:30.123456+00:00"},
		{"id": "b", "text": "Allergic to peanuts", "categories": "Health", "metadata": {"category": ["diet", "Food Safety"]},
		 "created_at": 1721465563123},
		{"id": "c", "data": "Lives in Berlin", "hash": "h", "created_at": 1721465563.5},
		{"id": "d", "content": "Speaks German", "agent_id": "Support Bot", "created_at": "2024-07-20T01:52:43.213374-07:00"},
		{"id": "e", "memory": "Uses vim", "agent_id": "travel_assistant_v2"}], "relations": []}`)
	recs, skipped, err := ConvertAll(FormatMem0, path, Options{})
	if err != nil || len(skipped) != 0 {
		t.Fatalf("converted with %v, skipped %+v", err, skipped)
	}
	for i, w := range []struct {
		body, agent, created, reasoning string
		tags                            []string
	}{
		{"Prefers window seats", "", "2024-07-20T10:15:30.123456Z", "mem0 id 17, user 12345", []string{"mem0"}},
		{"Allergic to peanuts", "", "2024-07-20T08:52:43.123Z", "mem0 id b", []string{"mem0", "health", "diet", "food-safety"}},
		{"Lives in Berlin", "", "2024-07-20T08:52:43.5Z", "mem0 id c", []string{"mem0"}},
		{"Speaks German", "support-bot", "2024-07-20T08:52:43.213374Z", "agent_id Support Bot", []string{"mem0"}},
		{"Uses vim", "travel_assistant_v2", "", "mem0 id e", []string{"mem0"}},
	} {
		if i >= len(recs) {
			t.Fatalf("only %d records, want 5", len(recs))
		}
		r := recs[i]
		if r.Body != w.body || r.Agent != w.agent || !slices.Equal(r.Tags, w.tags) || !strings.Contains(r.Reasoning, w.reasoning) {
			t.Errorf("%d: %q agent %q tags %q reasoning %q; want %q agent %q tags %q reasoning with %q",
				i, r.Body, r.Agent, r.Tags, r.Reasoning, w.body, w.agent, w.tags, w.reasoning)
		}
		got := ""
		if r.Created != nil {
			got = r.Created.Format(time.RFC3339Nano)
		}
		if got != w.created {
			t.Errorf("%d: created %q, want %q", i, got, w.created)
		}
	}
}

// A mem0 agent_id is folded into an Engram agent name when that names the same agent; one
// holding a path or ".." is still refused, and one with nothing usable left too.
func TestMem0AgentNames(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		ok        bool
	}{
		{"claude", "claude", true},
		{"Support Bot", "support-bot", true},
		{"  Travel  Agent (EU) ", "travel-agent-eu", true},
		{"旅行助手", "", false},
		{"../../etc", "", false},
		{"a/b", "", false},
		{`a\b`, "", false},
		{strings.Repeat("Ab ", 40), strings.TrimRight(strings.Repeat("ab-", 21), "-"), true},
	} {
		got, ok := mem0Agent(tc.raw)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("mem0Agent(%q) = %q, %v; want %q, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}

// A mem0 export saved with a byte-order mark (PowerShell's Out-File), written as JSON Lines
// (one memory a line: `jq -c '.[]'`, export scripts) or holding one memory object read "a mem0
// export is JSON" or "invalid character '{' after top-level value": nothing was imported.
func TestMem0FileShapes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"bom.json", "\ufeff[{\"memory\": \"Likes tea\"}]", []string{"Likes tea"}},
		{"lines.jsonl", "{\"id\": \"a\", \"memory\": \"Likes tea\"}\n{\"id\": \"b\", \"memory\": \"Runs on Sundays\"}\n", []string{"Likes tea", "Runs on Sundays"}},
		{"bom-lines.jsonl", "\ufeff{\"memory\": \"Likes tea\"}\r\n{\"memory\": \"Has a cat\"}\r\n", []string{"Likes tea", "Has a cat"}},
		{"one.json", `{"id": "a", "memory": "Likes tea", "user_id": "ada"}`, []string{"Likes tea"}},
		{"wrapped-bom.json", "\ufeff{\"results\": [{\"memory\": \"Likes tea\"}]}", []string{"Likes tea"}},
	} {
		p := filepath.Join(dir, tc.name)
		write(t, p, tc.text)
		recs, err := Convert(FormatMem0, p, Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []string
		for _, r := range recs {
			got = append(got, r.Body)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// Still refused: an object that is no memory, and a broken line.
	for name, text := range map[string]string{"other.json": `{"count": 3}`, "broken.jsonl": "{\"memory\": \"a\"}\n{\"memory\": \n"} {
		p := filepath.Join(dir, name)
		write(t, p, text)
		if _, err := Convert(FormatMem0, p, Options{}); err == nil {
			t.Errorf("%s converted", name)
		} else {
			assertCode(t, err, CodeSourceInvalid)
		}
	}
}
