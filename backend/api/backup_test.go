package api

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"engram/backend/backup"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

// apiAt opens a store on home and builds the api over it for actor.
func apiAt(t *testing.T, home, actor string) *API {
	t.Helper()
	ctx := context.Background()
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	set := settings.New(st, "en")
	return New(ctx, Deps{Store: st, Catalog: cat, Settings: set, Events: NewHub(st, set), Recall: recall.New(st, recall.Options{}), Version: "test"}, actor)
}

func call(t *testing.T, a *API, method, params string) any {
	t.Helper()
	res, err := a.Call(method, json.RawMessage(params))
	if err != nil {
		t.Fatalf("%s %s: %v", method, params, err)
	}
	return res
}

// seedHome writes memories in every scope, a journal entry and an agent's keys.
func seedHome(t *testing.T, a *API, workdir string) {
	t.Helper()
	for _, p := range []string{
		`{"scope":"global","type":"user","slug":"likes-green-tea","title":"Likes green tea","body":"Drinks green tea every morning","confidence":"high","source_quote":"I drink green tea"}`,
		`{"scope":"project","workdir":"` + workdir + `","type":"project","slug":"uses-postgres","title":"Uses Postgres","body":"The service stores orders in Postgres","confidence":"medium","source_quote":"we use postgres"}`,
		`{"scope":"agent","agent":"claude-code","type":"feedback","slug":"short-answers","title":"Short answers","body":"Prefers short answers with code first","confidence":"low"}`,
	} {
		if ir := call(t, a, "memory.write", p).(ItemResult); !ir.OK {
			t.Fatalf("write %s: %+v", p, ir)
		}
	}
	call(t, a, "daily.append", `{"text":"Backed up the home today"}`)
	call(t, a, "kv.set", `{"agent":"claude-code","key":"editor","value":"helix"}`)
}

// tree maps every file under the memory folder (the index and lock aside) to its SHA-256.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if strings.HasPrefix(d.Name(), "index.sqlite3") || d.Name() == ".lock" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		sum := sha256.Sum256(data)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func searchSlugs(t *testing.T, a *API, q, extra string) []string {
	t.Helper()
	res := call(t, a, "memory.search", `{"query":"`+q+`"`+extra+`}`).(SearchResult)
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Memory.Slug)
	}
	sort.Strings(out)
	return out
}

func sameTree(t *testing.T, want, got map[string]string) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("trees differ: %d files vs %d\nwant %v\ngot  %v", len(want), len(got), want, got)
	}
	for p, h := range want {
		if got[p] != h {
			t.Fatalf("%s differs after restore", p)
		}
	}
}

// Backup then restore to a new home gives the same files byte for byte and an index that
// finds the same memories, in every scope, with the agent's keys.
func TestBackupRestoreRoundTripToNewHome(t *testing.T) {
	home := t.TempDir()
	a := apiAt(t, home, memory.ActorUser)
	workdir := t.TempDir()
	seedHome(t, a, workdir)
	res := call(t, a, "backup.create", `{}`).(backup.Result)
	if !strings.HasPrefix(res.Path, filepath.Join(home, "backups")+string(filepath.Separator)) {
		t.Fatalf("backup written to %s", res.Path)
	}
	m := res.Manifest
	if m.Memories != 3 || m.Daily != 1 || m.KVFiles != 1 || m.Format != backup.Format {
		t.Fatalf("manifest counts %+v", m)
	}
	if pv := call(t, a, "backup.preview", `{"path":"`+res.Path+`"}`).(BackupPreview); pv.Created != m.Created || pv.FileCount != m.FileCount || pv.FileCount < 6 || pv.Files != nil {
		t.Fatalf("preview %+v", pv)
	}
	newHome := filepath.Join(t.TempDir(), "restored")
	rr := call(t, a, "backup.restore", `{"path":"`+res.Path+`","home":"`+newHome+`"}`).(backup.RestoreResult)
	if rr.InPlace || rr.PreBackup != "" || rr.Home != newHome {
		t.Fatalf("restore result %+v", rr)
	}
	sameTree(t, tree(t, filepath.Join(home, "memory")), tree(t, filepath.Join(newHome, "memory")))

	b := apiAt(t, newHome, memory.ActorUser)
	for _, q := range []struct{ q, extra string }{{"green tea", ""}, {"Postgres", `,"workdir":"` + workdir + `"`}, {"short answers", `,"agent":"claude-code"`}} {
		want, got := searchSlugs(t, a, q.q, q.extra), searchSlugs(t, b, q.q, q.extra)
		if len(want) == 0 || strings.Join(want, ",") != strings.Join(got, ",") {
			t.Fatalf("search %q: %v before, %v after", q.q, want, got)
		}
	}
	kv := call(t, b, "kv.get", `{"agent":"claude-code","key":"editor"}`)
	if data, _ := json.Marshal(kv); !strings.Contains(string(data), "helix") {
		t.Fatalf("kv after restore: %s", data)
	}
	doc := call(t, b, "index.doctor", `{}`).(memory.DoctorReport)
	if !doc.OK || doc.Memories != 3 || doc.JournalDays != 1 { // three memories and the journal day, counted apart as list and quota do
		t.Fatalf("doctor on the restored home: ok=%v memories=%d journal days=%d findings=%+v", doc.OK, doc.Memories, doc.JournalDays, doc.Findings)
	}
	// A second restore into the same (now full) home is refused.
	_, err := a.Call("backup.restore", json.RawMessage(`{"path":"`+res.Path+`","home":"`+newHome+`"}`))
	wantCode(t, err, backup.CodeTargetNotEmpty)
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != code {
		t.Fatalf("want %s, got %v", code, err)
	}
	if ae.Message == "" || strings.HasPrefix(ae.Message, "error.") {
		t.Fatalf("%s has no translated message: %+v", code, ae)
	}
}

// Restoring in place backs up the current state first: what was written after the backup
// is gone from the live home but present in the pre-restore backup, which restores it.
func TestRestoreInPlaceBacksUpFirst(t *testing.T) {
	home := t.TempDir()
	a := apiAt(t, home, memory.ActorUser)
	call(t, a, "memory.write", `{"scope":"global","type":"user","slug":"before-backup","title":"Before","body":"written before the backup","confidence":"low"}`)
	first := call(t, a, "backup.create", `{"to":"`+filepath.Join(t.TempDir(), "first.tar.gz")+`"}`).(backup.Result)
	call(t, a, "memory.write", `{"scope":"global","type":"user","slug":"after-backup","title":"After","body":"written after the backup","confidence":"low"}`)

	rr := call(t, a, "backup.restore", `{"path":"`+first.Path+`"}`).(backup.RestoreResult)
	if !rr.InPlace || rr.PreBackup == "" {
		t.Fatalf("restore result %+v", rr)
	}
	if got := searchSlugs(t, a, "written", ""); strings.Join(got, ",") != "before-backup" {
		t.Fatalf("after the in-place restore search finds %v", got)
	}
	pre := call(t, a, "backup.preview", `{"path":"`+rr.PreBackup+`"}`).(BackupPreview)
	if pre.Memories != 2 {
		t.Fatalf("pre-restore backup holds %d memories, want 2", pre.Memories)
	}
	call(t, a, "backup.restore", `{"path":"`+rr.PreBackup+`"}`)
	if got := searchSlugs(t, a, "written", ""); strings.Join(got, ",") != "after-backup,before-backup" {
		t.Fatalf("after restoring the pre-restore backup search finds %v", got)
	}
}

// entry is one member of a hand-made archive.
type entry struct {
	name     string
	body     string
	typeflag byte
	link     string
}

// hostile writes a gzip'd tar of entries with a manifest that lists listed (nil: all
// regular entries with their true checksums).
func hostile(t *testing.T, dir string, entries []entry, manifest *backup.Manifest) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	m := backup.Manifest{Format: backup.Format, FormatVersion: 1}
	for _, e := range entries {
		tf := e.typeflag
		if tf == 0 {
			tf = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Mode: 0o600, Typeflag: tf, Linkname: e.link}
		if tf == tar.TypeReg {
			h.Size = int64(len(e.body))
			sum := sha256.Sum256([]byte(e.body))
			m.Files = append(m.Files, backup.File{Path: e.name, Size: h.Size, SHA256: hex.EncodeToString(sum[:])})
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if tf == tar.TypeReg {
			tw.Write([]byte(e.body))
		}
	}
	if manifest != nil {
		m = *manifest
	}
	data, _ := json.Marshal(m)
	tw.WriteHeader(&tar.Header{Name: backup.ManifestName, Mode: 0o600, Size: int64(len(data)), Typeflag: tar.TypeReg})
	tw.Write(data)
	tw.Close()
	gz.Close()
	p := filepath.Join(dir, "hostile.tar.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Archives with path tricks, links, bad checksums or no manifest are refused with a
// translated error before anything is touched: the home's files stay as they were, nothing
// lands outside it, and a restore to a new home leaves no memory folder there.
func TestHostileArchivesRefusedAndNothingLost(t *testing.T) {
	idx := entry{name: "index.sqlite3", body: "not really sqlite"}
	good := entry{name: "memory/global/user/fine.md", body: "---\nid: x\n---\n"}
	bad := backup.Manifest{Format: backup.Format, FormatVersion: 1, Files: []backup.File{{Path: "index.sqlite3", Size: 17, SHA256: strings.Repeat("0", 64)}}}
	cases := []struct {
		name     string
		entries  []entry
		manifest *backup.Manifest
		code     string
	}{
		{"dot-dot escape", []entry{idx, {name: "memory/../../escaped.md", body: "x"}}, nil, backup.CodeUnsafeEntry},
		{"leading dot-dot", []entry{idx, {name: "../escaped.md", body: "x"}}, nil, backup.CodeUnsafeEntry},
		{"absolute path", []entry{idx, {name: "/tmp/escaped.md", body: "x"}}, nil, backup.CodeUnsafeEntry},
		{"outside the layout", []entry{idx, {name: "settings.json", body: "x"}}, nil, backup.CodeUnsafeEntry},
		{"symlink", []entry{idx, {name: "memory/global/user/link.md", typeflag: tar.TypeSymlink, link: "/etc/passwd"}}, nil, backup.CodeUnsafeEntry},
		{"hard link", []entry{idx, {name: "memory/global/user/hard.md", typeflag: tar.TypeLink, link: "index.sqlite3"}}, nil, backup.CodeUnsafeEntry},
		{"checksum mismatch", []entry{idx, good}, &bad, backup.CodeChecksumMismatch},
		{"manifest lists a missing file", []entry{idx}, &backup.Manifest{Format: backup.Format, FormatVersion: 1,
			Files: []backup.File{{Path: "index.sqlite3", Size: 17, SHA256: "x"}, {Path: "memory/a.md", Size: 1, SHA256: "y"}}}, backup.CodeChecksumMismatch},
		{"not an engram backup", []entry{idx}, &backup.Manifest{Format: "something-else"}, backup.CodeInvalidArchive},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			outer := t.TempDir()
			home := filepath.Join(outer, "home")
			a := apiAt(t, home, memory.ActorUser)
			call(t, a, "memory.write", `{"scope":"global","type":"user","slug":"precious","title":"Precious","body":"must survive","confidence":"low"}`)
			before := tree(t, filepath.Join(home, "memory"))
			arch := hostile(t, t.TempDir(), tc.entries, tc.manifest)

			_, err := a.Call("backup.restore", json.RawMessage(`{"path":"`+arch+`"}`))
			wantCode(t, err, tc.code)
			sameTree(t, before, tree(t, filepath.Join(home, "memory")))
			if got := searchSlugs(t, a, "survive", ""); strings.Join(got, ",") != "precious" {
				t.Fatalf("after the refused restore search finds %v", got)
			}
			newHome := filepath.Join(outer, "new")
			_, err = a.Call("backup.restore", json.RawMessage(`{"path":"`+arch+`","home":"`+newHome+`"}`))
			wantCode(t, err, tc.code)
			if _, err := os.Stat(newHome); !os.IsNotExist(err) {
				t.Fatalf("a refused restore left the folder %s it made", newHome)
			}
			for _, p := range []string{filepath.Join(outer, "escaped.md"), "/tmp/escaped.md", filepath.Join(home, "escaped.md")} {
				if _, err := os.Stat(p); err == nil {
					t.Fatalf("%s was written", p)
				}
			}
			// No pre-restore backup was made either: the archive was refused before that.
			if list, _ := backup.List(backup.DefaultDir(home)); len(list) != 0 {
				t.Fatalf("backups made for a refused archive: %+v", list)
			}
		})
	}
}

// A remote caller (the bridge) may name only backups in the backups folder, never a path.
func TestBackupPathsFromRemoteCallers(t *testing.T) {
	home := t.TempDir()
	a := apiAt(t, home, memory.ActorUser)
	res := call(t, a, "backup.create", `{}`).(backup.Result)
	r := New(context.Background(), a.deps, "bridge")
	_, err := r.Call("backup.create", json.RawMessage(`{"to":"/tmp/elsewhere.tar.gz"}`))
	wantCode(t, err, CodeBackupPathRemote)
	_, err = r.Call("backup.preview", json.RawMessage(`{"path":"/etc/passwd"}`))
	wantCode(t, err, CodeBackupPathRemote)
	_, err = r.Call("backup.restore", json.RawMessage(`{"path":"`+filepath.Base(res.Path)+`","home":"/tmp/x"}`))
	wantCode(t, err, CodeBackupPathRemote)
	if _, err := r.Call("backup.preview", json.RawMessage(`{"path":"`+filepath.Base(res.Path)+`"}`)); err != nil {
		t.Fatalf("a listed backup by name: %v", err)
	}
}

// The schedule is validated and stored; retention keeps only the newest scheduled backups.
func TestBackupScheduleAndRetention(t *testing.T) {
	home := t.TempDir()
	a := apiAt(t, home, memory.ActorUser)
	_, err := a.Call("backup.updateSchedule", json.RawMessage(`{"interval_hours":-1,"keep":3}`))
	wantCode(t, err, backup.CodeInvalidSchedule)
	call(t, a, "backup.updateSchedule", `{"interval_hours":24,"keep":2}`)
	l := call(t, a, "backup.list", `{}`).(BackupListResult)
	if l.Schedule.IntervalHours != 24 || l.Schedule.Keep != 2 || l.NextDue == "" {
		t.Fatalf("list %+v", l)
	}
	dir := backup.DefaultDir(home)
	os.MkdirAll(dir, 0o700)
	for _, n := range []string{"engram-backup-20260101T000000Z.tar.gz", "engram-backup-20260102T000000Z.tar.gz",
		"engram-backup-20260103T000000Z.tar.gz", "engram-pre-restore-20250101T000000Z.tar.gz", "mine.tar.gz"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600)
	}
	removed, err := backup.Prune(dir, 2)
	if err != nil || len(removed) != 1 || filepath.Base(removed[0]) != "engram-backup-20260101T000000Z.tar.gz" {
		t.Fatalf("prune removed %v (%v)", removed, err)
	}
	for _, n := range []string{"engram-pre-restore-20250101T000000Z.tar.gz", "mine.tar.gz", "engram-backup-20260103T000000Z.tar.gz"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Fatalf("%s removed", n)
		}
	}
}

// Another process on the same home (here a second store, with its own lock handle) sees the
// restored files after an in-place restore, and its writes go through the same lock.
func TestRestoreInPlaceWithAnotherProcessOpen(t *testing.T) {
	home := t.TempDir()
	a := apiAt(t, home, memory.ActorUser)
	other := apiAt(t, home, memory.ActorUser)
	call(t, a, "memory.write", `{"scope":"global","type":"user","slug":"in-backup","title":"In","body":"kept by the backup","confidence":"low"}`)
	b := call(t, a, "backup.create", `{}`).(backup.Result)
	call(t, other, "memory.write", `{"scope":"global","type":"user","slug":"from-other","title":"Other","body":"written by the other process","confidence":"low"}`)
	rr := call(t, a, "backup.restore", `{"path":"`+filepath.Base(b.Path)+`"}`).(backup.RestoreResult)
	call(t, other, "index.reconcile", `{}`)
	if got := searchSlugs(t, other, "backup process", ""); strings.Join(got, ",") != "in-backup" {
		t.Fatalf("the other process finds %v after the restore", got)
	}
	if pre := call(t, a, "backup.preview", `{"path":"`+rr.PreBackup+`"}`).(BackupPreview); pre.Memories != 2 {
		t.Fatalf("the other process's write is not in the pre-restore backup: %d memories", pre.Memories)
	}
	call(t, other, "memory.write", `{"scope":"global","type":"user","slug":"after-restore","title":"After","body":"written after the restore","confidence":"low"}`)
	call(t, a, "index.reconcile", `{}`)
	if got := searchSlugs(t, a, "written after the restore", ""); strings.Join(got, ",") != "after-restore" {
		t.Fatalf("a write after the restore: %v", got)
	}
}

// A backup cut off by an interrupted copy, or a file that is no archive, is refused with a
// reason in words (it read "unexpected EOF" or "gzip: invalid header" in every language).
func TestDamagedArchiveSaysWhy(t *testing.T) {
	home := t.TempDir()
	a := apiAt(t, home, memory.ActorUser)
	seedHome(t, a, t.TempDir())
	res := call(t, a, "backup.create", `{}`).(backup.Result)
	data, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, key string
		body      []byte
	}{
		{"cut.tar.gz", "detail.cut_short", data[:len(data)/2]},
		{"text.tar.gz", "detail.not_gzip", bytes.Repeat([]byte("not an archive at all\n"), 10)},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, tc.body, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := a.Call("backup.preview", json.RawMessage(`{"path":"`+p+`"}`))
		wantCode(t, err, backup.CodeInvalidArchive)
		var ae *Error
		if !errors.As(err, &ae) || ae.Args["DetailKey"] != tc.key || strings.Contains(ae.Message, "EOF") || strings.Contains(ae.Message, "gzip:") {
			t.Fatalf("%s: %+v", tc.name, err)
		}
	}
}

// A file the restored home cannot index is counted in the result (doctor lists it), not
// logged to stderr in English.
func TestRestoreToNewHomeCountsUnreadableFiles(t *testing.T) {
	home := t.TempDir()
	a := apiAt(t, home, memory.ActorUser)
	seedHome(t, a, t.TempDir())
	broken := filepath.Join(home, "memory", "global", "user", "broken-yaml.md")
	if err := os.WriteFile(broken, []byte("---\nid: [unclosed\n---\nbody\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := call(t, a, "backup.create", `{}`).(backup.Result)
	newHome := filepath.Join(t.TempDir(), "restored")
	rr := call(t, a, "backup.restore", `{"path":"`+res.Path+`","home":"`+newHome+`"}`).(backup.RestoreResult)
	if rr.Reindex.Problems != 1 {
		t.Fatalf("restore result %+v, want 1 unreadable file", rr.Reindex)
	}
	if data, err := os.ReadFile(filepath.Join(newHome, "memory", "global", "user", "broken-yaml.md")); err != nil || !strings.Contains(string(data), "[unclosed") {
		t.Fatalf("the unreadable file was not restored as it was: %v", err)
	}
}
