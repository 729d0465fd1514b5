package cli

import (
	"bytes"
	"context"
	"encoding/json"
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
	names := verbNames(true)
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
			if code != 2 || !strings.Contains(errb.String(), "Flags of engram "+name) {
				t.Errorf("engram %s %s: exit %d, stderr %q", name, flag, code, errb.String())
			}
		}
	}
}

// Every flag of every verb has its description in the catalog, in both languages (the Go text
// beside a flag is only what a missing key would show), and so do serve's and mcp's.
func TestEveryFlagIsInTheCatalog(t *testing.T) {
	h := newHome(t)
	names := verbNames(false)
	seen := 0
	for _, name := range names {
		var out, errb bytes.Buffer
		env := h.env(&out, &errb)
		Run(context.Background(), []string{name, "-h"}, env)
		for _, line := range strings.Split(errb.String(), "\n") {
			flagName, ok := strings.CutPrefix(line, "  -")
			if !ok {
				continue
			}
			flagName, _, _ = strings.Cut(flagName, " ")
			flagName = strings.TrimSpace(flagName)
			seen++
			if k := (FlagText{Catalog: h.cat, Lang: "en", Verb: name}).key(flagName); k == "" {
				t.Errorf("engram %s -%s has no description in the catalog (cli.flag.%s.%s or cli.flag.%s)", name, flagName, name, flagName, flagName)
			}
		}
	}
	for _, extra := range []struct{ verb, flag string }{{"serve", "addr"}, {"serve", "allow-remote"}, {"mcp", "agent"}, {"mcp", "workdir"}, {"mcp", "max-tokens"}} {
		if (FlagText{Catalog: h.cat, Verb: extra.verb}).key(extra.flag) == "" {
			t.Errorf("engram %s -%s has no description in the catalog", extra.verb, extra.flag)
		}
	}
	if seen < 50 {
		t.Fatalf("only %d flags listed: is -h printing the flags?", seen)
	}
}

// The flag package's own mistakes are told in the person's language, with the way to the
// verb's flags.
func TestFlagMistakesAreTranslated(t *testing.T) {
	h := newHome(t)
	for _, tc := range []struct {
		args   []string
		en, zh string
	}{
		{[]string{"quota", "--bogus"}, "engram quota has no flag -bogus. Run engram quota -h for its flags.", "engram quota 没有参数 -bogus。运行 engram quota -h 查看它的参数。"},
		{[]string{"list", "--limit", "x"}, "“x” is not a valid value for -limit.", "“x”不是 -limit 的有效值。"},
		{[]string{"search", "foo", "--limit"}, "The flag -limit needs a value.", "参数 -limit 需要一个值。"},
		{[]string{"list", "--archived=maybe"}, "“maybe” is not a valid value for -archived.", "“maybe”不是 -archived 的有效值。"},
	} {
		for _, lang := range []string{"en", "zh-CN"} {
			// The home's language wins over the environment's once the home is open.
			setLanguage(t, h, lang)
			var out, errb bytes.Buffer
			env := h.env(&out, &errb)
			code := Run(context.Background(), tc.args, env)
			want := tc.en
			if lang == "zh-CN" {
				want = tc.zh
			}
			if code != 2 || !strings.Contains(errb.String(), want) || strings.Contains(errb.String(), "flag provided") {
				t.Errorf("%s %v: exit %d, %q; want %q", lang, tc.args, code, errb.String(), want)
			}
		}
	}
}

func setLanguage(t *testing.T, h *home, lang string) {
	t.Helper()
	var out, errb bytes.Buffer
	a, closeFn, err := h.env(&out, &errb).Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"`+lang+`"}`)); err != nil {
		t.Fatal(err)
	}
}

// verbNames lists the CLI's verbs from its two tables; homeOnly keeps those that open a home.
func verbNames(homeOnly bool) []string {
	var names []string
	for _, v := range methodVerbs {
		names = append(names, v.name)
	}
	for _, c := range commands {
		if c.home || !homeOnly {
			names = append(names, c.name)
		}
	}
	return names
}
