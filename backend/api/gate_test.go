package api

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

// gateCall is one method's answer, or the panic it raised.
type gateCall struct {
	name  string
	res   any
	err   error
	panic any
}

// invoke runs m with params in a goroutine and sends what it answered to out.
func invoke(m Method, params any, out chan<- gateCall) {
	go func() {
		c := gateCall{name: m.Name}
		defer func() {
			c.panic = recover()
			out <- c
		}()
		c.res, c.err = m.Invoke(params)
	}()
}

// waitHeld blocks until n calls are held back at a's gate; a call that answers before the
// gate opened fails the test.
func waitHeld(t *testing.T, a *API, n int, out <-chan gateCall) {
	t.Helper()
	for int(a.gate.waiting.Load()) < n {
		select {
		case c := <-out:
			t.Fatalf("%s answered before the store was open (error %v, panic %v)", c.name, c.err, c.panic)
		default:
			runtime.Gosched()
		}
	}
}

func pendingCatalog(t *testing.T) *i18n.Catalog {
	t.Helper()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// Every bound method waits at the gate of a pending api: when the store fails to open, each
// one — held back before the failure or called after it — answers the open error, translated
// into the fresh home's language, and none touches the services that do not exist.
func TestPendingFailReachesEveryCall(t *testing.T) {
	a := NewPending(context.Background(), pendingCatalog(t), "zh-CN", ActorUser)
	methods := a.Methods()
	out := make(chan gateCall, len(methods))
	for _, m := range methods {
		invoke(m, m.Params(), out)
	}
	waitHeld(t, a, len(methods), out)
	a.Fail(errors.New("disk on fire"))
	a.Open(Deps{}) // too late: the failure stands
	check := func(c gateCall) {
		t.Helper()
		if c.panic != nil {
			t.Fatalf("%s panicked: %v", c.name, c.panic)
		}
		var ae *Error
		if !errors.As(c.err, &ae) {
			t.Fatalf("%s: want the open error as *Error, got %v", c.name, c.err)
		}
		if ae.Code != memory.CodeInternal || ae.I18nKey != "error.internal" || ae.Args["Detail"] != "disk on fire" ||
			!strings.Contains(ae.Message, "disk on fire") || strings.HasPrefix(ae.Message, "Something went wrong") {
			t.Fatalf("%s: want the open error translated into zh-CN, got %+v", c.name, ae)
		}
	}
	for range methods {
		check(<-out)
	}
	// Later calls do not wait: they answer the same error at once.
	for _, m := range methods {
		invoke(m, m.Params(), out)
		check(<-out)
	}
}

// Calls made before the store is open wait, then run against it and succeed.
func TestPendingCallsRunOnceOpen(t *testing.T) {
	ctx := context.Background()
	cat := pendingCatalog(t)
	a := NewPending(ctx, cat, "en", ActorUser)
	calls := map[string]any{
		"app.info":      &Empty{},
		"settings.get":  &Empty{},
		"memory.list":   &ListParams{},
		"quota.summary": &Empty{},
		"memory.write": &WriteParams{Scope: memory.ScopeGlobal, Type: memory.TypeUser, Slug: "tea-habit", Title: "Tea",
			Body: "The person drinks green tea."},
	}
	out := make(chan gateCall, len(calls))
	for name, params := range calls {
		invoke(*a.byName[name], params, out)
	}
	waitHeld(t, a, len(calls), out)
	st, err := memory.Open(ctx, t.TempDir(), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	set := settings.New(st, "en")
	a.Open(Deps{Store: st, Catalog: cat, Settings: set, Events: NewHub(st, set), Recall: recall.New(st, recall.Options{}), Version: "test"})
	a.Fail(errors.New("too late")) // ignored: the api is open
	for range calls {
		c := <-out
		if c.panic != nil || c.err != nil {
			t.Fatalf("%s: want success once open, got error %v, panic %v", c.name, c.err, c.panic)
		}
		if info, ok := c.res.(AppInfo); ok && info.Home != st.Home() {
			t.Fatalf("app.info: home %q, want %q", info.Home, st.Home())
		}
	}
	got, err := a.Memory.List(ListParams{})
	if err != nil || got.Total != 1 {
		t.Fatalf("after open: want the memory written while waiting, got %+v, %v", got, err)
	}
}
