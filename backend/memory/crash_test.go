package memory

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// childQuota lifts the scope quota for the writing children and the checks after them: how
// many memories 30 rounds of kills leave depends on the machine's speed (a fast one went past
// the default 500 of the global scope and the writer stopped on quota_exhausted), and the
// quota is not what these tests are about.
const childQuota = 1 << 20

// runChild is the test binary acting as another Engram process (see TestMain). It prints one
// line per acknowledged operation, only after ApplyBatch has returned it as applied.
func runChild(role string) int {
	home, prefix := os.Getenv("ENGRAM_TEST_HOME"), os.Getenv("ENGRAM_TEST_PREFIX")
	if role == "kv-writer" {
		return runKVChild(home, prefix)
	}
	if role == "watcher" {
		return runWatcherChild(home)
	}
	if role == "merge-kill" {
		return runMergeChild(home)
	}
	ctx := context.Background()
	s, err := Open(ctx, home, Options{Logger: quietLogger, QuotaLimit: childQuota})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 3
	}
	defer s.Close()
	count := 1 << 20 // crash-writer: until killed
	if role == "concurrent-writer" {
		count, _ = strconv.Atoi(os.Getenv("ENGRAM_TEST_COUNT"))
	} else if role != "crash-writer" {
		fmt.Fprintln(os.Stderr, "unknown role", role)
		return 2
	}
	for i := 0; i < count; i++ {
		slug := fmt.Sprintf("%s-%05d", prefix, i)
		items := []Item{wr(slug, "Crash "+slug, fmt.Sprintf("payload %s %s", slug, strings.Repeat("x", i%7*300)))}
		marker := ""
		if i > 0 {
			marker = fmt.Sprintf("rev-%s-%05d", prefix, i)
			prev := fmt.Sprintf("%s-%05d", prefix, i-1)
			items = append(items, Item{Op: OpUpdate, Slug: prev, Scope: ScopeGlobal, Body: sp(marker)})
		}
		daily := fmt.Sprintf("entry-%s-%05d", prefix, i)
		items = append(items, Item{Op: OpAppendDaily, Text: daily})
		res, err := s.ApplyBatch(ctx, Batch{Items: items, Actor: ActorTool, Session: prefix})
		if err != nil {
			fmt.Fprintln(os.Stderr, "batch:", err)
			return 4
		}
		var out strings.Builder
		if r := res.Results[0]; r.OK {
			fmt.Fprintf(&out, "ACK %s %s\n", slug, r.ID)
		} else {
			fmt.Fprintf(os.Stderr, "write %s: %s %s\n", slug, r.Code, r.Message)
			return 5
		}
		if marker != "" && res.Results[1].OK {
			fmt.Fprintf(&out, "UPD %s %s\n", items[1].Slug, marker)
		}
		if res.Results[len(res.Results)-1].OK {
			fmt.Fprintf(&out, "DAY %s\n", daily)
		}
		if _, err := io.WriteString(os.Stdout, out.String()); err != nil {
			return 6 // the parent is gone
		}
	}
	return 0
}

type childAcks struct {
	writes map[string]string // slug → id
	upds   map[string]string // slug → marker merged into its body
	days   []string          // journal entries
}

func newAcks() *childAcks { return &childAcks{writes: map[string]string{}, upds: map[string]string{}} }

func (a *childAcks) add(line string) {
	f := strings.Fields(line)
	switch {
	case len(f) == 3 && f[0] == "ACK":
		a.writes[f[1]] = f[2]
	case len(f) == 3 && f[0] == "UPD":
		a.upds[f[1]] = f[2]
	case len(f) == 2 && f[0] == "DAY":
		a.days = append(a.days, f[1])
	}
}

// startChild runs the test binary in a child role on home; acked lines arrive on the channel,
// which closes when the child's stdout does.
func startChild(t *testing.T, role, home, prefix string, extraEnv ...string) (*exec.Cmd, <-chan string, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ENGRAM_TEST_CHILD="+role, "ENGRAM_TEST_HOME="+home, "ENGRAM_TEST_PREFIX="+prefix)
	cmd.Env = append(cmd.Env, extraEnv...)
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1024)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return cmd, lines, stderr
}

// TestCrashSafety SIGKILLs a writing process at random moments, many times over one home, then
// checks that every acknowledged operation is on disk in a file that parses, that no torn file
// exists, and that the index agrees with the files after a reconcile.
func TestCrashSafety(t *testing.T) {
	// 30 rounds; 16 under the race detector, where every child is a race-built process that
	// starts and writes several times slower (make fuzz runs ENGRAM_CRASH_ROUNDS=200 without it).
	rounds := 30
	if raceBuild {
		rounds = 16
	}
	if testing.Short() {
		rounds = 6
	}
	if n, err := strconv.Atoi(os.Getenv("ENGRAM_CRASH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed>>7))
	home := t.TempDir()
	acks := newAcks()
	killedBeforeAck := 0
	for round := 0; round < rounds; round++ {
		cmd, lines, stderr := startChild(t, "crash-writer", home, fmt.Sprintf("r%02d", round))
		guard := time.After(2 * time.Minute) // a hung child fails the test instead of hanging it
		if round%5 == 4 {
			// kill early, whatever it is doing: opening, migrating, reconciling or writing.
			select {
			case <-time.After(time.Duration(rng.IntN(250)) * time.Millisecond):
			case <-guard:
			}
		} else {
			want := 1 + rng.IntN(25)
			got := 0
		wait:
			for got < want {
				select {
				case l, ok := <-lines:
					if !ok {
						break wait
					}
					acks.add(l)
					if strings.HasPrefix(l, "ACK ") {
						got++
					}
				case <-guard:
					cmd.Process.Kill()
					t.Fatalf("round %d: no progress; stderr: %s", round, stderr)
				}
			}
			time.Sleep(time.Duration(rng.IntN(15000)) * time.Microsecond)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatalf("round %d: kill: %v", round, err)
		}
		n := len(acks.writes)
		for l := range lines { // acks printed before the kill still count
			acks.add(l)
		}
		if len(acks.writes) == n && round%5 == 4 {
			killedBeforeAck++
		}
		err := cmd.Wait()
		if err == nil || !strings.Contains(err.Error(), "killed") {
			t.Fatalf("round %d: child ended on its own (%v); stderr: %s", round, err, stderr)
		}
	}
	if len(acks.writes) == 0 {
		t.Fatal("no write was ever acknowledged")
	}
	t.Logf("%d rounds, %d acked writes, %d acked updates, %d acked journal entries", rounds, len(acks.writes), len(acks.upds), len(acks.days))

	// 1. the files as a crash left them, before any Engram process touches them again.
	root := filepath.Join(home, "memory")
	fileIDs := verifyTree(t, root)
	for slug, id := range acks.writes {
		data, err := os.ReadFile(filepath.Join(root, "global", "user", slug+".md"))
		if err != nil {
			t.Errorf("acked write %s missing: %v", slug, err)
			continue
		}
		m, err := Parse(data)
		if err != nil || m.ID != id {
			t.Errorf("acked write %s: id %v, want %s (%v)", slug, m, id, err)
		}
	}
	for slug, marker := range acks.upds {
		data, _ := os.ReadFile(filepath.Join(root, "global", "user", slug+".md"))
		if !bytes.Contains(data, []byte(marker)) {
			t.Errorf("acked update %s (%s) lost", slug, marker)
		}
	}
	var journal bytes.Buffer
	days, _ := filepath.Glob(filepath.Join(root, "daily", "*.md"))
	for _, d := range days {
		data, _ := os.ReadFile(d)
		journal.Write(data)
	}
	for _, entry := range acks.days {
		if !bytes.Contains(journal.Bytes(), []byte(entry+"\n")) {
			t.Errorf("acked journal entry %s lost", entry)
		}
	}

	// 2. the index, after the reconcile Open does, agrees with the files.
	s, err := Open(context.Background(), home, Options{Logger: quietLogger, QuotaLimit: childQuota})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if probs, _ := s.Problems(context.Background()); len(probs) != 0 {
		t.Fatalf("problems after crashes: %+v", probs)
	}
	rep, err := s.Reconcile(context.Background())
	if err != nil || rep.Added+rep.Updated+rep.Removed+rep.Problems != 0 {
		t.Fatalf("second reconcile still found work: %+v %v", rep, err)
	}
	indexIDs := indexIDs(t, s)
	if strings.Join(indexIDs, ",") != strings.Join(fileIDs, ",") {
		t.Fatalf("index has %d ids, files have %d", len(indexIDs), len(fileIDs))
	}
	doc, err := s.Doctor(context.Background())
	if err != nil || !doc.OK {
		t.Fatalf("doctor after crashes: %+v %v", doc, err)
	}
	// and the store still works.
	res, err := s.ApplyBatch(context.Background(), Batch{Items: []Item{wr("after-crashes", "t", "b")}})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("write after crashes: %v %+v", err, res)
	}
}

// verifyTree checks every file under root: live memory files parse; the only other leftovers
// are temp files of interrupted atomic writes. It returns the sorted ids of the memory files.
func verifyTree(t *testing.T, root string) []string {
	t.Helper()
	var ids []string
	tmp := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return nil
		}
		name := d.Name()
		switch {
		case strings.HasPrefix(name, ".tmp-"):
			tmp++
		case rel == ".lock" || strings.HasPrefix(rel, "index.sqlite3"):
		case strings.HasSuffix(name, ".md") && (strings.HasPrefix(rel, "global/") || strings.HasPrefix(rel, "daily/")):
			data, err := os.ReadFile(p)
			if err != nil {
				t.Errorf("%s: %v", rel, err)
				return nil
			}
			m, err := Parse(data)
			if err != nil {
				t.Errorf("torn or unparsable file %s: %v", rel, err)
				return nil
			}
			ids = append(ids, m.ID)
		default:
			t.Errorf("unexpected file %s", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d memory files, %d temp leftovers", len(ids), tmp)
	sort.Strings(ids)
	return ids
}

func indexIDs(t *testing.T, s *Store) []string {
	t.Helper()
	return columnOf(t, s.db, `SELECT id FROM memory_meta ORDER BY id`)
}

// TestConcurrentWriters: two Stores in this process and one child process write to one home at
// once — ordinary memories, one shared journal day, and competing updates of one memory.
func TestConcurrentWriters(t *testing.T) {
	n := 25
	if testing.Short() {
		n = 8
	}
	e := newEnv(t)
	e.opts.Now = nil // real clock: the child has it too, so all share one journal day
	s1, s2 := e.open(), e.open()
	shared := e.ok(wr("shared-one", "Shared", "base"))

	cmd, lines, stderr := startChild(t, "concurrent-writer", e.home, "child", "ENGRAM_TEST_COUNT="+strconv.Itoa(n))
	childAcks := newAcks()
	childDone := make(chan struct{})
	go func() {
		for l := range lines {
			childAcks.add(l)
		}
		close(childDone)
	}()

	var wg sync.WaitGroup
	var mu sync.Mutex
	var conflictOK, conflictRefused int
	inProc := map[string]string{}
	var entries []string
	for w, s := range []*Store{s1, s2} {
		wg.Add(1)
		go func(w int, s *Store) {
			defer wg.Done()
			for i := 0; i < n; i++ {
				slug := fmt.Sprintf("w%d-%05d", w, i)
				entry := fmt.Sprintf("entry-w%d-%05d", w, i)
				res, err := s.ApplyBatch(e.ctx, Batch{Items: []Item{
					wr(slug, "t", "payload "+slug),
					{Op: OpAppendDaily, Text: entry},
				}})
				if err != nil || !res.Results[0].OK || !res.Results[1].OK {
					t.Errorf("writer %d item %d: %v %+v", w, i, err, res)
					return
				}
				mu.Lock()
				inProc[slug] = res.Results[0].ID
				entries = append(entries, entry)
				mu.Unlock()
			}
			// both writers try to update the shared memory from the same version: one wins.
			res, err := s.ApplyBatch(e.ctx, Batch{Items: []Item{{Op: OpUpdate, ID: shared.ID, Body: sp(fmt.Sprintf("winner %d", w)),
				Mode: "replace", ExpectedVersion: shared.Version}}})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			switch r := res.Results[0]; {
			case r.OK:
				conflictOK++
			case r.Code == CodeVersionConflict:
				conflictRefused++
			default:
				t.Errorf("competing update: %s", r.Code)
			}
			mu.Unlock()
		}(w, s)
	}
	wg.Wait()
	<-childDone
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v; stderr: %s", err, stderr)
	}
	if conflictOK != 1 || conflictRefused != 1 {
		t.Fatalf("competing updates: %d applied, %d refused; want exactly one of each", conflictOK, conflictRefused)
	}
	if len(childAcks.writes) != n || len(inProc) != 2*n {
		t.Fatalf("acks: child %d, in-process %d", len(childAcks.writes), len(inProc))
	}

	// every writer indexed what it wrote: a reconcile has nothing to add.
	rep, err := s1.Reconcile(e.ctx)
	if err != nil || rep.Added+rep.Updated+rep.Removed+rep.Problems != 0 {
		t.Fatalf("reconcile after concurrent writes found work: %+v %v", rep, err)
	}
	all := map[string]string{}
	for k, v := range inProc {
		all[k] = v
	}
	for k, v := range childAcks.writes {
		all[k] = v
	}
	for slug, id := range all {
		m, err := s2.Get(e.ctx, id)
		if err != nil || m.Slug != slug {
			t.Errorf("%s (%s) lost: %v", slug, id, err)
		}
	}
	if got := e.count(`SELECT COUNT(*) FROM memory_meta WHERE type <> 'daily'`); got != 3*n+1 {
		t.Fatalf("%d memories, want %d", got, 3*n+1)
	}
	// no journal entry was lost to a concurrent append.
	var journal strings.Builder
	list, _, _ := s1.List(e.ctx, Filter{Type: TypeDaily})
	for _, d := range list {
		journal.WriteString(d.Body)
	}
	for _, entry := range append(entries, childAcks.days...) {
		if !strings.Contains(journal.String(), entry) {
			t.Errorf("journal entry %s lost", entry)
		}
	}
	if len(childAcks.days) != n {
		t.Errorf("child journal acks %d", len(childAcks.days))
	}
	if ids := indexIDs(t, s1); len(ids) != len(verifyTree(t, e.s.Root())) {
		t.Fatalf("index %d ids vs files", len(ids))
	}
}
