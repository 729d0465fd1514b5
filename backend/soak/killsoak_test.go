//go:build linux || darwin

package soak_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"engram/backend/memory"
)

// The SIGKILL soak (issue 8): the real engram-cli, killed with SIGKILL (to its whole process
// group) at random moments while it writes through the CLI, imports a JSONL file, or serves
// JSON-RPC writes over the bridge's websocket. After every kill the home is reopened (doctor)
// and checked: every acknowledged write is on disk with the acknowledged content and in the
// index, no file is torn, doctor is ok, and no .tmp-* file is left.
//
// An acknowledged write is one the caller was told succeeded: the CLI exited 0 and printed its
// result, or serve answered the JSON-RPC call with ok.
//
// ENGRAM_SOAK_KILLS sets the number of kills (default 15, the `make test` size; `make fuzz`
// runs 120). ENGRAM_SOAK_SEED replays a run (the seed is printed first).

const (
	homeRounds   = 10 // a fresh home every this many rounds keeps reopen and doctor quick
	cliWorkers   = 2
	serveWindow  = 32 // JSON-RPC calls in flight on the websocket
	agentsPerImp = 12 // ≤ 334 memories an agent: well below the per-scope quota of 500
)

// expected is what an acknowledged memory must look like.
type expected struct {
	kind  string // cli, import, serve
	path  string // relative to the memory root
	id    string // empty for import (it prints counts only)
	agent string
	slug  string
	title string
	body  string
	// alt is the body of an update sent but never answered: the kill may have landed after
	// its rename, so either body is correct.
	alt string
}

type stats struct {
	kills        map[string]int
	acked        map[string]int
	missedKills  int // the process finished before the kill landed (its writes were acked)
	lost         int
	indexLost    int
	torn         int
	tmpAtKill    int
	tmpAfterOpen int
	doctorNotOK  int
	tmpSwept     int
}

type soak struct {
	t      *testing.T
	bin    string
	rng    *rand.Rand
	long   bool
	home   string
	root   string
	homes  int
	mu     sync.Mutex
	mems   map[string]*expected // agent/slug → expected
	days   []string             // acknowledged journal entries
	st     stats
	round  int
	kindOf string
}

func TestKillSoak(t *testing.T) {
	target := 15
	if v := os.Getenv("ENGRAM_SOAK_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("ENGRAM_SOAK_KILLS=%q: want a positive number", v)
		}
		target = n
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("ENGRAM_SOAK_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("ENGRAM_SOAK_SEED=%q: %v", v, err)
		}
		seed = n
	}
	t.Logf("soak: seed %d (replay with ENGRAM_SOAK_SEED=%d), %d kills", seed, seed, target)
	s := &soak{t: t, bin: buildCLI(t), rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), long: target > 30,
		st: stats{kills: map[string]int{}, acked: map[string]int{}}}
	kinds := []string{"cli", "import", "serve"}
	for total := 0; total < target; s.round++ {
		if s.round%homeRounds == 0 {
			s.newHome()
		}
		// The kind with the fewest kills so far goes next (a CLI round kills cliWorkers).
		s.kindOf = kinds[0]
		for _, k := range kinds[1:] {
			if s.st.kills[k] < s.st.kills[s.kindOf] {
				s.kindOf = k
			}
		}
		var n int
		switch s.kindOf {
		case "cli":
			n = s.cliRound()
		case "import":
			n = s.importRound()
		case "serve":
			n = s.serveRound()
		}
		s.st.kills[s.kindOf] += n
		total += n
		s.verify()
		t.Logf("soak round %d (%s): %d kills, %d in all; %d memories and %d journal entries acknowledged in this home",
			s.round, s.kindOf, n, total, len(s.mems), len(s.days))
		if t.Failed() && !s.long {
			break // the first failing round says enough in short mode
		}
	}
	st := s.st
	summary := fmt.Sprintf("soak summary: seed=%d kills=%d (cli %d, import %d, serve %d) rounds=%d homes=%d "+
		"acked=%d (cli %d, import %d, serve %d, journal %d) missed_kills=%d lost=%d index_lost=%d torn=%d "+
		"tmp_at_kill=%d tmp_swept_by_open=%d tmp_left_after_reopen=%d doctor_not_ok=%d",
		seed, st.kills["cli"]+st.kills["import"]+st.kills["serve"], st.kills["cli"], st.kills["import"], st.kills["serve"],
		s.round, s.homes, st.acked["cli"]+st.acked["import"]+st.acked["serve"]+st.acked["journal"],
		st.acked["cli"], st.acked["import"], st.acked["serve"], st.acked["journal"], st.missedKills,
		st.lost, st.indexLost, st.torn, st.tmpAtKill, st.tmpSwept, st.tmpAfterOpen, st.doctorNotOK)
	t.Log(summary)
	if testing.Verbose() {
		fmt.Println(summary)
	}
	if st.lost+st.indexLost+st.torn+st.tmpAfterOpen+st.doctorNotOK > 0 {
		t.Errorf("the soak found damage (see above)")
	}
	if st.acked["cli"] == 0 || st.acked["serve"] == 0 {
		t.Errorf("too few acknowledged writes to mean anything: %v", st.acked)
	}
}

// buildCLI builds the GTK-free binary from the module root, as `make cli` does.
func buildCLI(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("soak: go.mod not found above the test's folder")
		}
		dir = parent
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	bin := filepath.Join(t.TempDir(), "engram-cli")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soak: building engram-cli: %v\n%s", err, out)
	}
	return bin
}

func (s *soak) newHome() {
	s.homes++
	s.home = filepath.Join(s.t.TempDir(), "home")
	s.root = filepath.Join(s.home, "memory")
	s.mems = map[string]*expected{}
	s.days = nil
}

// ---------------------------------------------------------------- processes

type proc struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr bytes.Buffer
	done   chan struct{}
	err    error
}

func (s *soak) command(args ...string) *exec.Cmd {
	cmd := exec.Command(s.bin, args...)
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+s.home, "ENGRAM_LANG=en")
	// Its own process group, so that the kill reaches anything it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

func (s *soak) start(args ...string) *proc {
	p := &proc{cmd: s.command(args...), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil { // called from worker goroutines: no Fatal
		s.t.Errorf("soak: start %v: %v", args, err)
		p.err = err
		close(p.done)
		return p
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	return p
}

// killGroup sends SIGKILL to the process group p leads.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// killed reports whether the process ended by SIGKILL (the soak's, nothing else sends one).
func killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// waitOrKill waits for p; after delay it kills p's group. It returns whether the kill ended p.
// A hung process fails the soak instead of hanging it.
func (s *soak) waitOrKill(p *proc, delay time.Duration) bool {
	select {
	case <-p.done:
		return false
	case <-time.After(delay):
		killGroup(p.cmd)
	}
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		s.t.Errorf("soak: process did not end a minute after SIGKILL")
		<-p.done
	}
	return killed(p.err)
}

// run runs one CLI command to completion (the checks after a kill).
func (s *soak) run(args ...string) (stdout []byte, err error) {
	p := s.start(args...)
	select {
	case <-p.done:
	case <-time.After(3 * time.Minute):
		killGroup(p.cmd)
		<-p.done
		return p.stdout.Bytes(), fmt.Errorf("%v hung; stderr: %s", args, p.stderr.String())
	}
	if p.err != nil {
		return p.stdout.Bytes(), fmt.Errorf("%v: %v; stderr: %s", args, p.err, p.stderr.String())
	}
	return p.stdout.Bytes(), nil
}

// ---------------------------------------------------------------- CLI writes

type itemResult struct {
	OK   bool   `json:"ok"`
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Path string `json:"path"`
}

// cliOp is one CLI write or journal append and what acknowledges it.
type cliOp struct {
	args  []string
	mem   *expected
	entry string
}

func (s *soak) cliOp(rng *rand.Rand, worker, n int) cliOp {
	tag := fmt.Sprintf("r%03d-w%d-n%03d", s.round, worker, n)
	if rng.IntN(5) == 0 {
		entry := "soak-day-" + tag + "-end"
		return cliOp{args: []string{"daily", "append", "--json", entry}, entry: entry}
	}
	agent := fmt.Sprintf("cli-r%03d-w%d", s.round, worker)
	slug := "cli-" + tag
	body := fmt.Sprintf("cli body %s %s", tag, strings.Repeat("c", rng.IntN(6000)))
	title := "CLI " + tag
	return cliOp{
		args: []string{"write", "--json", "--scope", "agent", "--agent", agent, "--type", "reference",
			"--slug", slug, "--title", title, "--body", body},
		mem: &expected{kind: "cli", agent: agent, slug: slug, title: title, body: body},
	}
}

// ack records op as acknowledged when p exited 0 and printed an ok result.
func (s *soak) ackCLI(op cliOp, p *proc) {
	if p.err != nil {
		return
	}
	var r itemResult
	if err := json.Unmarshal(p.stdout.Bytes(), &r); err != nil || !r.OK {
		s.t.Errorf("soak: %v exited 0 without an ok result: %s %v", op.args[:2], p.stdout.String(), err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if op.entry != "" {
		s.days = append(s.days, op.entry)
		s.st.acked["journal"]++
		return
	}
	op.mem.id, op.mem.path = r.ID, r.Path
	s.mems[op.mem.agent+"/"+op.mem.slug] = op.mem
	s.st.acked["cli"]++
}

// cliRound: cliWorkers writers each run a few CLI writes to completion, then one more that is
// SIGKILLed at a random moment (opening, reconciling, writing or printing).
func (s *soak) cliRound() int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	kills := 0
	for w := 0; w < cliWorkers; w++ {
		rng := rand.New(rand.NewPCG(s.rng.Uint64(), s.rng.Uint64()))
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			n := 0
			for i := rng.IntN(5); i > 0; i-- {
				op := s.cliOp(rng, w, n)
				n++
				p := s.start(op.args...)
				<-p.done
				if p.err != nil {
					s.t.Errorf("soak: %v failed: %v; stderr: %s", op.args[:2], p.err, p.stderr.String())
				}
				s.ackCLI(op, p)
			}
			for attempt := 0; attempt < 8; attempt++ {
				op := s.cliOp(rng, w, n)
				n++
				p := s.start(op.args...)
				if s.waitOrKill(p, time.Duration(rng.IntN(400>>min(attempt, 3)))*time.Millisecond) {
					mu.Lock()
					kills++
					mu.Unlock()
					return
				}
				if p.err != nil && !killed(p.err) {
					s.t.Errorf("soak: %v failed: %v; stderr: %s", op.args[:2], p.err, p.stderr.String())
				}
				s.ackCLI(op, p)
				mu.Lock()
				s.st.missedKills++
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	return kills
}

// ---------------------------------------------------------------- import

type importRecord struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	Scope string `json:"scope"`
	Agent string `json:"agent"`
	Type  string `json:"type"`
	Body  string `json:"body"`
}

// importFile writes a JSONL file of n memories spread over agentsPerImp agents.
func (s *soak) importFile(tag string, n int) (string, []*expected) {
	var buf bytes.Buffer
	var mems []*expected
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := 0; i < n; i++ {
		lt := fmt.Sprintf("%s-l%04d", tag, i)
		rec := importRecord{Slug: "imp-" + lt, Title: "Import " + lt, Scope: "agent", Type: "reference",
			Agent: fmt.Sprintf("imp-%s-a%d", tag, i%agentsPerImp),
			Body:  fmt.Sprintf("import body %s %s", lt, strings.Repeat("i", s.rng.IntN(3000)))}
		if err := enc.Encode(rec); err != nil {
			s.t.Fatal(err)
		}
		mems = append(mems, &expected{kind: "import", agent: rec.Agent, slug: rec.Slug, title: rec.Title, body: rec.Body,
			path: filepath.Join("agents", rec.Agent, "reference", rec.Slug+".md")})
	}
	file := filepath.Join(s.t.TempDir(), "import.jsonl")
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return file, mems
}

// ackImport records a finished import's memories; false when it did not finish cleanly.
func (s *soak) ackImport(p *proc, mems []*expected) bool {
	if p.err != nil {
		s.t.Errorf("soak: import failed: %v; stderr: %s", p.err, p.stderr.String())
		return false
	}
	want := fmt.Sprintf("Imported %d memories", len(mems))
	if !strings.Contains(p.stdout.String(), want) {
		s.t.Errorf("soak: import exited 0 but printed %q, want %q", p.stdout.String(), want)
		return false
	}
	for _, m := range mems {
		s.mems[m.agent+"/"+m.slug] = m
	}
	s.st.acked["import"] += len(mems)
	return true
}

// importRound imports a multi-thousand-line JSONL file and kills the import at a random
// moment; an import that finishes first is acknowledged whole, and another one is killed.
// Each round first runs a small import to the end, so that finished imports are checked
// across later kills too.
func (s *soak) importRound() int {
	n := 100 + s.rng.IntN(300)
	if !s.long {
		n = 30 + s.rng.IntN(70)
	}
	file, mems := s.importFile(fmt.Sprintf("r%03d-small", s.round), n)
	p := s.start("import", file)
	<-p.done
	s.ackImport(p, mems)
	for attempt := 0; attempt < 6; attempt++ {
		lines := 2000 + s.rng.IntN(2000)
		if attempt > 0 {
			lines = 3000
		}
		file, mems := s.importFile(fmt.Sprintf("r%03d-t%d", s.round, attempt), lines)
		p := s.start("import", file)
		// About 4 ms a line on a busy machine: most kills land mid-import, some in its open.
		// The short mode kills within 1.5 s, early in the import.
		window := lines * 4 >> min(attempt, 2)
		if !s.long {
			window = 1500 >> min(attempt, 2)
		}
		delay := time.Duration(s.rng.IntN(window)) * time.Millisecond
		if s.waitOrKill(p, delay) {
			return 1
		}
		if !s.ackImport(p, mems) {
			return 0
		}
		s.st.missedKills++
	}
	return 0
}

// ---------------------------------------------------------------- serve

var urlRE = regexp.MustCompile(`http://(\S+)/#token=([0-9A-Za-z%._~-]+)`)

type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// rpcCall is one request in flight and what its ok answer acknowledges.
type rpcCall struct {
	method string
	mem    *expected // write: the memory; update: the memory whose body changes
	body   string    // update: the new body
	entry  string    // daily.append
}

// serveRound starts `engram serve`, opens a websocket, pipelines writes, updates and journal
// appends with serveWindow calls in flight, and SIGKILLs the server at a random moment.
func (s *soak) serveRound() int {
	cmd := s.command("serve", "--addr", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	done := make(chan error, 1)
	urlc := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := urlRE.FindStringSubmatch(sc.Text()); m != nil {
				urlc <- m
			}
		}
	}()
	go func() { done <- cmd.Wait() }()
	var m []string
	select {
	case m = <-urlc:
	case err := <-done:
		s.t.Fatalf("soak: serve exited before printing its URL: %v; stderr: %s", err, stderr.String())
	case <-time.After(2 * time.Minute):
		killGroup(cmd)
		s.t.Fatalf("soak: serve printed no URL; stderr: %s", stderr.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	token := m[2]
	if u, err := urlUnescape(token); err == nil {
		token = u
	}
	c, _, err := websocket.Dial(ctx, "ws://"+m[1]+"/ws?token="+token, nil)
	if err != nil {
		killGroup(cmd)
		<-done
		s.t.Fatalf("soak: websocket: %v", err)
	}
	c.SetReadLimit(8 << 20)
	defer c.CloseNow()

	rng := rand.New(rand.NewPCG(s.rng.Uint64(), s.rng.Uint64()))
	delay := time.Duration(s.rng.IntN(1500)) * time.Millisecond
	var (
		mu       sync.Mutex
		inflight = map[string]rpcCall{}
		acked    []*expected // this round's acknowledged writes not yet updated
		slots    = make(chan struct{}, serveWindow)
	)
	readerDone := make(chan struct{})
	go func() { // the reader: acknowledges ok answers
		defer close(readerDone)
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var r rpcResponse
			if json.Unmarshal(data, &r) != nil || r.Method == "event" || len(r.ID) == 0 {
				continue
			}
			id := string(r.ID)
			mu.Lock()
			call, ok := inflight[id]
			delete(inflight, id)
			mu.Unlock()
			if !ok {
				continue
			}
			<-slots
			var res itemResult
			if len(r.Error) != 0 || json.Unmarshal(r.Result, &res) != nil || !res.OK {
				continue // refused (rate limit, quota): not acknowledged, nothing to check
			}
			s.mu.Lock()
			switch call.method {
			case "memory.write":
				call.mem.id, call.mem.path = res.ID, res.Path
				s.mems[call.mem.agent+"/"+call.mem.slug] = call.mem
				s.st.acked["serve"]++
				mu.Lock()
				acked = append(acked, call.mem)
				mu.Unlock()
			case "memory.update":
				call.mem.body, call.mem.alt = call.body, ""
				s.st.acked["serve"]++
			case "daily.append":
				s.days = append(s.days, call.entry)
				s.st.acked["journal"]++
			}
			s.mu.Unlock()
		}
	}()

	// Writes stop at the kill: a write blocked by backpressure must not hold the kill back.
	killCtx, stopKill := context.WithTimeout(ctx, delay)
	defer stopKill()
	n := 0
send:
	for {
		select {
		case slots <- struct{}{}:
		case <-killCtx.Done():
			break send
		}
		n++
		tag := fmt.Sprintf("r%03d-n%04d", s.round, n)
		var call rpcCall
		var params any
		mu.Lock()
		var target *expected
		if len(acked) > 0 && rng.IntN(6) == 0 {
			i := rng.IntN(len(acked))
			target = acked[i]
			acked = append(acked[:i], acked[i+1:]...) // one update per memory: no two race
		}
		mu.Unlock()
		switch {
		case target != nil:
			body := fmt.Sprintf("serve update %s %s", tag, strings.Repeat("u", rng.IntN(4000)))
			s.mu.Lock()
			target.alt = body // until answered, either body is right
			s.mu.Unlock()
			call = rpcCall{method: "memory.update", mem: target, body: body}
			params = map[string]any{"id": target.id, "body": body, "mode": "replace"}
		case rng.IntN(6) == 0:
			entry := "soak-day-" + tag + "-end"
			call = rpcCall{method: "daily.append", entry: entry}
			params = map[string]any{"text": entry}
		default:
			agent := fmt.Sprintf("srv-r%03d-a%d", s.round, n%6)
			mem := &expected{kind: "serve", agent: agent, slug: "srv-" + tag, title: "Serve " + tag,
				body: fmt.Sprintf("serve body %s %s", tag, strings.Repeat("s", rng.IntN(6000)))}
			call = rpcCall{method: "memory.write", mem: mem}
			params = map[string]any{"scope": "agent", "agent": agent, "type": "reference", "slug": mem.slug,
				"title": mem.title, "body": mem.body}
		}
		id := strconv.Itoa(n)
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": n, "method": call.method, "params": params})
		mu.Lock()
		inflight[id] = call
		mu.Unlock()
		if err := c.Write(killCtx, websocket.MessageText, msg); err != nil {
			break
		}
	}
	killGroup(cmd)
	var werr error
	select {
	case werr = <-done:
	case <-time.After(time.Minute):
		s.t.Fatalf("soak: serve did not end after SIGKILL")
	}
	<-readerDone // the answers read before the kill still count
	if !killed(werr) {
		s.t.Errorf("soak: serve ended on its own (%v); stderr: %s", werr, stderr.String())
		return 0
	}
	return 1
}

func urlUnescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", err
			}
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}

// ---------------------------------------------------------------- checks after a kill

// walk parses every memory and journal file the store owns and counts .tmp-* files anywhere
// under the memory root (the organizer's .snapshots included). It returns the parsed files.
func (s *soak) walk(stage string) (files map[string]*memory.Memory, tmps []string, torn int) {
	files = map[string]*memory.Memory{}
	_ = filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(s.root, p)
		name := d.Name()
		if d.IsDir() {
			if p != s.root && strings.HasPrefix(name, ".") && name != ".snapshots" && name != ".archive" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(name, ".tmp-") {
			tmps = append(tmps, rel)
			return nil
		}
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(rel, ".snapshots") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			s.t.Errorf("soak round %d (%s, %s): %s: %v", s.round, s.kindOf, stage, rel, err)
			torn++
			return nil
		}
		m, err := memory.Parse(data)
		if err != nil {
			s.t.Errorf("soak round %d (%s, %s): torn or unparsable file %s: %v", s.round, s.kindOf, stage, rel, err)
			torn++
			return nil
		}
		files[filepath.ToSlash(rel)] = m
		return nil
	})
	return files, tmps, torn
}

type doctorReport struct {
	OK        bool `json:"ok"`
	Problems  []struct{ Path, Code, Detail string }
	TempFiles struct {
		Count int      `json:"count"`
		Paths []string `json:"paths"`
	} `json:"temp_files"`
	Integrity string `json:"integrity"`
}

func (s *soak) verify() {
	t := s.t
	// 1. the files as the kill left them.
	_, tmps, torn := s.walk("at kill")
	s.st.tmpAtKill += len(tmps)
	s.st.torn += torn

	// 2. reopen: doctor reconciles, sweeps temp files and checks the index against the files.
	out, err := s.run("doctor", "--json")
	var doc doctorReport
	if jerr := json.Unmarshal(out, &doc); jerr != nil || err != nil || !doc.OK {
		s.st.doctorNotOK++
		t.Errorf("soak round %d (%s): doctor not ok after the kill: %v %v\n%s", s.round, s.kindOf, err, jerr, out)
	}
	s.st.tmpSwept += doc.TempFiles.Count

	// 3. after the reopen: no temp file, no torn file, every acknowledged write as acknowledged.
	files, tmps, torn := s.walk("after reopen")
	s.st.torn += torn
	s.st.tmpAfterOpen += len(tmps)
	for _, p := range tmps {
		t.Errorf("soak round %d (%s): temp file left after reopen: %s", s.round, s.kindOf, p)
	}
	for key, m := range s.mems {
		f, ok := files[filepath.ToSlash(m.path)]
		switch {
		case !ok:
			s.st.lost++
			t.Errorf("soak round %d (%s): acknowledged %s write %s (%s) is missing", s.round, s.kindOf, m.kind, key, m.path)
		case (m.id != "" && f.ID != m.id) || f.Title != m.title || !sameBody(f.Body, m.body, m.alt):
			s.st.lost++
			t.Errorf("soak round %d (%s): acknowledged %s write %s differs: id %s/%s title %q/%q body %.60q/%.60q",
				s.round, s.kindOf, m.kind, key, f.ID, m.id, f.Title, m.title, f.Body, m.body)
		}
	}
	var journal strings.Builder
	for rel, f := range files {
		if strings.HasPrefix(rel, "daily/") {
			journal.WriteString(f.Body)
			journal.WriteByte('\n')
		}
	}
	for _, e := range s.days {
		if !strings.Contains(journal.String(), e) {
			s.st.lost++
			t.Errorf("soak round %d (%s): acknowledged journal entry %s is missing", s.round, s.kindOf, e)
		}
	}

	// 4. the index: every acknowledged memory is exported (export reads the index).
	exp, err := s.run("export")
	if err != nil {
		t.Errorf("soak round %d (%s): export after the kill: %v", s.round, s.kindOf, err)
		return
	}
	indexed := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(exp))
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		var r struct{ Agent, Slug, Body string }
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			indexed[r.Agent+"/"+r.Slug] = r.Body
		}
	}
	for key, m := range s.mems {
		body, ok := indexed[key]
		if !ok || !sameBody(body, m.body, m.alt) {
			s.st.indexLost++
			t.Errorf("soak round %d (%s): acknowledged %s write %s not in the index as acknowledged (present %v)", s.round, s.kindOf, m.kind, key, ok)
		}
	}
}

func sameBody(got, want, alt string) bool {
	g := strings.TrimSpace(got)
	return g == strings.TrimSpace(want) || (alt != "" && g == strings.TrimSpace(alt))
}
