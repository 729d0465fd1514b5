package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/wire"
)

// zhEnv is the Env of one command on this home whose settings speak Chinese.
func (h *home) zhEnv(out, errb *bytes.Buffer) Env {
	env := h.env(out, errb)
	env.Lang = "zh"
	env.Open = func(ctx context.Context) (*api.API, func() error, error) {
		svc, err := wire.Open(ctx, wire.Options{Home: h.dir, Lang: "zh", Catalog: h.cat, Passive: true})
		if err != nil {
			return nil, nil, err
		}
		return svc.API(ctx, api.ActorUser), svc.Close, nil
	}
	return env
}

// runZh runs one command in Chinese and returns what it printed.
func (h *home) runZh(args ...string) string {
	h.t.Helper()
	var out, errb bytes.Buffer
	Run(context.Background(), args, h.zhEnv(&out, &errb))
	return out.String() + errb.String()
}

// A memory written from the Chinese CLI said "置信度 low": the level is said in the person's
// language, as the app says it (the flag still takes high, medium, low).
func TestWrittenConfidenceInChinese(t *testing.T) {
	h := newHome(t)
	got := h.runZh("write", "--type", "user", "--slug", "likes-tea", "--title", "喜欢喝茶", "--body", "绿茶", "--confidence", "low")
	if !strings.Contains(got, "置信度 低") || strings.Contains(got, "置信度 low") {
		t.Fatalf("write in Chinese:\n%s", got)
	}
}
