package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/llm/llmtest"
	"engram/backend/memory"
)

// writeDuplicates writes two global memories with the same text: the offline planner proposes
// merging one into the other.
func writeDuplicates(h *home) {
	h.t.Helper()
	for _, m := range []struct{ slug, title string }{{"build-bazel", "Build uses Bazel"}, {"bazel-build", "Bazel for builds"}} {
		h.ok("write", "--scope", "global", "--type", "project", "--slug", m.slug, "--title", m.title,
			"--body", "Every service is built with Bazel 7 from the monorepo root.")
	}
}

func organizeJSON[T any](h *home, args ...string) T {
	h.t.Helper()
	var v T
	out := h.ok(append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		h.t.Fatalf("engram %s --json: %v\n%s", strings.Join(args, " "), err, out)
	}
	return v
}

// A CLI-only person runs the organizer, reads the report, applies it and sees the result:
// before, nothing in the CLI reached the organizer.
func TestOrganizeRunReportApply(t *testing.T) {
	h := newHome(t)
	writeDuplicates(h)

	d := organizeJSON[api.OrganizerRunDetail](h, "organize")
	if d.Status != api.OrganizerDone || d.Trigger != api.OrganizerTriggerManual || d.Report == nil {
		t.Fatalf("run: %+v", d.RunSummary)
	}
	var merge *api.OrganizerDecision
	for i, dec := range d.Report.Decisions {
		if dec.Action == api.OrganizerActionMerge {
			merge = &d.Report.Decisions[i]
		}
	}
	if merge == nil || merge.Status != api.OrganizerDecisionPending || merge.Into == nil || len(merge.Targets) != 1 {
		t.Fatalf("no pending merge in the report: %+v", d.Report.Decisions)
	}
	// A manual run changed nothing.
	if out := h.ok("list"); !strings.Contains(out, "build-bazel") || !strings.Contains(out, "bazel-build") {
		t.Fatalf("a manual run changed the store:\n%s", out)
	}

	// The report in words: action, both memories by title and slug, risk, confidence, status, why.
	out := h.ok("organize", "run", d.ID)
	for _, want := range []string{d.ID, merge.ID, "Merge", "Waiting for review", "Manual run: waiting for your review",
		"“" + merge.Into.Title + "” (" + merge.Into.Slug + ")", "“" + merge.Targets[0].Title + "” (" + merge.Targets[0].Slug + ")",
		"risk, confidence 0.", "Same text as", "engram organize apply " + d.ID} {
		if !strings.Contains(out, want) {
			t.Errorf("organize run: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "{{") || strings.Contains(out, "organizer.") {
		t.Errorf("untranslated text in\n%s", out)
	}

	runs := organizeJSON[api.OrganizerRunsResult](h, "organize", "runs")
	if len(runs.Runs) != 1 || runs.Runs[0].ID != d.ID {
		t.Fatalf("runs: %+v", runs.Runs)
	}
	if out := h.ok("organize", "runs"); !strings.Contains(out, d.ID) || !strings.Contains(out, "Manual") || !strings.Contains(out, "Done") {
		t.Fatalf("organize runs:\n%s", out)
	}

	res := organizeJSON[api.OrganizerApplyResult](h, "organize", "apply", d.ID, merge.ID)
	if res.Applied != 1 || res.Failed != 0 {
		t.Fatalf("apply: %+v", res)
	}
	out = h.ok("list")
	if !strings.Contains(out, merge.Into.Slug) || strings.Contains(out, merge.Targets[0].Slug) {
		t.Fatalf("after apply, list should hold %s alone:\n%s", merge.Into.Slug, out)
	}
	if out := h.ok("organize", "apply", d.ID, "--all"); !strings.Contains(out, "nothing to apply") {
		t.Fatalf("apply --all with nothing pending: %s", out)
	}
	if out := h.ok("organize", "run", d.ID); !strings.Contains(out, "Applied") {
		t.Fatalf("the report does not say the merge was applied:\n%s", out)
	}
}

// Mistakes are told in words, in the home's language, with the usual exit codes.
func TestOrganizeMistakes(t *testing.T) {
	h := newHome(t)
	writeDuplicates(h)
	d := organizeJSON[api.OrganizerRunDetail](h, "organize")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"organize", "run", "NOPE"}, 1, "No organizer run “NOPE” was found."},
		{[]string{"organize", "apply", "NOPE", "d001"}, 1, "No organizer run “NOPE” was found."},
		{[]string{"organize", "apply", d.ID, "d999"}, 1, "Change d999 is not in the report of run " + d.ID + "."},
		{[]string{"organize", "abort", d.ID}, 1, "Organizer run " + d.ID + " has already ended (Done): there is nothing to stop."},
		{[]string{"organize", "abort", "NOPE"}, 1, "No organizer run “NOPE” was found."},
		{[]string{"organize", "abort"}, 1, "No organizer run is active, so there is nothing to stop."},
		{[]string{"organize", "apply", d.ID}, 2, "organize apply needs ID DECISION... | ID --all."},
		{[]string{"organize", "apply", d.ID, "d001", "--all"}, 2, "organize apply needs ID DECISION... | ID --all."},
		{[]string{"organize", "run"}, 2, "organize run needs ID."},
		{[]string{"organize", "bogus"}, 2, "organize needs"},
		{[]string{"organize", "settings", "--mode", "wild"}, 1, "Invalid value “wild” for organizer setting mode."},
		{[]string{"organize", "settings", "--every", "0"}, 1, "Invalid value “0” for organizer setting frequency_hours."},
		{[]string{"organize", "settings", "--schedule", "maybe"}, 2, "“maybe” is not a valid value for -schedule."},
		{[]string{"organize", "--scope", "project"}, 1, "error:"},
	} {
		code, _, errs := h.run("", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) || strings.Contains(errs, "{{") {
			t.Errorf("engram %s: exit %d (want %d), stderr %q (want %q)", strings.Join(tc.args, " "), code, tc.code, errs, tc.want)
		}
	}
	// The decision applied once is not applied twice.
	h.ok("organize", "apply", d.ID, "d001")
	if code, _, errs := h.run("", "organize", "apply", d.ID, "d001"); code != 1 || !strings.Contains(errs, "already Applied") && !strings.Contains(errs, "already applied") {
		t.Errorf("apply twice: exit %d, %q", code, errs)
	}
	// In the home's language.
	setLanguage(t, h, "zh-CN")
	if code, _, errs := h.run("", "organize", "abort", d.ID); code != 1 || !strings.Contains(errs, "已经结束") {
		t.Errorf("zh abort: exit %d, %q", code, errs)
	}
	if _, out, _ := h.run("", "organize", "runs"); !strings.Contains(out, "手动") {
		t.Errorf("zh runs: %q", out)
	}
}

// The settings are shown and changed field by field; --json parses.
func TestOrganizeSettings(t *testing.T) {
	h := newHome(t)
	st := organizeJSON[api.OrganizerSettings](h, "organize", "settings")
	if !st.Enabled || st.Mode != "standard" || st.FrequencyHours != 24 {
		t.Fatalf("defaults: %+v", st)
	}
	st = organizeJSON[api.OrganizerSettings](h, "organize", "settings", "--schedule", "off", "--every", "6", "--mode", "conservative",
		"--min-hours", "0", "--min-new", "3", "--review-after", "60")
	want := api.OrganizerSettings{Enabled: false, FrequencyHours: 6, Mode: "conservative", MinHoursBetweenRuns: 0, MinNewMemories: 3, ReviewAfterDays: 60}
	if st != want {
		t.Fatalf("settings: %+v, want %+v", st, want)
	}
	out := h.ok("organize", "settings", "--mode", "aggressive")
	if !strings.Contains(out, "Organizer settings saved.") || !strings.Contains(out, "Aggressive") || !strings.Contains(out, "off") {
		t.Fatalf("settings: %s", out)
	}
	if st := organizeJSON[api.OrganizerSettings](h, "organize", "settings"); st.FrequencyHours != 6 || st.Mode != "aggressive" {
		t.Fatalf("a patch changed other fields: %+v", st)
	}
	status := organizeJSON[api.OrganizerStatus](h, "organize", "status")
	if status.Settings.Mode != "aggressive" || status.LastRun != nil {
		t.Fatalf("status: %+v", status)
	}
}

// A run already under way on the home (another process holds the run lock) is waited for,
// said on stderr; the queued run is then run once, not twice.
func TestOrganizeWaitsForTheRunLock(t *testing.T) {
	h := newHome(t)
	writeDuplicates(h)
	h.ok("organize", "status")
	paths, _ := filepath.Glob(filepath.Join(h.dir, "*", ".organizer.lock"))
	paths2, _ := filepath.Glob(filepath.Join(h.dir, ".organizer.lock"))
	paths = append(paths, paths2...)
	if len(paths) != 1 {
		t.Fatalf("run lock: %v", paths)
	}
	lk, err := memory.OpenFileLock(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Close()
	if ok, err := lk.TryLock(); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	var out bytes.Buffer
	errb := &syncBuf{}
	done := make(chan int)
	go func() {
		env := h.env(&out, &bytes.Buffer{})
		env.Stderr = errb
		done <- Run(context.Background(), []string{"organize", "--json"}, env)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(errb.String(), "Waiting: another process on this home is applying organizer changes (a review); run ") {
		if time.Now().After(deadline) {
			lk.Unlock()
			t.Fatalf("no waiting line: %q", errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	runs := organizeJSON[api.OrganizerRunsResult](h, "organize", "runs")
	if len(runs.Runs) != 1 || runs.Runs[0].Status != api.OrganizerQueued {
		lk.Unlock()
		t.Fatalf("while the lock is held the run is queued: %+v", runs.Runs)
	}
	lk.Unlock()
	if code := <-done; code != 0 {
		t.Fatalf("organize: exit %d\n%s", code, errb.String())
	}
	var d api.OrganizerRunDetail
	if err := json.Unmarshal(out.Bytes(), &d); err != nil || d.Status != api.OrganizerDone {
		t.Fatalf("organize --json: %v %+v", err, d.RunSummary)
	}
	runs = organizeJSON[api.OrganizerRunsResult](h, "organize", "runs")
	if len(runs.Runs) != 1 || runs.Runs[0].Status != api.OrganizerDone {
		t.Fatalf("one run, done: %+v", runs.Runs)
	}
}

// --no-wait only queues the run; the next engram organize runs it, before its own.
func TestOrganizeNoWait(t *testing.T) {
	h := newHome(t)
	writeDuplicates(h)
	ref := organizeJSON[api.OrganizerRunRef](h, "organize", "--no-wait")
	if ref.Status != api.OrganizerQueued {
		t.Fatalf("--no-wait: %+v", ref)
	}
	d := organizeJSON[api.OrganizerRunDetail](h, "organize", "run", ref.ID)
	if d.Status != api.OrganizerQueued {
		t.Fatalf("queued run: %+v", d.RunSummary)
	}
	h.ok("organize")
	runs := organizeJSON[api.OrganizerRunsResult](h, "organize", "runs")
	if len(runs.Runs) != 2 || runs.Runs[0].Status != api.OrganizerDone || runs.Runs[1].Status != api.OrganizerDone {
		t.Fatalf("runs: %+v", runs.Runs)
	}
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestOrganizeReportSaysTheQuota: a run over a scope under quota pressure printed "0 changes
// proposed" and nothing of the quota (the app shows the level; the CLI did not), so a person
// running it to free room learned nothing. The report now says, for each scope whose quota is
// not normal, how full it is, how far over the organizer's target, and what frees room; a
// scope with room says nothing. English and Chinese.
func TestOrganizeReportSaysTheQuota(t *testing.T) {
	h := newHome(t)
	writeDuplicates(h)
	d := organizeJSON[api.OrganizerRunDetail](h, "organize")
	if out := h.ok("organize", "run", d.ID); strings.Contains(out, "Quota of") {
		t.Fatalf("a scope with room spoke of its quota:\n%s", out)
	}
	var lines strings.Builder
	for i := 0; i < 410; i++ {
		fmt.Fprintf(&lines, `{"slug":"port-%03d","title":"Port %d","scope":"global","type":"reference","body":"Service %d listens on port %d."}`+"\n", i, i, i, 8000+i)
	}
	file := filepath.Join(t.TempDir(), "ports.jsonl")
	if err := os.WriteFile(file, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	h.ok("import", file)
	d = organizeJSON[api.OrganizerRunDetail](h, "organize")
	sc := d.Report.Scopes[0]
	if sc.Level == "normal" || sc.OverTarget <= 0 {
		t.Fatalf("scope %+v, want one under pressure", sc)
	}
	en := h.ok("organize", "run", d.ID)
	want := fmt.Sprintf("Quota of global: %d of 500 used (notice, %d left), %d over the organizer's target of 400.", sc.Used, sc.Headroom, sc.OverTarget)
	if !strings.Contains(en, want) || !strings.Contains(en, "engram archive") {
		t.Fatalf("no %q in\n%s", want, en)
	}
	zh := h.runZh("organize", "run", d.ID)
	if want := fmt.Sprintf("全局的配额：已用 %d / 500", sc.Used); !strings.Contains(zh, want) || strings.Contains(zh, "{{") {
		t.Fatalf("no %q in\n%s", want, zh)
	}
}

// TestOrganizeReportSaysOnceThatTheModelWasNotAskedAgain: after the model refused the key, a
// run printed the same failure for every group; the groups the run no longer asked the model
// about are now one line, after the one failure said in words.
func TestOrganizeReportSaysOnceThatTheModelWasNotAskedAgain(t *testing.T) {
	h := newHome(t)
	var lines strings.Builder
	for i := 0; i < 20; i++ {
		kind := []string{"user", "reference"}[i%2]
		fmt.Fprintf(&lines, `{"slug":"fact-%02d","title":"Fact %d","scope":"global","type":"%s","body":"Fact number %d is about topic %d."}`+"\n", i, i, kind, i, i*7)
	}
	file := filepath.Join(t.TempDir(), "facts.jsonl")
	if err := os.WriteFile(file, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	h.ok("import", file)
	srv := llmtest.NewOpenAI(t)
	h.configure(srv, "gpt-4o-mini")
	srv.Push(llmtest.Status(401, ""))
	d := organizeJSON[api.OrganizerRunDetail](h, "organize")
	if len(d.Report.Clusters) < 2 || len(srv.Requests()) != 1 {
		t.Fatalf("%d groups, %d model calls: want several groups and one call", len(d.Report.Clusters), len(srv.Requests()))
	}
	out := h.ok("organize", "run", d.ID)
	want := fmt.Sprintf("%d more groups (20 memories, c001–c%03d): planned offline, the model not asked again after its failure on global.",
		len(d.Report.Clusters), len(d.Report.Clusters))
	if !strings.Contains(out, want) || strings.Count(out, "refused the API key") != 1 || strings.Contains(out, "group c001") {
		t.Fatalf("no %q, or the failure said more than once, in\n%s", want, out)
	}
}
