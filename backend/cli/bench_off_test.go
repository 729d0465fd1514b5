//go:build !bench

package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
)

// TestBenchNeedsTheBenchBuild: a shipped binary answers every bench verb with the translated
// hint and exit code 1, without opening a home.
func TestBenchNeedsTheBenchBuild(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lang, want string }{
		{"en", "make bench"},
		{"zh-CN", "基准测试"},
	} {
		for _, args := range [][]string{{"bench", "store"}, {"bench", "locomo", "x.json", "--json"}, {"bench"}} {
			var out, errb bytes.Buffer
			env := Env{Stdout: &out, Stderr: &errb, Catalog: cat, Lang: c.lang,
				Open: func(context.Context) (*api.API, func() error, error) {
					t.Fatal("bench opened the home")
					return nil, nil, nil
				}}
			code := Run(context.Background(), args, env)
			if code != 1 || !strings.Contains(errb.String(), c.want) || strings.Contains(errb.String(), "cli.bench") || out.Len() != 0 {
				t.Errorf("%s %v: exit %d, stdout %q, stderr %q", c.lang, args, code, out.String(), errb.String())
			}
		}
	}
}
