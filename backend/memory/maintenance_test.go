package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// findingCodes lists the codes of a doctor report's findings.
func findingCodes(rep DoctorReport) map[string]Finding {
	out := map[string]Finding{}
	for _, f := range rep.Findings {
		out[f.Code] = f
	}
	return out
}

func (e *env) doctor() DoctorReport {
	e.t.Helper()
	rep, err := e.s.Doctor(e.ctx)
	if err != nil {
		e.t.Fatalf("Doctor: %v", err)
	}
	return rep
}

// Each seeded fault is found by doctor with a fix command, and running that fix (through the
// store method the command calls) leaves doctor with nothing to say about it.
func TestDoctorFindsSeededFaultsAndTheirFixesWork(t *testing.T) {
	cases := []struct {
		name  string
		seed  func(e *env)
		code  string
		fix   string
		apply func(e *env)
		// fixedByDoctor: the fault is repaired while doctor checks (the finding says so).
		fixedByDoctor bool
	}{
		{name: "file deleted behind the index", code: "index_stale", fix: FixReindex, fixedByDoctor: true,
			seed: func(e *env) {
				r := e.ok(wr("gone-file", "Gone", "a file removed by hand"))
				m := e.get(r.ID)
				if err := os.Remove(e.s.abs(m.Path)); err != nil {
					e.t.Fatal(err)
				}
			},
			apply: func(e *env) {
				if _, err := e.s.Reindex(e.ctx); err != nil {
					e.t.Fatal(err)
				}
			}},
		{name: "corrupt frontmatter", code: "unparsable_file", fix: FixReindex,
			seed: func(e *env) {
				e.put("global/user/broken-one.md", []byte("---\nid: [unclosed\n---\nbody\n"))
			},
			apply: func(e *env) {
				// The person edits the file (here: removes it) as the fix says, then reindexes.
				if err := os.Remove(e.s.abs("global/user/broken-one.md")); err != nil {
					e.t.Fatal(err)
				}
				if _, err := e.s.Reindex(e.ctx); err != nil {
					e.t.Fatal(err)
				}
			}},
		{name: "orphan vector and mention rows", code: "orphan_rows", fix: FixVacuum,
			seed: func(e *env) {
				for _, q := range []string{`INSERT INTO memory_vec(rid, model, dim, vec) VALUES (987654, 'm', 1, x'00000000')`,
					`INSERT INTO graph_entities(id, name, norm, scope) VALUES (4242, 'Acme', 'acme', 'global')`,
					`INSERT INTO graph_mentions(entity, memory_rid) VALUES (4242, 987654)`} {
					if _, err := e.s.db.ExecContext(e.ctx, q); err != nil {
						e.t.Fatal(err)
					}
				}
			},
			apply: func(e *env) {
				if _, err := e.s.Vacuum(e.ctx); err != nil {
					e.t.Fatal(err)
				}
			}},
		{name: "stuck organizer and extraction runs", code: "stuck_runs", fix: FixVacuum,
			seed: func(e *env) {
				old := indexTime(e.clock.Now().Add(-3 * time.Hour))
				for _, q := range []string{`INSERT INTO memory_organize_runs(id, trigger, mode, status, started_at) VALUES ('r1', 'manual', 'standard', 'running', ?)`,
					`INSERT INTO extraction_runs(id, status, started_at) VALUES ('x1', 'running', ?)`} {
					if _, err := e.s.db.ExecContext(e.ctx, q, old); err != nil {
						e.t.Fatal(err)
					}
				}
			},
			apply: func(e *env) {
				if _, err := e.s.Vacuum(e.ctx); err != nil {
					e.t.Fatal(err)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.ok(wr("keeps-living", "Lives", "a live memory that must stay"))
			if got := findingCodes(e.doctor()); len(got) != 0 {
				t.Fatalf("clean home has findings: %+v", got)
			}
			tc.seed(e)
			rep := e.doctor()
			f, ok := findingCodes(rep)[tc.code]
			if !ok {
				t.Fatalf("doctor did not find %s: %+v", tc.code, rep.Findings)
			}
			if !strings.Contains(f.Fix, tc.fix) || f.Fixed != tc.fixedByDoctor {
				t.Fatalf("finding %+v: want fix containing %q, fixed=%v", f, tc.fix, tc.fixedByDoctor)
			}
			if !tc.fixedByDoctor && rep.OK {
				t.Fatalf("report OK despite %s", tc.code)
			}
			tc.apply(e)
			after := e.doctor()
			if _, still := findingCodes(after)[tc.code]; still || !after.OK {
				t.Fatalf("after the fix doctor still finds %s (ok=%v): %+v", tc.code, after.OK, after.Findings)
			}
			if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE slug = 'keeps-living'`); n != 1 {
				t.Fatalf("the live memory is gone after the fix")
			}
		})
	}
}

// Cleanup removes old trash, snapshot and archive files only: live memories stay however old
// their files are, a dry run removes nothing, and archived memories leave the index.
func TestCleanupNeverTouchesLiveMemories(t *testing.T) {
	e := newEnv(t)
	live := e.ok(wr("live-one", "Live", "stays forever"))
	del := e.ok(wr("to-trash", "Trash", "goes to the trash"))
	arch := e.ok(wr("to-archive", "Archive", "goes to the archive"))
	e.ok(Item{Op: OpDelete, ID: del.ID})
	e.ok(Item{Op: OpArchive, ID: arch.ID})
	e.put(".snapshots/run-1/global__user__x.md", []byte("snapshot"))
	livePath := e.get(live.ID).Path
	// Every file, live ones included, looks a year old.
	old := time.Now().Add(-365 * 24 * time.Hour)
	_ = filepath.WalkDir(e.s.root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			_ = os.Chtimes(p, old, old)
		}
		return nil
	})
	e.clock.Set(time.Now())
	before := liveFiles(t, e.s.root)

	dry, err := e.s.Cleanup(e.ctx, 30*24*time.Hour, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Items) < 3 || !dry.DryRun {
		t.Fatalf("dry run lists %+v", dry.Items)
	}
	for _, it := range dry.Items {
		if !strings.HasPrefix(it.Path, ".trash/") && !strings.HasPrefix(it.Path, ".snapshots/") && !strings.HasPrefix(it.Path, ".archive/") {
			t.Fatalf("cleanup would touch %s", it.Path)
		}
		if !e.exists(it.Path) {
			t.Fatalf("dry run removed %s", it.Path)
		}
	}
	rep, err := e.s.Cleanup(e.ctx, 30*24*time.Hour, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Items) != len(dry.Items) {
		t.Fatalf("removed %d, dry run listed %d", len(rep.Items), len(dry.Items))
	}
	for _, it := range rep.Items {
		if e.exists(it.Path) {
			t.Fatalf("%s still there", it.Path)
		}
	}
	if !e.exists(livePath) || e.get(live.ID) == nil {
		t.Fatalf("live memory %s was removed", livePath)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE archived = 1`); n != 0 {
		t.Fatalf("archived memory still indexed after its file was cleaned up")
	}
	after := liveFiles(t, e.s.root)
	for _, p := range before {
		if !strings.HasPrefix(p, ".archive/") && !contains(after, p) {
			t.Fatalf("live file %s gone", p)
		}
	}
	// A recent file stays.
	e.put(".trash/fresh.md", []byte("fresh"))
	rep, err = e.s.Cleanup(e.ctx, 30*24*time.Hour, false)
	if err != nil || len(rep.Items) != 0 || !e.exists(".trash/fresh.md") {
		t.Fatalf("fresh trash removed: %+v %v", rep, err)
	}
}

// A memory last edited long ago and deleted or archived just now is not "older than" the
// cleanup's age: the move dates the file, so the trash and the archive are judged by when a
// memory went there (a rename kept the old time, and the next cleanup purged both for good).
func TestCleanupJudgesByTheMove(t *testing.T) {
	e := newEnv(t)
	del := e.ok(wr("edited-long-ago", "Old note", "last edited two months ago"))
	arch := e.ok(wr("archived-long-ago", "Old project", "last edited two months ago too"))
	old := e.clock.Now().Add(-60 * 24 * time.Hour)
	for _, id := range []string{del.ID, arch.ID} {
		if err := os.Chtimes(filepath.Join(e.s.root, filepath.FromSlash(e.get(id).Path)), old, old); err != nil {
			t.Fatal(err)
		}
	}
	d := e.ok(Item{Op: OpDelete, ID: del.ID})
	a := e.ok(Item{Op: OpArchive, ID: arch.ID})
	rep, err := e.s.Cleanup(e.ctx, 30*24*time.Hour, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Items) != 0 || !e.exists(d.Path) || !e.exists(a.Path) {
		t.Fatalf("cleanup removed what was moved aside a moment ago: %+v", rep.Items)
	}
	// Thirty-one days on, both go.
	e.clock.Set(e.clock.Now().Add(31 * 24 * time.Hour))
	if rep, err = e.s.Cleanup(e.ctx, 30*24*time.Hour, false); err != nil || len(rep.Items) != 2 {
		t.Fatalf("a month later: %+v %v", rep.Items, err)
	}
}

// An in-place restore cancelled once its files are swapped (Ctrl-C, the window closed) still
// brings the index in line with them: it reported failure and left the old index over the new
// files, listing a memory the folder no longer held.
func TestReplaceFilesFinishesWhenCancelled(t *testing.T) {
	e := newEnv(t)
	before := e.ok(wr("written-after-the-backup", "After", "not in the archive"))
	stagedHome := t.TempDir()
	other, err := Open(e.ctx, stagedHome, e.opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := other.ApplyBatch(e.ctx, Batch{Actor: ActorUser, Items: []Item{wr("from-the-archive", "Archived", "in the archive")}})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("staged write: %+v %v", res, err)
	}
	other.Close()
	aside := filepath.Join(e.home, "aside")
	if err := os.MkdirAll(aside, 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.ctx)
	cancel()
	var rerr error
	if err := e.s.Exclusive(e.ctx, func(x *Exclusive) error {
		_, rerr = x.ReplaceFiles(ctx, filepath.Join(stagedHome, "memory"), aside)
		return rerr
	}); err != nil {
		t.Fatalf("a restore cancelled after its swap: %v", err)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE id = '` + before.ID + `'`); n != 0 {
		t.Fatal("the index still lists a memory the restored folder does not hold")
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE slug = 'from-the-archive'`); n != 1 {
		t.Fatalf("the archive's memory is not indexed (%d rows)", n)
	}
}
