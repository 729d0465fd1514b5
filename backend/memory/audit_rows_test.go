package memory

import (
	"encoding/json"
	"strings"
	"testing"
)

// auditDetail is the newest audit row for op with its detail decoded.
func (e *env) newestAudit(op string) (AuditEntry, map[string]any) {
	e.t.Helper()
	rows, err := e.s.Audit(e.ctx, "", 50)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, r := range rows {
		if r.Op == op {
			var d map[string]any
			_ = json.Unmarshal(r.Detail, &d)
			return r, d
		}
	}
	e.t.Fatalf("no %s row in the audit log", op)
	return AuditEntry{}, nil
}

// Activity names what each row did and for whom, as the journal and Review see it.
func TestAuditRowsSayWhatHappened(t *testing.T) {
	e := newEnv(t)

	t.Run("a journal entry written for an agent names the agent", func(t *testing.T) {
		e.ok(Item{Op: OpAppendDaily, Text: "from codex", Source: &Source{Agent: "codex"}})
		_, d := e.newestAudit(string(OpAppendDaily))
		if d["agent"] != "codex" {
			t.Fatalf("detail %v, want agent codex", d)
		}
		e.ok(Item{Op: OpAppendDaily, Text: "from me"})
		_, d = e.newestAudit(string(OpAppendDaily))
		if _, ok := d["agent"]; ok {
			t.Fatalf("the person's own entry names an agent: %v", d)
		}
	})

	t.Run("an accept taken back is recorded as sent back to review", func(t *testing.T) {
		w := e.ok(wr("taken-back", "Taken back", "Body."))
		e.ok(Item{Op: OpAccept, ID: w.ID})
		e.ok(Item{Op: OpUpdate, ID: w.ID, Reviewed: bp(false)})
		row, d := e.newestAudit(string(OpUpdate))
		if row.MemoryID != w.ID || d["unreviewed"] != true {
			t.Fatalf("update row %+v detail %v, want unreviewed", row, d)
		}
		if row.Title != "Taken back" {
			t.Fatalf("row title %q, want the memory's title", row.Title)
		}
		e.ok(Item{Op: OpUpdate, ID: w.ID, Body: sp("More.")})
		_, d = e.newestAudit(string(OpUpdate))
		if _, ok := d["unreviewed"]; ok {
			t.Fatalf("an ordinary edit of an unreviewed memory reads as sent back: %v", d)
		}
	})

	t.Run("a refused secret is not kept in the log", func(t *testing.T) {
		key := strings.ToLower(fakeAWSKeyID)
		e.wantCode(Item{Op: OpWrite, Scope: ScopeAgent, Agent: "claude", Type: TypeReference, Slug: "token-" + key,
			Title: sp("Token " + fakeAWSKeyID), Body: sp("key " + fakeAWSKeyID)}, CodeSecretDetected)
		row, _ := e.newestAudit(string(OpWrite))
		if row.Result != CodeSecretDetected || strings.Contains(strings.ToLower(string(row.Detail)+row.Slug), key) {
			t.Fatalf("refused row keeps the key: %+v %s", row, row.Detail)
		}
		if row.Slug != "token-redacted" || row.Agent != "claude" {
			t.Fatalf("refused row slug %q agent %q, want token-redacted for claude", row.Slug, row.Agent)
		}
	})

	t.Run("a refused edit names its memory", func(t *testing.T) {
		w := e.ok(wr("edited-twice", "Edited twice", "Body."))
		e.wantCode(Item{Op: OpUpdate, ID: w.ID, Body: sp("x"), ExpectedVersion: "stale"}, CodeVersionConflict)
		row, _ := e.newestAudit(string(OpUpdate))
		if row.Result != CodeVersionConflict || row.MemoryID != w.ID || row.Title != "Edited twice" {
			t.Fatalf("refused edit row %+v", row)
		}
	})
}
