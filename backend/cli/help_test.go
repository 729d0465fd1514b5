package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"engram/backend/api"
)

// Every verb describes its flags without opening the home: on a home that cannot be opened,
// `engram <verb> -h` prints the verb's usage and never the open's error (before, `engram
// write -h` on a home another build had migrated printed only that error).
func TestHelpNeedsNoHome(t *testing.T) {
	h := newHome(t)
	var names []string
	for _, v := range methodVerbs {
		names = append(names, v.name)
	}
	for _, c := range commands {
		if c.home {
			names = append(names, c.name)
		}
	}
	if len(names) < 20 {
		t.Fatalf("only %d verbs: are the tables read?", len(names))
	}
	for _, name := range names {
		for _, flag := range []string{"-h", "--help"} {
			var out, errb bytes.Buffer
			env := h.env(&out, &errb)
			opened := false
			env.Open = func(context.Context) (*api.API, func() error, error) {
				opened = true
				return nil, nil, errors.New("the home cannot be opened")
			}
			code := Run(context.Background(), []string{name, flag}, env)
			if opened || strings.Contains(errb.String(), "cannot be opened") {
				t.Errorf("engram %s %s opened the home: %s", name, flag, errb.String())
			}
			if code != 2 || !strings.Contains(errb.String(), "Usage of engram "+name) {
				t.Errorf("engram %s %s: exit %d, stderr %q", name, flag, code, errb.String())
			}
		}
	}
}
