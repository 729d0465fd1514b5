package faults

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killScenario is one row of the SIGKILL table: a child doing work on a home, killed at a
// random moment, rounds times over the same home, then the home checked (verifyHome).
//
// Adding a scenario is adding a row: name it, say what the home holds first (setup, run in
// this process), what the child does (work, printing an ack for each acknowledged operation
// and a phase line where killing gets interesting), when to kill, and any check beyond the
// common ones (after).
type killScenario struct {
	name string
	// setup prepares the home before the first child (memories to organize, a file to import).
	setup func(t *testing.T, h *home)
	// work runs in the child; it returns only when the work is done (most never are: killed).
	work func(c *child) error
	// afterPhase, when set, waits for that phase line before the random delay; otherwise the
	// kill waits for 1..maxAcks acknowledged operations of kind afterAck (default "mem").
	afterPhase string
	afterAck   string
	maxAcks    int
	// maxDelay bounds the random delay before the kill.
	maxDelay time.Duration
	rounds   int
	// merges: acknowledged memories may have been merged into others (the organizer), so a
	// memory is present when its marker is in some live memory.
	merges bool
	// after runs extra checks once the common ones passed.
	after func(t *testing.T, h *home)
}

// killScenarios: SIGKILL during writes, import, organizer apply, reindex, backup, a git
// commit (writes with git history on: each batch is a commit) and a sync to a folder remote.
var killScenarios = []killScenario{
	{name: "kill-write", work: workWrite, maxAcks: 20, maxDelay: 15 * time.Millisecond, rounds: 3},
	{name: "kill-import", setup: setupImport, work: workImport, afterPhase: "import", maxDelay: 400 * time.Millisecond,
		rounds: 3, after: afterImport},
	{name: "kill-organize", setup: setupOrganize, work: workOrganize, afterPhase: "apply", maxDelay: 2500 * time.Millisecond,
		rounds: 3, merges: true, after: afterOrganize},
	{name: "kill-reindex", setup: setupMany, work: workReindex, afterAck: "reindex", maxAcks: 1, maxDelay: 200 * time.Millisecond,
		rounds: 3},
	{name: "kill-backup", setup: setupMany, work: workBackup, afterAck: "backup", maxAcks: 2, maxDelay: 200 * time.Millisecond,
		rounds: 3, after: afterBackup},
	{name: "kill-git-commit", setup: setupGitHistory, work: workWrite, maxAcks: 20, maxDelay: 15 * time.Millisecond,
		rounds: 3, after: afterGitHistory},
	{name: "kill-git-sync", setup: setupGitSync, work: workSync, afterAck: "sync", maxAcks: 4, maxDelay: 30 * time.Millisecond,
		rounds: 4, after: afterGitSync},
}

// roundsFor is the row's rounds, times ENGRAM_FAULTS_ROUNDS for a longer soak.
func roundsFor(t *testing.T, sc killScenario) int {
	n := sc.rounds
	if v := os.Getenv("ENGRAM_FAULTS_ROUNDS"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			t.Fatalf("ENGRAM_FAULTS_ROUNDS=%q: want a positive number", v)
		}
		n *= k
	}
	return n
}

func TestKillScenarios(t *testing.T) {
	for _, sc := range killScenarios {
		t.Run(sc.name, func(t *testing.T) {
			h := newHome(t)
			if sc.setup != nil {
				sc.setup(t, h)
			}
			rounds := roundsFor(t, sc)
			killed := 0
			// A round whose work ended before the random delay did (a quiet, fast machine)
			// halves the delay for the next ones, and rounds go on (up to six more) until one
			// is killed mid-work: the kill must land inside the work on any machine.
			delay, ran := sc.maxDelay, 0
			for round := 0; round < rounds || killed == 0 && round < rounds+6; round++ {
				ran++
				if killRound(t, h, sc, round, delay) {
					killed++
				} else {
					delay /= 2
				}
				// the files as the kill left them: acked writes there, nothing torn.
				h.verifyFiles(t, sc.merges)
				if t.Failed() {
					return
				}
			}
			if killed == 0 {
				t.Fatalf("no round was killed mid-work (each ended on its own)")
			}
			t.Logf("%d rounds, %d killed mid-work; acks: %d memories, %d journal, %d other", ran, killed,
				h.l.count("mem"), h.l.count("day"), len(h.l.acks)-h.l.count("mem")-h.l.count("day"))
			h.verifyIndex(t, sc.merges)
			if sc.after != nil && !t.Failed() {
				sc.after(t, h)
			}
		})
	}
}

// killRound starts the row's child, kills it at a random moment and collects its acks. It
// reports whether the kill ended the child (it may have finished first).
func killRound(t *testing.T, h *home, sc killScenario, round int, maxDelay time.Duration) bool {
	p := startChild(t, sc.name, h.dir, fmt.Sprintf("ENGRAM_FAULTS_ROUND=%d", round))
	guard := time.After(2 * time.Minute)
	want := 1 + h.rng.IntN(max(sc.maxAcks, 1))
	got := 0
wait:
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				break wait // ended on its own
			}
			a, phase := h.l.take(t, line)
			if sc.afterPhase != "" && phase == sc.afterPhase {
				break wait
			}
			kind := sc.afterAck
			if kind == "" {
				kind = "mem"
			}
			if sc.afterPhase == "" && a != nil && a.Kind == kind {
				if got++; got >= want {
					break wait
				}
			}
		case <-guard:
			p.cmd.Process.Kill()
			p.drain(t, h.l)
			t.Fatalf("round %d: no progress in 2 minutes; stderr: %s", round, p.stderr)
		}
	}
	if maxDelay > 0 {
		time.Sleep(time.Duration(h.rng.Int64N(int64(maxDelay))))
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	err := p.drain(t, h.l)
	if os.Getenv("ENGRAM_FAULTS_DEBUG") != "" {
		t.Logf("round %d stderr: %s", round, p.stderr)
	}
	if err == nil {
		return false
	}
	if !strings.Contains(err.Error(), "killed") {
		t.Fatalf("round %d: child failed on its own: %v; stderr: %s", round, err, p.stderr)
	}
	return true
}
