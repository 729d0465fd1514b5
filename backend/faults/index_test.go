package faults

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/memory"
)

func init() {
	// index-writer writes until killed; a failed batch (the index gone or damaged under it) is
	// reported on stderr and the writing goes on, as a running app's would.
	extraRoles["index-writer"] = func(c *child) error {
		c.svc.Background() // the watcher runs, as in the desktop app and serve
		for i := 0; ; i++ {
			slug := fmt.Sprintf("ix-%s-%04d", round(), i)
			marker := "mk-" + slug
			res, err := c.api.Memory.ApplyBatch(api.BatchParams{Items: []memory.Item{write(slug, "payload "+marker),
				{Op: memory.OpAppendDaily, Text: "day-" + marker}}})
			if err != nil {
				fmt.Fprintln(os.Stderr, "batch:", err)
				time.Sleep(20 * time.Millisecond)
				continue
			}
			if res.Results[0].OK {
				c.ack(ack{Kind: "mem", ID: res.Results[0].ID, Marker: marker})
			}
			if res.Results[1].OK {
				c.ack(ack{Kind: "day", Marker: "day-" + marker})
			}
			if i%5 == 0 {
				// reads go on too: a search that fails is reported, not fatal
				if _, err := c.api.Memory.Search(api.SearchParams{Query: "payload"}); err != nil {
					fmt.Fprintln(os.Stderr, "search:", err)
				}
			}
		}
	}
}

// damage deletes the index (with its -wal and -shm) or overwrites its header.
func damage(t *testing.T, root, how string) {
	t.Helper()
	idx := filepath.Join(root, indexPrefix)
	switch how {
	case "deleted":
		for _, s := range []string{"", "-wal", "-shm"} {
			if err := os.Remove(idx + s); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
	case "corrupted":
		f, err := os.OpenFile(idx, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		junk := []byte(strings.Repeat("this is no longer a database page! ", 120))
		f.WriteAt(junk, 0)
		f.Close()
	}
}

// waitAcks reads the child's lines until n more memories are acknowledged (or it ends).
func waitAcks(t *testing.T, p *proc, l *ledger, n int) {
	t.Helper()
	guard := time.After(time.Minute)
	for got := 0; got < n; {
		select {
		case line, ok := <-p.lines:
			if !ok {
				p.cmd.Wait()
				t.Fatalf("the writer ended; stderr: %s", p.stderr)
			}
			if a, _ := l.take(t, line); a != nil && a.Kind == "mem" {
				got++
			}
		case <-guard:
			p.cmd.Process.Kill()
			p.drain(t, l)
			t.Fatalf("no progress after the index was damaged; stderr: %.2000s", p.stderr)
		}
	}
}

// TestIndexDamagedWhileRunning deletes or corrupts the index under a writing process. The
// writer keeps acknowledging writes (to its files); another process opening the home meanwhile
// rebuilds the index from the Markdown; after the writer is killed, the next open finds every
// acknowledged write in the files and in the index, with the index consistent with the files.
func TestIndexDamagedWhileRunning(t *testing.T) {
	for _, how := range []string{"deleted", "corrupted"} {
		t.Run(how, func(t *testing.T) {
			h := newHome(t)
			p := startChild(t, "index-writer", h.dir, "ENGRAM_FAULTS_ROUND=0")
			waitAcks(t, p, h.l, 10)
			damage(t, h.root(), how)
			waitAcks(t, p, h.l, 10)
			if how == "deleted" {
				// The writer noticed: an index is back at the path, holding its latest write.
				var last ack
				for _, a := range h.l.acks {
					if a.Kind == "mem" {
						last = a
					}
				}
				if !indexHolds(t, h.root(), last.ID) {
					p.cmd.Process.Kill()
					p.drain(t, h.l)
					t.Fatalf("the running writer kept writing to the deleted index (%s is in no index at the path); stderr %.3000s", last.Marker, p.stderr)
				}
			}
			// Another process opens the home while the writer runs: it must not fail, and it
			// must see every memory acknowledged so far.
			s, err := memory.Open(context.Background(), h.dir, memory.Options{Logger: quiet})
			if err != nil {
				p.cmd.Process.Kill()
				t.Fatalf("open beside the writer after the index was %s: %v", how, err)
			}
			n := len(h.l.acks)
			for _, a := range h.l.acks[:n] {
				if a.Kind != "mem" {
					continue
				}
				if _, err := s.Get(context.Background(), a.ID); err != nil {
					t.Errorf("a process opened after the damage lacks %s: %v", a.Marker, err)
				}
			}
			s.Close()
			waitAcks(t, p, h.l, 10)
			p.cmd.Process.Signal(syscall.SIGKILL)
			p.drain(t, h.l)
			h.verifyFiles(t, false)
			h.verifyIndex(t, false)
			t.Logf("%d memories acknowledged; writer stderr: %.300s", h.l.count("mem"), p.stderr)
		})
	}
}

// indexHolds opens the index file at its path read-only (no Engram process involved) and
// reports whether it has the memory id.
func indexHolds(t *testing.T, root, id string) bool {
	t.Helper()
	path := filepath.Join(root, indexPrefix)
	if _, err := os.Stat(path); err != nil {
		return false
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(15000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM memory_meta WHERE id = ?`, id).Scan(&n); err != nil {
		t.Logf("index at the path: %v", err)
		return false
	}
	return n == 1
}
