package api

import (
	"context"
	"sync"
	"sync/atomic"

	"engram/backend/graph"
	"engram/backend/i18n"
)

// gate holds back an api's calls until its services exist. The desktop window binds the
// services when Wails starts, and Wails starts while the store is still opening (NewPending):
// a call made before then waits, then runs, or answers the open error.
type gate struct {
	ready chan struct{} // closed once Open or Fail ran
	once  sync.Once
	err   error // the open error, set before ready closes
	// waiting counts the calls held back now (tests wait for them before opening).
	waiting atomic.Int32
}

// newGate is a gate already open (New: the services exist).
func newGate() *gate {
	g := &gate{ready: make(chan struct{})}
	g.once.Do(func() { close(g.ready) })
	return g
}

// NewPending builds the api for actor before its services exist: the bound service objects
// are there for the window to bind at once, and every call waits until Open (then runs) or
// Fail (then answers that error, translated into lang). The desktop app opens the store
// concurrently with the web view's start-up this way.
func NewPending(ctx context.Context, catalog *i18n.Catalog, lang, actor string) *API {
	a := New(ctx, Deps{Catalog: catalog}, actor)
	a.gate = &gate{ready: make(chan struct{})}
	a.lang = lang
	return a
}

// Open gives a pending api its services and lets the calls that wait go on. Only the first
// Open or Fail counts.
func (a *API) Open(deps Deps) {
	a.gate.once.Do(func() {
		if deps.Graph == nil && deps.Store != nil {
			deps.Graph = graph.New(deps.Store)
		}
		a.deps = deps
		close(a.gate.ready)
	})
}

// Fail tells a pending api its services could not be opened: every call, waiting or later,
// answers err (as a translated *Error). Only the first Open or Fail counts.
func (a *API) Fail(err error) {
	a.gate.once.Do(func() {
		a.gate.err = a.fail(err)
		close(a.gate.ready)
	})
}

// Wait blocks until the api's services are open and answers the open error, if any: the
// first step of every bound method (see NewPending), immediate for an api built by New.
func (a *API) Wait() error {
	select {
	case <-a.gate.ready:
	default:
		a.gate.waiting.Add(1)
		<-a.gate.ready
		a.gate.waiting.Add(-1)
	}
	return a.gate.err
}
