package faults

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// home is one Engram home under test and the ledger of what its children acknowledged.
type home struct {
	dir     string
	l       *ledger
	rng     *rand.Rand
	reopens int
}

func newHome(t *testing.T) *home {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	return &home{dir: filepath.Join(t.TempDir(), "home"), l: &ledger{}, rng: rand.New(rand.NewPCG(seed, seed^0xfa17))}
}

func (h *home) root() string { return filepath.Join(h.dir, "memory") }

// tree is what the files of a home hold, read without any Engram process.
type tree struct {
	live    map[string]*memory.Memory // id → live memory (not trash, snapshot or archive)
	journal string                    // every daily file, concatenated
	temps   int
}

// readTree parses every Markdown file under the memory folder: each must parse (a torn file
// fails the test), wherever it is; live ones are kept by id.
func readTree(t *testing.T, root string) tree {
	t.Helper()
	tr := tree{live: map[string]*memory.Memory{}}
	var journal strings.Builder
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(d.Name(), ".tmp-") {
			tr.temps++
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		m, err := memory.Parse(data)
		if err != nil {
			t.Errorf("torn or unparsable file %s: %v", rel, err)
			return nil
		}
		if strings.HasPrefix(rel, ".") { // .trash, .snapshots, .archive
			return nil
		}
		if prev := tr.live[m.ID]; prev != nil {
			t.Errorf("id %s in two live files", m.ID)
		}
		tr.live[m.ID] = m
		if strings.HasPrefix(rel, "daily/") {
			journal.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tr.journal = journal.String()
	return tr
}

// verifyFiles checks the files as a fault left them: every acknowledged memory and journal
// entry is there, in a file that parses.
func (h *home) verifyFiles(t *testing.T, merges bool) tree {
	t.Helper()
	tr := readTree(t, h.root())
	var bodies strings.Builder
	if merges {
		for _, m := range tr.live {
			bodies.WriteString(m.Body)
			bodies.WriteByte('\n')
		}
	}
	for _, a := range h.l.acks {
		switch a.Kind {
		case "mem":
			if merges {
				if !strings.Contains(bodies.String(), a.Marker) {
					t.Errorf("acknowledged memory %s (%s) is in no live file", a.ID, a.Marker)
				}
				continue
			}
			m := tr.live[a.ID]
			if m == nil {
				t.Errorf("acknowledged memory %s (%s) lost", a.ID, a.Marker)
			} else if !strings.Contains(m.Body, a.Marker) {
				t.Errorf("acknowledged memory %s lost its text %s: %q", a.ID, a.Marker, m.Body)
			}
		case "day":
			if !strings.Contains(tr.journal, a.Marker) {
				t.Errorf("acknowledged journal entry %s lost", a.Marker)
			}
		}
	}
	return tr
}

// verifyIndex reopens the home as the next Engram process would and checks that the index
// agrees with the files: nothing left to reconcile, the same ids, doctor ok, and a write works.
func (h *home) verifyIndex(t *testing.T, merges bool) {
	t.Helper()
	ctx := context.Background()
	s, err := memory.Open(ctx, h.dir, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	checkIndex(t, s, h.verifyFiles(t, merges))
	for _, a := range h.l.acks {
		if a.Kind != "mem" || merges {
			continue
		}
		if m, err := s.Get(ctx, a.ID); err != nil || !strings.Contains(m.Body, a.Marker) {
			t.Errorf("acknowledged memory %s not in the index: %v", a.ID, err)
		}
	}
	h.reopens++
	slug := fmt.Sprintf("after-the-faults-%d", h.reopens)
	res, err := s.ApplyBatch(ctx, memory.Batch{Items: []memory.Item{write(slug, "still writes")}})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("write after the faults: %v %+v", err, res)
	}
}

// checkIndex compares an open store's index with the tree its files hold.
func checkIndex(t *testing.T, s *memory.Store, tr tree) {
	t.Helper()
	ctx := context.Background()
	if probs, err := s.Problems(ctx); err != nil || len(probs) != 0 {
		t.Fatalf("problems after the faults: %+v %v", probs, err)
	}
	rep, err := s.Reconcile(ctx)
	if err != nil || rep.Added+rep.Updated+rep.Removed+rep.Problems != 0 {
		t.Fatalf("a second reconcile still found work: %+v %v", rep, err)
	}
	var indexed []string
	err = s.ScanMemories(ctx, memory.Filter{}, "", func(m *memory.Memory) bool {
		indexed = append(indexed, m.ID)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for id := range tr.live {
		files = append(files, id)
	}
	sort.Strings(indexed)
	sort.Strings(files)
	if strings.Join(indexed, ",") != strings.Join(files, ",") {
		t.Fatalf("the index holds %d memories, the files %d", len(indexed), len(files))
	}
	doc, err := s.Doctor(ctx)
	if err != nil || !doc.OK || !doc.FTSConsistent || doc.Integrity != "ok" || len(doc.Checksum.Mismatched) != 0 {
		t.Fatalf("doctor after the faults: %v %+v", err, doc)
	}
}

func sp(s string) *string { return &s }

// write is an ordinary global memory.
func write(slug, body string) memory.Item {
	return memory.Item{Op: memory.OpWrite, Scope: memory.ScopeGlobal, Type: memory.TypeUser, Slug: slug,
		Title: sp("Fault " + slug), Body: sp(body)}
}
