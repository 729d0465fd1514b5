package memory

import (
	"fmt"
	"strings"
	"testing"
)

// One session id used from two projects: each message keeps the project it was recorded in.
// Extraction (SessionTurnsIn) and history search in one project read only its messages; the
// listing by workdir finds the session from both; the person reading it sees every message with
// its project; compaction never puts the other project's words in the summary that the first
// project's history search reads, and folds them into that project's own summary.
func TestSessionMessagesStayInTheirProject(t *testing.T) {
	e := newEnv(t)
	pa, pb := t.TempDir(), t.TempDir()
	rec := func(wd string, tt ...TurnInput) {
		t.Helper()
		if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "moving", Workdir: wd, Turns: tt}, nil); err != nil {
			t.Fatal(err)
		}
	}
	rec(pa, TurnInput{Role: "user", Content: "alpha deploys with zircon charts", MsgID: "a1"})
	rec(pb, TurnInput{Role: "user", Content: "beta formats with ruff", MsgID: "b1"})
	keyA, keyB := ProjectKey(mustCanon(t, pa)), ProjectKey(mustCanon(t, pb))
	for _, c := range []struct {
		key, want string
	}{{keyA, "alpha deploys with zircon charts"}, {keyB, "beta formats with ruff"}, {"", ""}} {
		ts, err := e.s.SessionTurnsIn(e.ctx, "claude-code", "moving", c.key)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range ts {
			got = append(got, x.Content)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("turns in %q: %q, want %q", c.key, got, c.want)
		}
		if hits, _ := e.s.SearchHistory(e.ctx, HistoryQuery{Agent: "claude-code", ProjectKey: keyA, Terms: []string{"ruff"}}); len(hits) != 0 {
			t.Fatalf("project A's history search found B's message: %+v", hits)
		}
	}
	hits, err := e.s.SearchHistory(e.ctx, HistoryQuery{Agent: "claude-code", ProjectKey: keyB, Terms: []string{"ruff"}})
	if err != nil || len(hits) != 1 || hits[0].ProjectKey != keyB || hits[0].Workdir != mustCanon(t, pb) {
		t.Fatalf("project B's history search: %+v %v", hits, err)
	}
	for _, wd := range []string{pa, pb} {
		if l, _ := e.s.ListSessions(e.ctx, SessionFilter{Workdir: wd}); len(l) != 1 || l[0].ID != "moving" {
			t.Fatalf("sessions of %s: %+v", wd, l)
		}
	}
	all, _ := e.s.SessionTurns(e.ctx, "claude-code", "moving")
	if len(all) != 2 || all[0].ProjectKey != keyA || all[1].ProjectKey != keyB || all[1].Workdir != mustCanon(t, pb) {
		t.Fatalf("the person's view: %+v", all)
	}
	// Past the bound, B's messages leave with the fold but never enter A's summary.
	var many []TurnInput
	for i := 0; i < SessionCompactAt; i++ {
		many = append(many, TurnInput{Role: "user", Content: fmt.Sprintf("beta message %d", i)})
	}
	rec(pb, many...)
	s, err := e.s.FindSession(e.ctx, "claude-code", "moving")
	if err != nil || s.TurnsKept != SessionKeep || !strings.Contains(s.Summary, "zircon") || strings.Contains(s.Summary, "beta") {
		t.Fatalf("compacted: kept %d, summary %q (%v)", s.TurnsKept, s.Summary, err)
	}
	// They make B's own summary instead, which holds none of A's words.
	if len(s.ProjectSummaries) != 1 || s.ProjectSummaries[0].ProjectKey != keyB ||
		!strings.Contains(s.ProjectSummaries[0].Summary, "beta") || strings.Contains(s.ProjectSummaries[0].Summary, "zircon") {
		t.Fatalf("B's summary: %+v", s.ProjectSummaries)
	}
}

// Step 28 on an index with sessions from before it: each stored message takes the project its
// session was first seen with (where every reader looked for it before), a message of a session
// row that is gone keeps none, and nothing is lost.
func TestSessionTurnsProjectMigration(t *testing.T) {
	e := newEnv(t)
	pa := t.TempDir()
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "old", Workdir: pa,
		Turns: turns(1, 3)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "codex", Session: "global", Turns: turns(1, 1)}, nil); err != nil {
		t.Fatal(err)
	}
	// Back to schema 27, with an orphan message no session row names.
	for _, q := range []string{`DROP INDEX session_turns_scope`, `ALTER TABLE session_turns DROP COLUMN scope_key`,
		`ALTER TABLE session_turns DROP COLUMN workdir`, `DELETE FROM schema_migrations WHERE version >= 28`,
		`INSERT INTO session_turns(agent, session, seq, role, content, at) VALUES('x', 'orphan', 1, 'user', 'lost?', '2026-01-01T00:00:00Z')`,
	} {
		if _, err := e.s.db.ExecContext(e.ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	e.reopen()
	if n := e.count(`SELECT MAX(version) FROM schema_migrations`); n != SchemaVersion() {
		t.Fatalf("at v%d", n)
	}
	key := ProjectKey(mustCanon(t, pa))
	ts, err := e.s.SessionTurnsIn(e.ctx, "claude-code", "old", key)
	if err != nil || len(ts) != 3 || ts[0].Workdir != mustCanon(t, pa) {
		t.Fatalf("old messages in their session's project: %+v %v", ts, err)
	}
	if ts, _ := e.s.SessionTurnsIn(e.ctx, "codex", "global", ""); len(ts) != 1 {
		t.Fatalf("a session without a project: %+v", ts)
	}
	if n := e.count(`SELECT COUNT(*) FROM session_turns WHERE session = 'orphan' AND scope_key = '' AND workdir = ''`); n != 1 {
		t.Fatalf("the orphan message: %d", n)
	}
}
