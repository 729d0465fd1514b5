package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"engram/backend/extraction/turn"
)

func TestSample(t *testing.T) {
	p, err := ReadFile("testdata/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if p.SessionID != "5f0e8a52-1c3b-4d7e-8a11-2b9c0d4e6f71" || p.Cwd != "/home/dev/src/billing" {
		t.Fatalf("session %q cwd %q", p.SessionID, p.Cwd)
	}
	want := []struct{ role, text string }{
		{RoleUser, "Add pytest to this repo. I always use pytest with the -q flag, never unittest."},
		{RoleAssistant, "I'll add pytest and a config file."},
		{RoleAssistant, "Done: pytest.ini sets -q."},
	}
	if len(p.Entries) != len(want) {
		t.Fatalf("entries %+v", p.Entries)
	}
	for i, w := range want {
		if p.Entries[i].Role != w.role || p.Entries[i].Text != w.text {
			t.Errorf("entry %d = %s %q, want %s %q", i, p.Entries[i].Role, p.Entries[i].Text, w.role, w.text)
		}
	}
	if strings.Contains(p.Entries[1].Text, "user wants pytest") {
		t.Error("thinking leaked into the assistant's text")
	}
	muts := p.Entries[1].Mutations
	if len(muts) != 1 || muts[0] != (turn.Mutation{Tool: "Write", Path: "/home/dev/src/billing/pytest.ini", Kind: "write"}) {
		t.Fatalf("mutations %+v", muts)
	}
	if p.Entries[0].UUID != "0b7c2f3e-5a1d-4c2e-9f00-000000000002" || p.Entries[0].Line != 3 {
		t.Fatalf("first entry %+v", p.Entries[0])
	}
	if p.Partial || p.Oversized != 0 || p.Malformed != 0 || p.Duplicates != 0 {
		t.Fatalf("counts %+v", p)
	}
}

func line(v map[string]any) string {
	b, _ := json.Marshal(v)
	return string(b) + "\n"
}

func user(uuid string, content any, extra map[string]any) string {
	m := map[string]any{"type": "user", "uuid": uuid, "sessionId": "s", "message": map[string]any{"role": "user", "content": content}}
	for k, v := range extra {
		m[k] = v
	}
	return line(m)
}

func assistant(uuid string, parts ...map[string]any) string {
	return line(map[string]any{"type": "assistant", "uuid": uuid, "message": map[string]any{"role": "assistant", "content": parts}})
}

func toolUse(name string, input map[string]any) map[string]any {
	return map[string]any{"type": "tool_use", "id": "t", "name": name, "input": input}
}

func TestEdgeCases(t *testing.T) {
	big := strings.Repeat("x", MaxLine+10)
	tests := []struct {
		name      string
		in        string
		texts     []string // role:text of every entry
		mutations []turn.Mutation
		check     func(t *testing.T, p Parsed)
	}{
		{name: "meta and sidechain are not the person",
			in:    user("a", "/clear", map[string]any{"isMeta": true}) + user("b", "sub-agent prompt", map[string]any{"isSidechain": true}) + user("c", "real words", nil),
			texts: []string{"user:real words"}},
		{name: "tool_result parts are tool output",
			in: user("a", []any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": "secret output"}}, nil) +
				user("b", []any{map[string]any{"type": "text", "text": "mixed"}, map[string]any{"type": "tool_result", "content": "x"}}, nil) +
				user("c", "after", map[string]any{"toolUseResult": map[string]any{"type": "create"}}),
			texts: []string{}},
		{name: "text parts are the person",
			in:    user("a", []any{map[string]any{"type": "text", "text": "one"}, map[string]any{"type": "image"}, map[string]any{"type": "text", "text": "two"}}, nil),
			texts: []string{"user:one\n\ntwo"}},
		{name: "slash-command noise without isMeta",
			in:    user("a", "<command-name>/model</command-name>", nil) + user("b", "<local-command-stdout>ok</local-command-stdout>", nil) + user("c", "   ", nil),
			texts: []string{}},
		{name: "bash mode input and output are not the person",
			in: user("a", "<bash-input>cat notes.txt</bash-input>", nil) +
				user("b", "<bash-stdout>My name is Bob and I live in Paris.</bash-stdout><bash-stderr></bash-stderr>", nil) +
				user("c", "[Request interrupted by user for tool use]", nil) + user("d", "I live in Oslo", nil),
			texts: []string{"user:I live in Oslo"}},
		{name: "IDE context and system reminders are cut from the person's words",
			in: user("a", []any{map[string]any{"type": "text", "text": "<ide_opened_file>The user opened the file /p/x.go in the IDE. This may or may not be related to the current task.</ide_opened_file>"},
				map[string]any{"type": "text", "text": "Never use tabs here."}}, nil) +
				user("b", "<ide_selection>The user selected lines 1 to 3 from /p/a.py:\nI am the admin</ide_selection>", nil) +
				user("c", "call me Sam <system-reminder>The user is named Alex</system-reminder>", nil) +
				user("d", "why is there a <system-reminder> in my prompt?", nil),
			texts: []string{"user:Never use tabs here.", "user:call me Sam", "user:why is there a <system-reminder> in my prompt?"}},
		{name: "partial last line is left for next time",
			in:    user("a", "first", nil) + `{"type":"user","uuid":"b","message":{"role":"user","content":"hal`,
			texts: []string{"user:first"},
			check: func(t *testing.T, p Parsed) {
				if !p.Partial || p.Malformed != 0 {
					t.Fatalf("partial %v malformed %d", p.Partial, p.Malformed)
				}
			}},
		{name: "complete last line without newline is read",
			in:    strings.TrimSuffix(user("a", "no newline", nil), "\n"),
			texts: []string{"user:no newline"},
			check: func(t *testing.T, p Parsed) {
				if p.Partial {
					t.Fatal("a valid last line is not partial")
				}
			}},
		{name: "duplicates by uuid",
			in:    user("a", "same", nil) + user("a", "same", nil) + assistant("b", map[string]any{"type": "text", "text": "ok"}) + assistant("b", map[string]any{"type": "text", "text": "ok"}),
			texts: []string{"user:same", "assistant:ok"},
			check: func(t *testing.T, p Parsed) {
				if p.Duplicates != 2 {
					t.Fatalf("duplicates %d", p.Duplicates)
				}
			}},
		{name: "unknown types and malformed lines are skipped",
			in:    line(map[string]any{"type": "summary", "summary": "x"}) + line(map[string]any{"type": "file-history-snapshot"}) + "not json\n[1,2]\n" + user("a", "kept", nil),
			texts: []string{"user:kept"},
			check: func(t *testing.T, p Parsed) {
				if p.Malformed != 2 {
					t.Fatalf("malformed %d", p.Malformed)
				}
			}},
		{name: "oversized lines are skipped and counted",
			in:    user("a", big, nil) + user("b", "after the big one", nil),
			texts: []string{"user:after the big one"},
			check: func(t *testing.T, p Parsed) {
				if p.Oversized != 1 || p.Entries[0].Line != 2 {
					t.Fatalf("oversized %d, line %d", p.Oversized, p.Entries[0].Line)
				}
			}},
		{name: "oversized partial last line",
			in:    user("a", "ok", nil) + big,
			texts: []string{"user:ok"},
			check: func(t *testing.T, p Parsed) {
				if p.Oversized != 1 {
					t.Fatalf("oversized %d", p.Oversized)
				}
			}},
		{name: "mutations of every writing tool",
			in: assistant("a", map[string]any{"type": "thinking", "thinking": "hm"},
				toolUse("Edit", map[string]any{"file_path": "/w/a.go"}), toolUse("MultiEdit", map[string]any{"file_path": "/w/b.go"}),
				toolUse("NotebookEdit", map[string]any{"notebook_path": "/w/c.ipynb"}), toolUse("Bash", map[string]any{"command": "rm -rf build"}),
				toolUse("Read", map[string]any{"file_path": "/w/d.go"}), toolUse("Write", map[string]any{"file_path": "/w/e.go"})),
			texts: []string{"assistant:"},
			mutations: []turn.Mutation{{Tool: "Edit", Path: "/w/a.go", Kind: "edit"}, {Tool: "MultiEdit", Path: "/w/b.go", Kind: "edit"},
				{Tool: "NotebookEdit", Path: "/w/c.ipynb", Kind: "edit"}, {Tool: "Bash", Kind: "command"}, {Tool: "Write", Path: "/w/e.go", Kind: "write"}}},
		{name: "assistant with nothing to say or do is skipped",
			in:    assistant("a", map[string]any{"type": "thinking", "thinking": "only thinking"}, toolUse("Read", map[string]any{"file_path": "/x"})),
			texts: []string{}},
		{name: "entry without uuid gets a content id",
			in:    line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": "anonymous"}}),
			texts: []string{"user:anonymous"},
			check: func(t *testing.T, p Parsed) {
				if !strings.HasPrefix(p.Entries[0].UUID, "sha256:") {
					t.Fatalf("uuid %q", p.Entries[0].UUID)
				}
			}},
		{name: "CRLF and blank lines", in: "\r\n\n" + strings.ReplaceAll(user("a", "windows", nil), "\n", "\r\n"), texts: []string{"user:windows"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			var muts []turn.Mutation
			for _, e := range p.Entries {
				got = append(got, e.Role+":"+e.Text)
				muts = append(muts, e.Mutations...)
			}
			if strings.Join(got, "|") != strings.Join(tc.texts, "|") {
				t.Fatalf("entries %q, want %q", got, tc.texts)
			}
			if len(muts) != len(tc.mutations) {
				t.Fatalf("mutations %+v, want %+v", muts, tc.mutations)
			}
			for i := range muts {
				if muts[i] != tc.mutations[i] {
					t.Fatalf("mutation %d = %+v, want %+v", i, muts[i], tc.mutations[i])
				}
			}
			if tc.check != nil {
				tc.check(t, p)
			}
		})
	}
}

// A reader that fails is the one error Parse returns.
func TestReaderError(t *testing.T) {
	_, err := Parse(io.MultiReader(strings.NewReader(user("a", "x", nil)), errReader{}))
	if err == nil || !strings.Contains(err.Error(), "transcript: unable to read") {
		t.Fatalf("err %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, os.ErrPermission }

func TestRequestWindow(t *testing.T) {
	var es []Entry
	for i := 0; i < 12; i++ {
		es = append(es, Entry{UUID: "u" + string(rune('a'+i)), Role: RoleUser, Text: "person " + string(rune('a'+i))},
			Entry{UUID: "a" + string(rune('a'+i)), Role: RoleAssistant, Text: "answer", Mutations: []turn.Mutation{{Tool: "Write", Path: "/w/f", Kind: "write"}}})
	}
	req, dropped := Request(es, "s1", "claude-code", "/w")
	users := 0
	for _, m := range req.Messages {
		if m.Role == RoleUser {
			users++
		}
	}
	if users != MaxPersonTurns || dropped != 8 || req.Messages[0].Content != "person e" || req.Messages[0].ID != "ue" {
		t.Fatalf("users %d dropped %d first %+v", users, dropped, req.Messages[0])
	}
	if len(req.WorkspaceMutations) != MaxPersonTurns || req.SessionID != "s1" || req.Agent != "claude-code" || req.Workdir != "/w" {
		t.Fatalf("request %+v", req)
	}
	// Size bound: huge messages are cut on a rune boundary and the window shrinks.
	huge := strings.Repeat("界", MaxMessageBytes) // 3 bytes a rune
	var big []Entry
	for i := 0; i < 40; i++ {
		big = append(big, Entry{UUID: "x" + strings.Repeat("i", i), Role: RoleUser, Text: huge})
	}
	req, _ = Request(big, "s", "a", "")
	total := 0
	for _, m := range req.Messages {
		total += len(m.Content)
		head, tail, ok := strings.Cut(m.Content, CutMark)
		if len(m.Content) > MaxMessageBytes || !ok || !utf8.ValidString(m.Content) || !strings.HasPrefix(huge, head) || !strings.HasSuffix(huge, tail) {
			t.Fatalf("message of %d bytes, cut badly", len(m.Content))
		}
	}
	if total > MaxRequestBytes || len(req.Messages) == 0 {
		t.Fatalf("request of %d bytes in %d messages", total, len(req.Messages))
	}
	// Only assistant entries: nothing to learn from.
	req, _ = Request([]Entry{{UUID: "a", Role: RoleAssistant, Text: "hi"}}, "s", "a", "")
	if HasPerson(req) || len(req.Messages) != 0 {
		t.Fatalf("assistant-only request %+v", req)
	}
	// A window never starts with an answer whose question was left out.
	es = []Entry{{UUID: "1", Role: RoleAssistant, Text: "orphan answer"}, {UUID: "2", Role: RoleUser, Text: "q"}, {UUID: "3", Role: RoleAssistant, Text: "a"}}
	req, dropped = Request(es, "s", "a", "")
	if len(req.Messages) != 2 || req.Messages[0].Content != "q" || dropped != 1 {
		t.Fatalf("window %+v dropped %d", req.Messages, dropped)
	}
}

// FuzzTranscript: Parse never panics, and no entry it calls the person's comes from a line
// that is tool output, metadata, a sub-agent's prompt or not a user entry.
func FuzzTranscript(f *testing.F) {
	sample, err := os.ReadFile("testdata/sample.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample)
	f.Add([]byte(user("a", []any{map[string]any{"type": "tool_result", "content": "out"}}, nil)))
	f.Add([]byte(user("a", []any{map[string]any{"type": "text", "text": "hi"}}, nil) + `{"type":"user"`))
	f.Add([]byte(`{"type":"user","uuid":"x","isMeta":false,"message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"tool_result"}]}}` + "\n"))
	f.Add([]byte("\n\n{}\n[]\nnull\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(data, []byte("\n"))
		for _, e := range p.Entries {
			if e.Role != RoleUser {
				continue
			}
			if e.Line < 1 || e.Line > len(lines) {
				t.Fatalf("line %d out of range", e.Line)
			}
			raw, ok := folded(lines[e.Line-1])
			if !ok {
				t.Fatalf("person entry from a line that is not a JSON object: %q", lines[e.Line-1])
			}
			if string(raw["TYPE"]) != `"user"` || string(raw["ISMETA"]) == "true" || string(raw["ISSIDECHAIN"]) == "true" {
				t.Fatalf("person entry from %q", lines[e.Line-1])
			}
			if tur, ok := raw["TOOLUSERESULT"]; ok && string(tur) != "null" {
				t.Fatalf("person entry from tool output %q", lines[e.Line-1])
			}
			msg, _ := folded(raw["MESSAGE"])
			var parts []json.RawMessage
			if json.Unmarshal(msg["CONTENT"], &parts) == nil {
				for _, pt := range parts {
					if m, ok := folded(pt); ok && string(m["TYPE"]) == `"tool_result"` {
						t.Fatalf("tool_result returned as the person's message: %q", lines[e.Line-1])
					}
				}
			}
			if strings.TrimSpace(e.Text) == "" {
				t.Fatal("empty person message")
			}
		}
	})
}

// folded reads a JSON object independently of the parser: keys folded the way encoding/json
// matches them (case-insensitively), the last duplicate winning as it does there.
func folded(data []byte) (map[string]json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out[strings.ToUpper(strings.ToLower(key))] = v
	}
	return out, true
}

func TestReadFileFromOffset(t *testing.T) {
	path := t.TempDir() + "/t.jsonl"
	write := func(s string, appendTo bool) {
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if appendTo {
			flag = os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(path, flag, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.WriteString(s)
	}
	texts := func(p Parsed) string {
		var out []string
		for _, e := range p.Entries {
			out = append(out, e.Text)
		}
		return strings.Join(out, "|")
	}
	write(user("a", "one", nil)+user("b", "two", nil)+`{"type":"user","uuid":"c","message":{"role":"user","content":"thr`, false)
	p, err := ReadFileFrom(path, 0)
	if err != nil || texts(p) != "one|two" || !p.Partial || p.End != int64(len(user("a", "one", nil)+user("b", "two", nil))) {
		t.Fatalf("first read %q end %d partial %v %v", texts(p), p.End, p.Partial, err)
	}
	write(`ee"}}`+"\n"+user("d", "four", nil), true)
	q, err := ReadFileFrom(path, p.End)
	if err != nil || texts(q) != "three|four" || q.Start != p.End || q.Partial {
		t.Fatalf("second read %q start %d %v", texts(q), q.Start, err)
	}
	fi, _ := os.Stat(path)
	if q.End != fi.Size() {
		t.Fatalf("end %d, size %d", q.End, fi.Size())
	}
	// An offset that is not just after a newline, or past the end: the file was rewritten,
	// read it whole.
	for _, off := range []int64{3, fi.Size() + 100, -1} {
		r, err := ReadFileFrom(path, off)
		if err != nil || texts(r) != "one|two|three|four" || r.Start != 0 {
			t.Fatalf("offset %d: %q start %d %v", off, texts(r), r.Start, err)
		}
	}
}

func TestTailStart(t *testing.T) {
	path := t.TempDir() + "/t.jsonl"
	a, b, c := user("a", "one", nil), user("b", "two", nil), user("c", "three", nil)
	if err := os.WriteFile(path, []byte(a+b+c), 0o600); err != nil {
		t.Fatal(err)
	}
	size := int64(len(a + b + c))
	for _, tc := range []struct {
		n    int64
		want int64
	}{
		{size, 0},                            // the whole file fits
		{size + 10, 0},                       // smaller than the tail
		{int64(len(b + c)), int64(len(a))},   // exactly the last two lines
		{int64(len(b+c)) + 1, int64(len(a))}, // the newline before b is in the tail
		{int64(len(b+c)) - 1, int64(len(a))}, // b begins before the tail: it is read whole
		{1, size},                            // only the last newline: nothing of a line in the tail
		{2, int64(len(a + b))},               // the end of the last line: it is read whole
	} {
		got, big, err := TailStart(path, tc.n)
		if err != nil || got != tc.want || big != 0 {
			t.Fatalf("TailStart(%d) = %d %v, want %d", tc.n, got, err, tc.want)
		}
		p, err := ReadFileFrom(path, got)
		if err != nil || p.Start != got {
			t.Fatalf("read from %d: start %d %v", got, p.Start, err)
		}
	}
}

// TestCutKeepsHeadAndTail: a message over the bound keeps its beginning and its end with a
// visible mark between, on rune boundaries, within the bound. The trigger: a pasted log
// followed by "Remember that I prefer kebab-case for URL paths." kept only the log's first
// 16 KiB, ending mid-word with no mark.
func TestCutKeepsHeadAndTail(t *testing.T) {
	var log strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&log, "2026-12-06T10:%02d:00Z INFO worker %d processed batch %d in 1234ms without errors at all\n", i%60, i, i*7)
	}
	ask := "Remember that I prefer kebab-case for URL paths."
	cases := []struct {
		name, in  string
		n         int
		head, end string
	}{
		{"short", "Remember that I use zsh.", 100, "Remember that I use zsh.", "Remember that I use zsh."},
		{"log then the ask", log.String() + "\n" + ask, MaxMessageBytes, "2026-12-06T10:00:00Z INFO worker 0", ask},
		{"Chinese", strings.Repeat("日志行内容", 2000) + "。记住：我喜欢喝普洱茶", 4096, "日志行内容", "记住：我喜欢喝普洱茶"},
		{"tiny bound", "abcdefghijklmnop", 10, "abcdefghij", "abcdefghij"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Cut(c.in, c.n)
			if len(got) > c.n || !utf8.ValidString(got) || !strings.HasPrefix(got, c.head) || !strings.HasSuffix(got, c.end) {
				t.Fatalf("Cut gave %d bytes: %q … %q", len(got), got[:min(len(got), 60)], got[max(0, len(got)-60):])
			}
			if len(c.in) > c.n && c.n > 2*len(CutMark) && !strings.Contains(got, CutMark) {
				t.Fatal("a cut message carries no mark")
			}
		})
	}
}

// TestTailStartKeepsTheLastLongLine: a first read of a long transcript begins at the start of
// the line the tail begins in, so a last message longer than the tail (a pasted log with the
// request at its end) is read whole; a line longer than MaxLine there is skipped and counted,
// so the hook's log says a line was dropped.
func TestTailStartKeepsTheLastLongLine(t *testing.T) {
	dir := t.TempDir()
	a := user("a", "one", nil)
	long := user("b", strings.Repeat("log line\n", 400)+"Remember that I prefer kebab-case for URL paths.", nil)
	huge := user("h", strings.Repeat("x", MaxLine+10), nil)
	c := user("c", "three", nil)
	cases := []struct {
		name      string
		lines     []string
		n         int64
		want      int64
		oversized int
		texts     int // entries read from there
	}{
		{"a long last line", []string{a, long}, 100, int64(len(a)), 0, 1},
		{"an oversized line, then one more", []string{a, huge, c}, int64(len(c) + 50), int64(len(a + huge)), 1, 1},
		{"an oversized last line", []string{a, huge}, 50, int64(len(a + huge)), 1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := dir + "/" + strings.ReplaceAll(tc.name, " ", "-") + ".jsonl"
			if err := os.WriteFile(path, []byte(strings.Join(tc.lines, "")), 0o600); err != nil {
				t.Fatal(err)
			}
			got, big, err := TailStart(path, tc.n)
			if err != nil || got != tc.want || big != tc.oversized {
				t.Fatalf("TailStart = %d, %d oversized, %v; want %d, %d", got, big, err, tc.want, tc.oversized)
			}
			p, err := ReadFileFrom(path, got)
			if err != nil || len(p.Entries) != tc.texts {
				t.Fatalf("read from %d: %d entries %v", got, len(p.Entries), err)
			}
		})
	}
}
