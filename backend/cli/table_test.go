package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"reflect"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
)

// TestMethodVerbsAreTableMethods: every one-method verb names a method of the api table and
// builds exactly that method's params; no verb is in both tables or twice in one.
func TestMethodVerbsAreTableMethods(t *testing.T) {
	a := api.New(context.Background(), api.Deps{}, api.ActorUser)
	seen := map[string]bool{}
	for _, v := range methodVerbs {
		m, ok := a.Lookup(v.method)
		if !ok {
			t.Errorf("verb %s names %s, which is not in the api table", v.name, v.method)
			continue
		}
		if got := reflect.TypeOf(m.Params()); got != v.params {
			t.Errorf("verb %s builds %v, %s takes %v", v.name, v.params, v.method, got)
		}
		if seen[v.name] {
			t.Errorf("verb %s twice", v.name)
		}
		seen[v.name] = true
	}
	for _, c := range commands {
		if seen[c.name] {
			t.Errorf("%s is in both tables", c.name)
		}
		seen[c.name] = true
	}
	// A params type that does not match the method is refused, not panicked on.
	if _, err := a.Invoke("memory.read", &api.ListParams{}); err == nil {
		t.Fatal("memory.read ran with list params")
	}
}

// TestBenchVerbReadsTheCommandLine: with the harness handed in, bench reads its command line
// into one BenchRequest; bad sizes, a missing FILE or an unknown benchmark exit 1 without
// running anything, and the harness's own failure exits 1 too. No home is opened.
func TestBenchVerbReadsTheCommandLine(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want *BenchRequest
	}{
		{[]string{"bench", "store", "--sizes", "10, 20", "--json"}, 0, &BenchRequest{What: "store", Sizes: []int{10, 20}, JSON: true}},
		{[]string{"bench", "recall"}, 0, &BenchRequest{What: "recall", Sizes: []int{10000, 100000}}},
		{[]string{"bench", "bridge", "--json"}, 0, &BenchRequest{What: "bridge", Sizes: nil, JSON: true}},
		{[]string{"bench", "locomo", "dev.json"}, 0, &BenchRequest{What: "locomo", File: "dev.json"}},
		{[]string{"bench", "locomo", "fail.json"}, 1, &BenchRequest{What: "locomo", File: "fail.json"}},
		{[]string{"bench", "store", "--sizes", "x"}, 1, nil},
		{[]string{"bench", "locomo"}, 1, nil},
		{[]string{"bench", "nope"}, 1, nil},
		{[]string{"bench"}, 1, nil},
	}
	for _, c := range cases {
		var got *BenchRequest
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Catalog: cat, Lang: "en",
			Bench: func(_ context.Context, req BenchRequest) error {
				req.Stdout, req.Stderr = nil, nil
				got = &req
				if req.File == "fail.json" {
					return errors.New("bench: unable to read fail.json")
				}
				return nil
			},
			Open: func(context.Context) (*api.API, func() error, error) {
				t.Fatal("bench opened the home")
				return nil, nil, nil
			}}
		code := Run(context.Background(), c.args, env)
		if code != c.code || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: exit %d request %+v, want %d %+v (stderr %q)", c.args, code, got, c.code, c.want, errb.String())
		}
		if code != 0 && errb.Len() == 0 {
			t.Errorf("%v: failed without a word", c.args)
		}
	}
}

// TestBriefVerbs: the collector is deferred (Env.Brief) only for verbs that make one short call
// and exit — never for one that reads every memory or runs on — and every brief verb exists.
func TestBriefVerbs(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range briefVerbs {
		if _, ok := lookup(name); !ok {
			t.Errorf("brief verb %q is not a verb", name)
		}
	}
	for _, c := range []struct {
		args  []string
		brief bool
	}{
		{[]string{"search", "tea"}, true},
		{[]string{"show", "tea"}, true},
		{[]string{"write", "--type", "user", "--title", "T", "--body", "B"}, true},
		{[]string{"reindex"}, false},
		{[]string{"export"}, false},
		{[]string{"doctor"}, false},
		{[]string{"import", "x.jsonl"}, false},
		{[]string{"version"}, false},
	} {
		called := false
		var out bytes.Buffer
		env := Env{Stdout: &out, Stderr: &out, Catalog: cat, Lang: "en", Brief: func() { called = true },
			Open: func(context.Context) (*api.API, func() error, error) {
				return nil, nil, errors.New("no home in this test")
			}}
		Run(context.Background(), c.args, env)
		if called != c.brief {
			t.Errorf("%v: collector deferred %v, want %v", c.args, called, c.brief)
		}
	}
}
