package extraction

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// turnsText is every message an Input holds, one after the other.
func turnsText(in Input) string {
	var b strings.Builder
	for _, m := range in.Turns {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

// TestSessionStateIsTheCallersOwn: observe_turn's session_id is the model's argument, and two
// agents (or one agent in two projects) may name the same one ("session-1"). The controller
// kept its per-session state — the run in flight, the turn waiting behind it, the interval and
// what was planned — under the id alone, so agent X's turn queued behind agent Y's run, took
// Y's waiting turn (from project B) into its own run and planned it into agent X's and project
// A's memories, and Y's turn was dropped as superseded. Each caller's session is now its own:
// a run of another agent or project neither holds the turn back nor lends it its messages.
func TestSessionStateIsTheCallersOwn(t *testing.T) {
	g := newGatePlanner()
	f := newFx(t, g)
	root := t.TempDir()
	projA, projB := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{projA, projB} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	req := func(agent, workdir string, users ...string) Request {
		r := turn("session-1", users...)
		r.Agent, r.Workdir = agent, workdir
		return r
	}
	secret := "The zebra vault code for project B is kept in the red binder."
	cases := []struct {
		name      string
		agent, wd string
	}{
		{"another agent", "agent-x", projA},
		{"the same agent in another project", "agent-y", projA},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opening := "Remember that project B ships on Tuesdays, always (" + c.name + ")."
			first, err := f.svc.Request(f.ctx, req("agent-y", projB, opening), false)
			if err != nil || first.Status != StatusRunning {
				t.Fatalf("first: %v %s", err, first.Status)
			}
			<-g.started
			waiting, _ := f.svc.Request(f.ctx, req("agent-y", projB, opening, secret), false)
			if waiting.Status != StatusQueued {
				t.Fatalf("waiting: %s %s", waiting.Status, waiting.Reason)
			}
			other, err := f.svc.Request(f.ctx, req(c.agent, c.wd, "Please remember that I like green tea in the morning ("+c.name+")."), false)
			if err != nil || other.Status != StatusRunning {
				t.Fatalf("%s's turn: %v %s %s, want it running at once", c.agent, err, other.Status, other.Reason)
			}
			in := <-g.started
			if strings.Contains(turnsText(in), "zebra") || in.Request.Agent != c.agent {
				t.Fatalf("%s's run planned from %q as %s", c.agent, turnsText(in), in.Request.Agent)
			}
			g.release <- struct{}{}
			g.release <- struct{}{}
			f.waitFor(first.ID, ended)
			f.waitFor(other.ID, ended)
			in = <-g.started
			if !strings.Contains(turnsText(in), "zebra") || in.Request.Agent != "agent-y" {
				t.Fatalf("agent-y's waiting turn planned from %q as %s", turnsText(in), in.Request.Agent)
			}
			g.release <- struct{}{}
			if d := f.waitFor(waiting.ID, ended); d.Reason == SkipSuperseded {
				t.Fatalf("agent-y's waiting turn was superseded by %s's", c.agent)
			}
			// The next case starts with no session in flight and past the interval.
			f.clock.Advance(time.Hour)
		})
	}
}

// TestDisposeIsTheAgentsOwn: deleting agent X's session "s1" (sessions are the agent's)
// cancelled the run of agent Y's session of the same id, whose turn was lost.
func TestDisposeIsTheAgentsOwn(t *testing.T) {
	g := newGatePlanner()
	f := newFx(t, g)
	req := turn("s1", "Remember that the staging server is called kelp.")
	req.Agent = "agent-y"
	d, _ := f.svc.Request(f.ctx, req, false)
	<-g.started
	f.svc.Dispose("agent-x", "s1")
	g.release <- struct{}{}
	if got := f.waitFor(d.ID, ended); got.Status == StatusFailed {
		t.Fatalf("agent-y's run ended %s %s when agent-x's session was deleted", got.Status, got.Reason)
	}
}
