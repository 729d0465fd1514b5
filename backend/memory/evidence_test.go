package memory

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestEvidenceContract(t *testing.T) {
	cases := []struct {
		req       Confidence
		quote     string
		want      Confidence
		downgrade bool
	}{
		{ConfidenceHigh, "I love green tea", ConfidenceHigh, false},
		{ConfidenceHigh, "abcde", ConfidenceHigh, false},      // exactly 5 chars
		{ConfidenceHigh, "绿茶很好喝", ConfidenceHigh, false},      // 5 characters, 15 bytes
		{ConfidenceHigh, "abcd", ConfidenceMedium, true},      // 4 chars
		{ConfidenceHigh, "  abcd \n", ConfidenceMedium, true}, // trimmed to 4
		{ConfidenceHigh, "绿茶好喝", ConfidenceMedium, true},      // 4 characters, 12 bytes
		{ConfidenceHigh, "", ConfidenceLow, true},             // high → medium → low
		{ConfidenceHigh, "   ", ConfidenceLow, true},          // blank is no quote
		{ConfidenceMedium, "", ConfidenceLow, true},           // medium needs a quote
		{ConfidenceMedium, "x", ConfidenceMedium, false},      // any quote will do
		{ConfidenceLow, "", ConfidenceLow, false},             // low needs nothing
		{ConfidenceLow, "a long and verbatim quote", ConfidenceLow, false},
		{"", "", ConfidenceLow, true}, // default is medium
		{"", "yes", ConfidenceMedium, false},
	}
	for _, tc := range cases {
		got, down := ApplyEvidence(tc.req, tc.quote)
		if got != tc.want || down != tc.downgrade {
			t.Errorf("ApplyEvidence(%q, %q) = %s/%v, want %s/%v", tc.req, tc.quote, got, down, tc.want, tc.downgrade)
		}
	}

	// the same table through apply_batch: results and the file's frontmatter agree.
	e := newEnv(t)
	for i, tc := range cases {
		it := wr(fmt.Sprintf("evidence-%02d", i), "t", "some body")
		it.Confidence, it.SourceQuote = tc.req, sp(tc.quote)
		r := e.ok(it)
		if r.AppliedConfidence != tc.want || r.AutoDowngraded != tc.downgrade {
			t.Errorf("write %q/%q: result %s/%v, want %s/%v", tc.req, tc.quote, r.AppliedConfidence, r.AutoDowngraded, tc.want, tc.downgrade)
		}
		if hasWarning(r, WarnDowngraded) != tc.downgrade {
			t.Errorf("write %q/%q: downgrade warning %v", tc.req, tc.quote, r.Warnings)
		}
		raw := string(e.file(r.Path))
		if !strings.Contains(raw, "confidence: "+string(tc.want)+"\n") ||
			!strings.Contains(raw, fmt.Sprintf("auto_downgraded: %v\n", tc.downgrade)) {
			t.Errorf("write %q/%q: frontmatter\n%s", tc.req, tc.quote, raw)
		}
		m := e.get(r.ID)
		if m.Confidence != tc.want || m.AutoDowngraded != tc.downgrade {
			t.Errorf("write %q/%q: index %s/%v", tc.req, tc.quote, m.Confidence, m.AutoDowngraded)
		}
		// the result's JSON always carries auto_downgraded, even when false.
		js, _ := json.Marshal(r)
		if !strings.Contains(string(js), `"auto_downgraded":`) || !strings.Contains(string(js), `"applied_confidence":"`+string(tc.want)+`"`) {
			t.Errorf("result JSON %s", js)
		}
	}
}

func TestMixedBatchAndAudit(t *testing.T) {
	e := newEnv(t)
	items := []Item{
		wr("good-one", "Good", "first good item"),
		wr("Bad Slug", "Bad", "refused"),
		wr("good-two", "Good", "second good item"),
		{Op: OpUpdate, Slug: "missing-one", Scope: ScopeGlobal, Body: sp("x")},
		{Op: OpDelete, Slug: "good-one", Scope: ScopeGlobal},
		{Op: OpAppendDaily, Text: "journal line"},
		wr("good-two", "Dup", "duplicate of an item earlier in the same batch"),
	}
	res, err := e.s.ApplyBatch(e.ctx, Batch{Items: items, Actor: ActorExtractor, Session: "sess-42", Model: "gpt-test"})
	if err != nil {
		t.Fatal(err)
	}
	wantOK := []bool{true, false, true, false, true, true, false}
	wantCode := []string{"", CodeInvalidSlug, "", CodeNotFound, "", "", CodeAlreadyExists}
	for i, r := range res.Results {
		if r.Index != i || r.Op != items[i].Op || r.OK != wantOK[i] || r.Code != wantCode[i] {
			t.Errorf("result %d = index %d op %s ok %v code %q, want ok %v code %q", i, r.Index, r.Op, r.OK, r.Code, wantOK[i], wantCode[i])
		}
	}
	if res.Applied != 4 || res.Failed != 3 {
		t.Fatalf("applied/failed = %d/%d", res.Applied, res.Failed)
	}
	if _, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "good-two"); err != nil {
		t.Fatal("good-two lost because of its neighbours")
	}
	if e.exists("global/user/good-one.md") {
		t.Fatal("good-one not deleted")
	}

	audit, err := e.s.Audit(e.ctx, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(audit) != len(items) {
		t.Fatalf("%d audit rows for %d items", len(audit), len(items))
	}
	// newest first: reverse to item order.
	for i := range audit {
		a := audit[len(audit)-1-i]
		want := "ok"
		if !wantOK[i] {
			want = wantCode[i]
		}
		if a.Op != string(items[i].Op) || a.Actor != ActorExtractor || a.Session != "sess-42" || a.Model != "gpt-test" || a.Result != want {
			t.Errorf("audit %d = %+v, want op %s result %s", i, a, items[i].Op, want)
		}
		if !json.Valid(a.Detail) {
			t.Errorf("audit %d detail is not JSON: %s", i, a.Detail)
		}
	}
	// one memory's history.
	id := res.Results[0].ID
	hist, _ := e.s.Audit(e.ctx, id, 10)
	if len(hist) != 2 || hist[0].Op != "delete" || hist[1].Op != "write" {
		t.Fatalf("history of %s: %+v", id, hist)
	}
}

func TestGroups(t *testing.T) {
	e := newEnv(t)
	a := e.ok(wr("source-a", "A", "fact A"))
	b := e.ok(wr("source-b", "B", "fact B"))
	c := e.ok(wr("source-c", "C", "fact C"))
	d := e.ok(wr("source-d", "D", "fact D"))
	f := e.ok(wr("source-f", "F", "fact F"))

	merged := wr("merged-ab", "A and B", "fact A; fact B")
	merged.GroupID = "g1"
	broken := wr("Not A Slug", "C", "fact C merged")
	broken.GroupID = "g2"
	stale := Item{Op: OpUpdate, ID: f.ID, Body: sp("more"), ExpectedVersion: "ffffffffffffffff", GroupID: "g4"}
	items := []Item{
		{Op: OpDelete, ID: a.ID, GroupID: "g1"}, // listed before its write: must still run after it
		merged,
		{Op: OpDelete, ID: b.ID, GroupID: "g1"},
		{Op: OpDelete, ID: c.ID, GroupID: "g2"}, // its write fails: skipped
		broken,
		{Op: OpDelete, ID: d.ID, GroupID: "g3"}, // a group of deletes only runs normally
		{Op: OpDelete, ID: f.ID, GroupID: "g4"}, // its update fails: skipped
		stale,
	}
	res := e.batch(ActorOrganizer, items...)
	want := []struct {
		ok   bool
		code string
	}{{true, ""}, {true, ""}, {true, ""}, {false, CodeGroupFailed}, {false, CodeInvalidSlug}, {true, ""}, {false, CodeGroupFailed}, {false, CodeVersionConflict}}
	for i, w := range want {
		r := res.Results[i]
		if r.OK != w.ok || r.Code != w.code || r.Index != i {
			t.Errorf("item %d: ok=%v code=%q, want ok=%v code=%q", i, r.OK, r.Code, w.ok, w.code)
		}
	}
	for _, tc := range []struct {
		id   string
		live bool
	}{{a.ID, false}, {b.ID, false}, {c.ID, true}, {d.ID, false}, {f.ID, true}} {
		_, err := e.s.Get(e.ctx, tc.id)
		if (err == nil) != tc.live {
			t.Errorf("%s live=%v, want %v", tc.id, err == nil, tc.live)
		}
	}
	// every item has its audit row, skipped ones included.
	if n := e.count(`SELECT COUNT(*) FROM memory_audit_log WHERE actor = 'organizer'`); n != len(items) {
		t.Fatalf("%d audit rows for %d items", n, len(items))
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_audit_log WHERE result = ?`, CodeGroupFailed); n != 2 {
		t.Fatalf("%d group_failed audit rows", n)
	}
	// the write of g1 ran before its deletes: see the audit order.
	rows, err := e.s.db.QueryContext(e.ctx, `SELECT op, memory_id FROM memory_audit_log WHERE actor = 'organizer' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var order []string
	for rows.Next() {
		var op, id string
		rows.Scan(&op, &id)
		switch id {
		case a.ID:
			order = append(order, "del-a")
		case b.ID:
			order = append(order, "del-b")
		case res.Results[1].ID:
			order = append(order, op+"-merged")
		}
	}
	if strings.Join(order, ",") != "write-merged,del-a,del-b" {
		t.Fatalf("g1 ran in order %v", order)
	}
}
