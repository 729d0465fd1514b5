package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"engram/backend/memory"
)

// rewrite copies the archive src to dst with the index entry replaced by what change makes
// of it (a file on disk) and the manifest's checksums and fields made to match, as a backup
// written by another build would be.
func rewrite(t *testing.T, src, dst string, change func(index string), manifest func(m *Manifest)) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	type entry struct {
		hdr  *tar.Header
		body []byte
	}
	var list []entry
	var m Manifest
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		switch h.Name {
		case ManifestName:
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			continue
		case IndexEntry:
			p := filepath.Join(t.TempDir(), IndexEntry)
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			change(p)
			if b, err = os.ReadFile(p); err != nil {
				t.Fatal(err)
			}
			h.Size = int64(len(b))
		}
		list = append(list, entry{h, b})
	}
	// The manifest came last: fix the index's checksum now that it is read.
	for _, e := range list {
		if e.hdr.Name == IndexEntry {
			sum := sha256.Sum256(e.body)
			for i := range m.Files {
				if m.Files[i].Path == IndexEntry {
					m.Files[i].Size, m.Files[i].SHA256 = int64(len(e.body)), hex.EncodeToString(sum[:])
				}
			}
		}
	}
	manifest(&m)
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(out)
	tw := tar.NewWriter(zw)
	mb, _ := json.Marshal(m)
	list = append(list, entry{&tar.Header{Name: ManifestName, Mode: 0o600, Size: int64(len(mb)), Typeflag: tar.TypeReg}, mb})
	for _, e := range list {
		if err := tw.WriteHeader(e.hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// A backup made by a newer Engram holds an index whose schema this build cannot open: its
// restore into a new home failed whole ("index schema v999 is newer than this build", in
// English) though every memory is a Markdown file this build reads. Now the memories are
// restored and the index is built from them, and the result says the index's own history
// was not (IndexRebuilt "newer"). A backup of this build keeps its index copy. (A damaged
// index copy is mended by the store's own open.)
func TestRestoreNewHomeOfANewerBackup(t *testing.T) {
	ctx := context.Background()
	st := openHome(t, t.TempDir())
	apply(t, st, write("likes-tea", memory.ScopeGlobal, ""), write("short-answers", memory.ScopeAgent, "bot"))
	res, err := Create(ctx, st, Options{AppVersion: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.tar.gz")
	rewrite(t, res.Path, newer, func(index string) {
		db, err := sql.Open("sqlite", index)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`INSERT INTO schema_migrations VALUES (999, 'future', '2031-01-01')`); err != nil {
			t.Fatal(err)
		}
	}, func(m *Manifest) { m.SchemaVersion, m.AppVersion = 999, "9.0.0" })
	for _, tc := range []struct{ src, rebuilt string }{{res.Path, ""}, {newer, "newer"}} {
		home := filepath.Join(t.TempDir(), "home")
		r, err := RestoreNewHome(ctx, tc.src, home, nil)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(tc.src), err)
		}
		if r.IndexRebuilt != tc.rebuilt {
			t.Errorf("%s: IndexRebuilt %q, want %q", filepath.Base(tc.src), r.IndexRebuilt, tc.rebuilt)
		}
		got := openHome(t, home)
		for _, w := range []struct {
			scope       memory.Scope
			agent, slug string
		}{{memory.ScopeGlobal, "", "likes-tea"}, {memory.ScopeAgent, "bot", "short-answers"}} {
			if _, err := got.GetBySlug(ctx, w.scope, "", w.agent, w.slug); err != nil {
				t.Errorf("%s: %s not restored: %v", filepath.Base(tc.src), w.slug, err)
			}
		}
	}
}
