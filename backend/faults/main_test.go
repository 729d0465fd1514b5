package faults

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/wire"
)

// TestMain runs the binary as a child when ENGRAM_FAULTS_CHILD names a role: a row of the kills
// table, or one of the extra roles below. A child prints one line per acknowledged operation,
// only after the service returned it as done.
func TestMain(m *testing.M) {
	if role := os.Getenv("ENGRAM_FAULTS_CHILD"); role != "" {
		os.Exit(runChild(role))
	}
	os.Exit(m.Run())
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// ack is one acknowledged operation as a child prints it: "ACK <json>".
type ack struct {
	Kind   string `json:"kind"` // mem | day | import | backup | org
	ID     string `json:"id,omitempty"`
	Marker string `json:"marker,omitempty"` // text the memory's body (or the journal) must hold
	Path   string `json:"path,omitempty"`   // backup archive
	N      int    `json:"n,omitempty"`
}

// child is the running child: the services of one home, as the engram binary builds them.
type child struct {
	ctx  context.Context
	home string
	svc  *wire.Services
	api  *api.API
	rng  *rand.Rand
	mu   sync.Mutex
}

func (c *child) print(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(os.Stdout, line+"\n"); err != nil {
		os.Exit(6) // the parent is gone
	}
}

// ack prints a; the parent counts it only once the line is read.
func (c *child) ack(a ack) {
	b, _ := json.Marshal(a)
	c.print("ACK " + string(b))
}

// phase tells the parent the child reached a point worth killing after.
func (c *child) phase(name string) { c.print("PHASE " + name) }

// extraRoles are children that are not rows of the kills table.
var extraRoles = map[string]func(c *child) error{}

func runChild(role string) int {
	work := extraRoles[role]
	for _, sc := range killScenarios {
		if sc.name == role {
			work = sc.work
		}
	}
	if work == nil {
		fmt.Fprintln(os.Stderr, "unknown role", role)
		return 2
	}
	home := os.Getenv("ENGRAM_FAULTS_HOME")
	cat, err := loadCatalog()
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalog:", err)
		return 3
	}
	ctx := context.Background()
	logger := quiet
	if os.Getenv("ENGRAM_FAULTS_DEBUG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	svc, err := wire.Open(ctx, wire.Options{Home: home, Lang: "en", Catalog: cat, Version: "faults", Logger: logger})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 3
	}
	seed := uint64(time.Now().UnixNano())
	c := &child{ctx: ctx, home: home, svc: svc, api: svc.API(ctx, memory.ActorUser), rng: rand.New(rand.NewPCG(seed, seed>>3))}
	if err := work(c); err != nil {
		fmt.Fprintln(os.Stderr, role+":", err)
		svc.Close()
		return 4
	}
	if err := svc.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "close:", err)
		return 5
	}
	return 0
}

// loadCatalog reads the locales from the module root, as the binary embeds them.
func loadCatalog() (*i18n.Catalog, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return i18n.Load(os.DirFS(filepath.Join(dir, "locales")))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, fmt.Errorf("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// proc is a started child: its lines arrive on lines, which closes with its stdout.
type proc struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *bytes.Buffer
}

func startChild(t *testing.T, role, home string, env ...string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ENGRAM_FAULTS_CHILD="+role, "ENGRAM_FAULTS_HOME="+home, "ENGRAM_LANG=en")
	cmd.Env = append(cmd.Env, env...)
	p := &proc{cmd: cmd, lines: make(chan string, 4096), stderr: &bytes.Buffer{}}
	cmd.Stderr = p.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	return p
}

// ledger holds every acknowledged operation of one home across its children.
type ledger struct {
	acks []ack
}

// take records a line; it returns the ack or phase it carried.
func (l *ledger) take(t *testing.T, line string) (a *ack, phase string) {
	switch {
	case strings.HasPrefix(line, "ACK "):
		var x ack
		if err := json.Unmarshal([]byte(line[4:]), &x); err != nil {
			t.Errorf("bad ack line %q: %v", line, err)
			return nil, ""
		}
		l.acks = append(l.acks, x)
		return &l.acks[len(l.acks)-1], ""
	case strings.HasPrefix(line, "PHASE "):
		return nil, line[6:]
	}
	return nil, ""
}

func (l *ledger) count(kind string) int {
	n := 0
	for _, a := range l.acks {
		if a.Kind == kind {
			n++
		}
	}
	return n
}

// drain reads what the child printed before it ended (acks printed before a kill count) and
// waits for it; it returns the child's error.
func (p *proc) drain(t *testing.T, l *ledger) error {
	for line := range p.lines {
		l.take(t, line)
	}
	return p.cmd.Wait()
}

// runToEnd runs a child to completion and fails the test when it does not end cleanly.
func runToEnd(t *testing.T, role, home string, l *ledger, env ...string) {
	t.Helper()
	p := startChild(t, role, home, env...)
	done := make(chan error, 1)
	go func() { done <- p.drain(t, l) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v; stderr: %s", role, err, p.stderr)
		}
	case <-time.After(2 * time.Minute):
		p.cmd.Process.Kill()
		t.Fatalf("%s hung; stderr: %s", role, p.stderr)
	}
}
