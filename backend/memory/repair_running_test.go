package memory

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// A running process (the app, serve: its watcher holds a connection) whose index is damaged
// in place repairs it without a restart: the person's Reindex (or doctor) moves the damaged
// file aside and rebuilds from the files, every memory is found again and writes work.
func TestDamagedIndexRepairedWhileRunning(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(e.ctx)
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- e.s.Watch(ctx, ready) }()
	defer func() { cancel(); <-done }()
	<-ready
	fillAndCut(t, e, 120, 16384)
	if _, _, err := e.s.List(e.ctx, Filter{Limit: 500}); err == nil || !IsCorrupt(err) {
		t.Fatalf("a damaged index answered a list: %v", err)
	}
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatalf("reindex of a damaged index in a running process: %v", err)
	}
	if r := e.s.RepairedHere(); r == nil || r.Code != CodeIndexRecovered || r.MovedTo == "" {
		t.Fatalf("the repair is not reported: %+v", r)
	}
	ms, total, err := e.s.List(e.ctx, Filter{Limit: 500})
	if err != nil || total != 120 || len(ms) != 120 {
		t.Fatalf("after the repair: %d of %d, %v", len(ms), total, err)
	}
	e.ok(Item{Op: OpWrite, Scope: ScopeGlobal, Type: TypeReference, Slug: "after-repair", Title: sp("After"),
		Body: sp("written after the repair"), Confidence: ConfidenceLow})
	if got, err := e.s.Find(e.ctx, "lighthouses", Filter{Limit: 500}); err != nil || len(got.Items) == 0 {
		t.Fatalf("search after the repair: %d %v", len(got.Items), err)
	}
}

// In a running process the first call that meets the damage starts the repair (RepairSoon;
// the api does it for every call that fails so): without anyone running reindex, the index
// comes back whole. A process without a watcher (the CLI) leaves it to reindex and doctor.
func TestRunningProcessRepairsDamageByItself(t *testing.T) {
	e := newEnv(t)
	n := 0
	damage := func() error {
		fillAndCut(t, e, 0, 16384)
		_, _, err := e.s.List(e.ctx, Filter{Limit: 500})
		if !IsCorrupt(err) {
			t.Fatalf("a damaged index answered a list: %v", err)
		}
		return err
	}
	for ; n < 60; n++ {
		e.ok(Item{Op: OpWrite, Scope: ScopeGlobal, Type: TypeReference, Slug: fmt.Sprintf("note-%03d", n),
			Title: sp(fmt.Sprintf("Note %d", n)), Body: sp("about lighthouses"), Confidence: ConfidenceLow})
	}
	// No watcher: not this process's to do in the background.
	if err := damage(); e.s.RepairSoon(err) {
		t.Fatal("a process without a watcher started a background repair")
	}
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.ctx)
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- e.s.Watch(ctx, ready) }()
	defer func() { cancel(); <-done }()
	<-ready
	before := e.s.RepairedHere().MovedTo // the first repair's, by Reindex
	err := damage()
	if !e.s.RepairSoon(err) {
		t.Fatal("a running process did not start the repair")
	}
	if !e.s.RepairSoon(err) {
		t.Fatal("a second failing call is not told the repair is under way")
	}
	// The state the repair ends in: nothing under way, and the repair on record.
	for deadline := time.Now().Add(2 * time.Minute); e.s.repairing.Load() || e.s.RepairedHere().MovedTo == before; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the repair never ended")
		}
	}
	ms, total, err := e.s.List(e.ctx, Filter{Limit: 500})
	if err != nil || total != 60 || len(ms) != 60 {
		t.Fatalf("after the repair: %d of %d, %v", len(ms), total, err)
	}
}
