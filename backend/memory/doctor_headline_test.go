package memory

import (
	"fmt"
	"strings"
	"testing"
)

// Doctor's first line says "all good" only when it found nothing: "All good: 495 memories,
// index intact." stood above "global uses 495 of 500 entries: new writes are refused".
func TestDoctorHeadline(t *testing.T) {
	quota := Finding{Code: "quota_exhausted", Count: 495, Fix: "engram list --scope global && engram archive SLUG"}
	stale := Finding{Code: "index_stale", Count: 1, Fixed: true, Fix: FixReindex}
	checksum := Finding{Code: "checksum_mismatch", Path: "global/user/a.md", Fixed: true, Fix: FixReindex}
	for _, c := range []struct {
		name  string
		rep   DoctorReport
		code  string
		count any
	}{
		{"nothing found", DoctorReport{Integrity: "ok", FTSConsistent: true, OK: true}, "all_good", nil},
		{"a note to act on", DoctorReport{Integrity: "ok", FTSConsistent: true, OK: true, Findings: []Finding{quota}}, "attention", 1},
		{"fixed and not", DoctorReport{Integrity: "ok", FTSConsistent: true, OK: true, Findings: []Finding{stale, quota, quota}}, "attention", 2},
		{"only fixed", DoctorReport{Integrity: "ok", FTSConsistent: true, OK: true, Findings: []Finding{stale}}, "fixed", 1},
		// A fault fixed while checking: the report is not OK (doctor exits 1), and the
		// headline says a fault was found, not only "fixed while checking".
		{"fixed, though a fault", DoctorReport{Integrity: "ok", FTSConsistent: true, Findings: []Finding{checksum}}, "fixed_fault", 1},
		{"index damaged", DoctorReport{Integrity: "row 3 missing from index", FTSConsistent: true,
			Findings: []Finding{{Code: "integrity", Fix: FixRestore}}}, "attention_index", 1},
		{"full text out of step", DoctorReport{Integrity: "ok", Findings: []Finding{{Code: "fts_inconsistent", Fix: FixReindex}}}, "attention_index", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.rep.Memories, c.rep.JournalDays = 495, 3
			c.rep.SetHeadline()
			code, args := c.rep.Headline.Code, c.rep.Headline.Args
			if code != c.code || args["Count"] != c.count || args["Memories"] != 495 || args["Daily"] != 3 {
				t.Fatalf("headline %s %v, want %s with count %v", code, args, c.code, c.count)
			}
		})
	}
}

// Doctor counts memories as engram list and quota do, the journal's days apart ("All good: 21
// memories" for 20 and a day of the journal); a scope out of room is a finding to act on, and,
// like the other notes (a header that disagrees with its place), no fault: the report stays OK
// and engram doctor exits 0.
func TestDoctorCountsMemoriesAsQuotaDoes(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.QuotaLimit = 10 })
	a := e.ok(wr("archived-one", "A", "to be archived"))
	e.ok(Item{Op: OpArchive, ID: a.ID})
	for i := range 5 {
		e.ok(wr(fmt.Sprintf("memory-%d", i), "M", fmt.Sprintf("memory number %d", i)))
	}
	e.ok(Item{Op: OpAppendDaily, Text: "a day of the journal"})
	rep, err := e.s.Doctor(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	q, err := e.s.Quota(e.ctx)
	if err != nil || len(q.Scopes) != 1 {
		t.Fatalf("quota %+v %v", q, err)
	}
	if rep.Memories != q.Scopes[0].Used || rep.Memories != 5 || rep.JournalDays != 1 || rep.Archived != q.Scopes[0].Archived || rep.Archived != 1 {
		t.Fatalf("doctor counts %d memories, %d journal days, %d archived; quota %+v", rep.Memories, rep.JournalDays, rep.Archived, q.Scopes[0])
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Code != "quota_exhausted" || !rep.OK {
		t.Fatalf("findings %+v, ok %v", rep.Findings, rep.OK)
	}
	rep.SetHeadline()
	if code, args := rep.Headline.Code, rep.Headline.Args; code != "attention" || args["Count"] != 1 || args["Memories"] != 5 || args["Daily"] != 1 {
		t.Fatalf("headline %s %v", code, args)
	}
}

// Every headline is a sentence of the catalog in both languages (the CLI prints it, api sends
// it to the app). A fault doctor fixed while checking leaves the report not OK and engram
// doctor exits 1: its headline says a fault was found, where "fixed while checking (below)"
// alone read as nothing wrong above a failing exit code.
func TestDoctorHeadlinesAreSentences(t *testing.T) {
	cat := loadCatalog(t)
	args := map[string]any{"Memories": 3, "Daily": 1, "Count": 2}
	for _, code := range []string{HeadlineAllGood, HeadlineFixed, HeadlineFixedFault, HeadlineAttention, HeadlineAttentionIndex} {
		for _, lang := range []string{"en", "zh-CN"} {
			key := "cli.doctor_headline." + code
			msg := cat.T(lang, key, args)
			if msg == key || strings.Contains(msg, "<no value>") || strings.Contains(msg, "{{") || !strings.Contains(msg, "3") {
				t.Errorf("%s in %s: %q", key, lang, msg)
			}
		}
	}
	if en := cat.T("en", "cli.doctor_headline.fixed_fault", args); !strings.Contains(en, "found a fault") {
		t.Errorf("fixed_fault: %q", en)
	}
	if zh := cat.T("zh-CN", "cli.doctor_headline.fixed_fault", args); !strings.Contains(zh, "故障") {
		t.Errorf("fixed_fault in Chinese: %q", zh)
	}
}
