package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func turns(from, to int) []TurnInput {
	var out []TurnInput
	for i := from; i <= to; i++ {
		role := "user"
		if i%2 == 0 {
			role = "assistant"
		}
		out = append(out, TurnInput{Role: role, Content: fmt.Sprintf("message %d", i), MsgID: fmt.Sprintf("m%d", i)})
	}
	return out
}

func TestRecordListReadDeleteSession(t *testing.T) {
	e := newEnv(t)
	wd := t.TempDir()
	rec, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s1", Workdir: wd, Turns: turns(1, 3)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rec.Seqs) != "[1 2 3]" || rec.Session.TurnsReceived != 3 || rec.Session.TurnsKept != 3 ||
		rec.Session.ProjectKey == "" || rec.Session.FirstSeen.IsZero() {
		t.Fatalf("recorded %+v", rec)
	}
	// The same messages again (same ids) are stored once; a new one continues the numbering.
	e.clock.Advance(time.Minute)
	rec, err = e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s1", Workdir: wd,
		Turns: append(turns(2, 3), TurnInput{Role: "user", Content: "  new  "}, TurnInput{Role: "user", Content: " "})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rec.Seqs) != "[0 0 4 0]" || rec.Session.TurnsReceived != 4 || !rec.Session.LastActivity.After(rec.Session.FirstSeen) {
		t.Fatalf("second record %+v", rec)
	}
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "codex", Session: "s2", Turns: turns(1, 1)}, nil); err != nil {
		t.Fatal(err)
	}
	list, err := e.s.ListSessions(e.ctx, SessionFilter{})
	if err != nil || len(list) != 2 {
		t.Fatalf("list %+v %v", list, err)
	}
	if list, _ = e.s.ListSessions(e.ctx, SessionFilter{Workdir: wd}); len(list) != 1 || list[0].ID != "s1" {
		t.Fatalf("list by workdir %+v", list)
	}
	ts, err := e.s.SessionTurns(e.ctx, "claude-code", "s1")
	if err != nil || len(ts) != 4 || ts[3].Content != "new" || ts[0].MsgID != "m1" {
		t.Fatalf("turns %+v %v", ts, err)
	}
	if s, err := e.s.FindSession(e.ctx, "", "s1"); err != nil || s.Agent != "claude-code" {
		t.Fatalf("find %+v %v", s, err)
	}
	// One id, two agents: the agent must be named.
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "codex", Session: "s1", Turns: turns(1, 1)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.FindSession(e.ctx, "", "s1"); CodeOf(err) != CodeSessionAmbiguous {
		t.Fatalf("ambiguous: %v", err)
	}
	ok, err := e.s.DeleteSession(e.ctx, "claude-code", "s1")
	if err != nil || !ok {
		t.Fatalf("delete %v %v", ok, err)
	}
	if n := e.count(`SELECT COUNT(*) FROM session_turns WHERE agent = 'claude-code'`); n != 0 {
		t.Fatalf("%d turns left after delete", n)
	}
	if _, err := e.s.FindSession(e.ctx, "claude-code", "s1"); CodeOf(err) != CodeSessionNotFound {
		t.Fatalf("deleted session found: %v", err)
	}
	if ok, _ := e.s.DeleteSession(e.ctx, "claude-code", "s1"); ok {
		t.Fatal("second delete reported a session")
	}
	if _, err := e.s.FindSession(e.ctx, "", "s1"); err != nil {
		t.Fatalf("the other agent's s1 went too: %v", err)
	}
}

func TestRecordSessionRefusesBadInput(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		rec  SessionRecord
		code string
	}{
		{SessionRecord{Agent: "../x", Session: "s"}, CodeInvalidAgent},
		{SessionRecord{Agent: "a", Session: ""}, CodeInvalidSession},
		{SessionRecord{Agent: "a", Session: "s\n1"}, CodeInvalidSession},
		{SessionRecord{Agent: "a", Session: strings.Repeat("s", MaxSessionID+1)}, CodeInvalidSession},
		{SessionRecord{Agent: "a", Session: "s", Workdir: "relative"}, CodeInvalidWorkdir},
		{SessionRecord{Agent: "a", Session: "s", Turns: []TurnInput{{Role: "system", Content: "x"}}}, CodeInvalidRole},
	} {
		if _, err := e.s.RecordSession(e.ctx, tc.rec, nil); CodeOf(err) != tc.code {
			t.Errorf("%+v: got %v, want %s", tc.rec.Session, err, tc.code)
		}
	}
	if n := e.count(`SELECT COUNT(*) FROM sessions`); n != 0 {
		t.Fatalf("refused records left %d sessions", n)
	}
}

func TestCompactSessionExtractive(t *testing.T) {
	e := newEnv(t)
	// Turn 5 produced a memory: extraction records the seq as source.turn.
	it := wr("uses-pytest", "Uses pytest", "Always pytest -q")
	it.Source = &Source{Agent: "claude-code", Session: "s1", Turn: 5}
	e.ok(it)
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s1", Turns: turns(1, SessionCompactAt)}, nil); err != nil {
		t.Fatal(err)
	}
	rec, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s1", Turns: turns(SessionCompactAt+1, SessionCompactAt+1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := rec.Session
	if !rec.Compacted || s.TurnsKept != SessionKeep || s.Summarized != SessionCompactAt+1-SessionKeep || s.TurnsReceived != SessionCompactAt+1 {
		t.Fatalf("after compaction %+v", s)
	}
	want := "- #1 user: message 1\n- #5 user *: message 5\n- #61 user: message 61"
	if s.Summary != want {
		t.Fatalf("summary %q, want %q", s.Summary, want)
	}
	ts, _ := e.s.SessionTurns(e.ctx, "claude-code", "s1")
	if ts[0].Seq != 62 || ts[len(ts)-1].Seq != SessionCompactAt+1 {
		t.Fatalf("kept %d..%d", ts[0].Seq, ts[len(ts)-1].Seq)
	}
	// The next compaction appends to the summary.
	rec, err = e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s1", Turns: turns(82, 142)}, nil)
	if err != nil || !rec.Compacted || !strings.HasPrefix(rec.Session.Summary, want+"\n- #62 ") || rec.Session.TurnsKept != SessionKeep {
		t.Fatalf("second compaction %+v %v", rec.Session, err)
	}
}

func TestCompactSessionSummariser(t *testing.T) {
	e := newEnv(t)
	var got SummaryInput
	llm := func(_ context.Context, in SummaryInput) (string, error) { got = in; return "they set up pytest", nil }
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "a", Session: "s", Turns: turns(1, SessionCompactAt+5)}, llm); err != nil {
		t.Fatal(err)
	}
	s, _ := e.s.FindSession(e.ctx, "a", "s")
	if s.Summary != "they set up pytest" || len(got.Turns) != SessionCompactAt+5-SessionKeep || got.Turns[0].Seq != 1 {
		t.Fatalf("summary %q, summariser saw %d turns", s.Summary, len(got.Turns))
	}
	// A failing summariser falls back to the extractive summary: the bound always holds.
	broken := func(context.Context, SummaryInput) (string, error) { return "", errors.New("llm down") }
	rec, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "a", Session: "s", Turns: turns(86, 150)}, broken)
	if err != nil || rec.Session.TurnsKept != SessionKeep || !strings.HasPrefix(rec.Session.Summary, "they set up pytest\n- #66 ") {
		t.Fatalf("fallback %+v %v", rec.Session, err)
	}
}

func TestSearchHistoryIsolation(t *testing.T) {
	e := newEnv(t)
	p1, p2 := t.TempDir(), t.TempDir()
	rec := func(agent, id, wd, text string) {
		if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: agent, Session: id, Workdir: wd,
			Turns: []TurnInput{{Role: "user", Content: text}}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	rec("claude-code", "a", p1, "We deploy billing with Helm charts")
	rec("claude-code", "b", p2, "Other project: deploy with Ansible")
	rec("codex", "c", p1, "Codex says deploy 100% via make_deploy")
	rec("claude-code", "d", "", "no project: deploy 绿茶 notes")
	key1 := ProjectKey(mustCanon(t, p1))
	hits, err := e.s.SearchHistory(e.ctx, HistoryQuery{Agent: "claude-code", ProjectKey: key1, Terms: []string{"DEPLOY"}})
	if err != nil || len(hits) != 1 || hits[0].Session != "a" || hits[0].Seq != 1 {
		t.Fatalf("claude-code in p1: %+v %v", hits, err)
	}
	if hits, _ = e.s.SearchHistory(e.ctx, HistoryQuery{Agent: "claude-code", Terms: []string{"绿茶"}}); len(hits) != 1 || hits[0].Session != "d" {
		t.Fatalf("no project: %+v", hits)
	}
	// LIKE wildcards in a term are literal.
	if hits, _ = e.s.SearchHistory(e.ctx, HistoryQuery{Agent: "codex", ProjectKey: key1, Terms: []string{"100%", "make_"}}); len(hits) != 1 {
		t.Fatalf("literal wildcard: %+v", hits)
	}
	if hits, _ = e.s.SearchHistory(e.ctx, HistoryQuery{Agent: "codex", ProjectKey: key1, Terms: []string{"1_0"}}); len(hits) != 0 {
		t.Fatalf("_ matched as a wildcard: %+v", hits)
	}
	if hits, _ = e.s.SearchHistory(e.ctx, HistoryQuery{ProjectKey: key1, Terms: []string{"deploy"}}); len(hits) != 0 {
		t.Fatalf("no agent saw %+v", hits)
	}
}

func TestClaimTranscriptEntries(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.ClaimTranscriptEntries(e.ctx, "claude-code", "s", []string{"a", "b"})
	if err != nil || fmt.Sprint(got) != "[a b]" {
		t.Fatalf("first claim %v %v", got, err)
	}
	// A second process opening the same home sees the claims.
	other := e.open()
	if got, _ = other.ClaimTranscriptEntries(e.ctx, "claude-code", "s", []string{"a", "b", "c"}); fmt.Sprint(got) != "[c]" {
		t.Fatalf("second claim %v", got)
	}
	// Another session's transcript holding the same entry (a resumed or forked session copies
	// the old one's, uuids and all) does not hand it over again; its own entries it does.
	if got, _ = e.s.ClaimTranscriptEntries(e.ctx, "claude-code", "other", []string{"a", "d"}); fmt.Sprint(got) != "[d]" {
		t.Fatalf("other session %v", got)
	}
	if got, _ = e.s.ClaimTranscriptEntries(e.ctx, "codex", "other", []string{"a"}); fmt.Sprint(got) != "[a]" {
		t.Fatalf("another agent %v", got)
	}
	if err := e.s.ReleaseTranscriptEntries(e.ctx, "claude-code", "s", []string{"c"}); err != nil {
		t.Fatal(err)
	}
	if got, _ = e.s.ClaimTranscriptEntries(e.ctx, "claude-code", "s", []string{"b", "c"}); fmt.Sprint(got) != "[c]" {
		t.Fatalf("after release %v", got)
	}
	// Old claims are forgotten.
	e.clock.Advance((TranscriptSeenDays + 1) * 24 * time.Hour)
	if _, err := e.s.ClaimTranscriptEntries(e.ctx, "claude-code", "s", []string{"z"}); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT COUNT(*) FROM transcript_seen`); n != 1 {
		t.Fatalf("%d claims kept after %d days", n, TranscriptSeenDays+1)
	}
	if _, err := e.s.ClaimTranscriptEntries(e.ctx, "claude-code", "", []string{"z"}); CodeOf(err) != CodeInvalidSession {
		t.Fatalf("empty session: %v", err)
	}
}

func TestTranscriptOffsets(t *testing.T) {
	e := newEnv(t)
	if off, err := e.s.TranscriptOffset(e.ctx, "claude-code", "s", "/t.jsonl"); err != nil || off != 0 {
		t.Fatalf("unread %d %v", off, err)
	}
	for _, off := range []int64{120, 4096} {
		if err := e.s.SetTranscriptOffset(e.ctx, "claude-code", "s", "/t.jsonl", off); err != nil {
			t.Fatal(err)
		}
		if got, _ := e.s.TranscriptOffset(e.ctx, "claude-code", "s", "/t.jsonl"); got != off {
			t.Fatalf("offset %d, want %d", got, off)
		}
	}
	if got, _ := e.s.TranscriptOffset(e.ctx, "claude-code", "s", "/other.jsonl"); got != 0 {
		t.Fatalf("other transcript %d", got)
	}
	e.clock.Advance((TranscriptSeenDays + 1) * 24 * time.Hour)
	if err := e.s.SetTranscriptOffset(e.ctx, "claude-code", "s2", "/u.jsonl", 1); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT COUNT(*) FROM transcript_offsets`); n != 1 {
		t.Fatalf("%d offsets kept", n)
	}
}

func TestEvictSessions(t *testing.T) {
	e := newEnv(t)
	for _, id := range []string{"oldest", "middle", "newest"} {
		if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "a", Session: id, Turns: turns(1, 2)}, nil); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(time.Minute)
	}
	// Activity in the oldest makes it the newest.
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "a", Session: "oldest", Turns: turns(3, 3)}, nil); err != nil {
		t.Fatal(err)
	}
	gone, err := e.s.evictSessions(e.ctx, 2)
	if err != nil || len(gone) != 1 || gone[0] != (SessionKey{Agent: "a", ID: "middle"}) {
		t.Fatalf("evicted %+v %v", gone, err)
	}
	if n := e.count(`SELECT COUNT(*) FROM session_turns WHERE session = 'middle'`); n != 0 {
		t.Fatalf("%d turns of the evicted session left", n)
	}
	if gone, _ = e.s.evictSessions(e.ctx, 2); len(gone) != 0 {
		t.Fatalf("evicted again %+v", gone)
	}
}
