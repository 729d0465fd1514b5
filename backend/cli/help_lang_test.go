package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"engram/backend/api"
)

// What is said before the home is opened — help, a verb's flags, an unknown verb — is in the
// home's language (its settings row, read alone), not only ENGRAM_LANG/LANG's: before, a
// Chinese home answered `engram help` and `engram quota -h` in English while `engram quota
// -bogus` (said after the open) was Chinese. The home is never opened for it.
func TestHelpSpeaksTheHomesLanguage(t *testing.T) {
	h := newHome(t)
	run := func(home string, args ...string) (code int, out, errs string, opened bool) {
		var o, e bytes.Buffer
		env := h.env(&o, &e)
		env.Home = home
		env.Open = func(context.Context) (*api.API, func() error, error) {
			opened = true
			return nil, nil, errors.New("the home cannot be opened")
		}
		code = Run(context.Background(), args, env)
		return code, o.String(), e.String(), opened
	}
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		en, zh     string
		fromStderr bool
	}{
		{"help", []string{"help"}, 0, "a local-first memory hub", "面向 AI 智能体的本地优先记忆中心", false},
		{"no verb", []string{"--help"}, 0, "a local-first memory hub", "面向 AI 智能体的本地优先记忆中心", false},
		{"verb flags", []string{"quota", "-h"}, 2, "Flags of engram quota", "engram quota 的参数", true},
		{"unknown verb", []string{"frobnicate"}, 2, "Unknown command", "未知命令“frobnicate”", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A home without an index yet keeps the environment's language (English here).
			code, out, errs, opened := run(t.TempDir(), tc.args...)
			if got := map[bool]string{false: out, true: errs}[tc.fromStderr]; code != tc.code || !strings.Contains(got, tc.en) || opened {
				t.Fatalf("fresh home: exit %d opened %v, %q %q; want %q", code, opened, out, errs, tc.en)
			}
			setLanguage(t, h, "zh-CN")
			code, out, errs, opened = run(h.dir, tc.args...)
			if got := map[bool]string{false: out, true: errs}[tc.fromStderr]; code != tc.code || !strings.Contains(got, tc.zh) || opened {
				t.Fatalf("Chinese home: exit %d opened %v, %q %q; want %q", code, opened, out, errs, tc.zh)
			}
			setLanguage(t, h, "en")
			if _, out, errs, _ = run(h.dir, tc.args...); !strings.Contains(out+errs, tc.en) {
				t.Fatalf("English home: %q %q; want %q", out, errs, tc.en)
			}
		})
	}
}
