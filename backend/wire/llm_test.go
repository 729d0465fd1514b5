package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/llm"
	"engram/backend/llm/keyring"
	"engram/backend/llm/llmtest"
	"engram/backend/settings"
)

const secretKey = "sk-proj-WIRE0123456789abcdefghijKEY"

// openWithCatalog opens the services; closeNow closes them early (the cleanup then skips it).
func openWithCatalog(t *testing.T, home string) (svc *Services, closeNow func()) {
	return openLogged(t, home, nil)
}

// openLogged is openWithCatalog with the services' log going to logs (at debug level).
func openLogged(t *testing.T, home string, logs *bytes.Buffer) (svc *Services, closeNow func()) {
	t.Helper()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Home: home, Lang: "en", Catalog: cat, Passive: true}
	if logs != nil {
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	svc, err = Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closeNow = func() { once.Do(func() { svc.Close() }) }
	t.Cleanup(closeNow)
	return svc, closeNow
}

func sp(s string) *string { return &s }

// TestLLMKeyLivesOnlyInItsFile: a key set through the api reaches the provider, shows only as
// key_set, and after a call (usage row), a memory write and an export, the only file in the
// home that holds it is llm.keys (0600); the services' log never shows it.
func TestLLMKeyLivesOnlyInItsFile(t *testing.T) {
	home := t.TempDir()
	var logs bytes.Buffer
	svc, closeNow := openLogged(t, home, &logs)
	ctx := context.Background()
	user := svc.API(ctx, api.ActorUser)
	srv := llmtest.NewOpenAI(t)

	// Not configured: status says so, test answers the coded error, usage is empty.
	st, err := user.LLM.Status(api.Empty{})
	if err != nil || st.Configured || st.Error == nil || st.Error.Code != llm.CodeNotConfigured {
		t.Fatalf("fresh status: %+v %v", st, err)
	}
	if res, err := user.LLM.Test(api.Empty{}); err != nil || res.OK || res.Error == nil || res.Error.Code != llm.CodeNotConfigured || res.Error.Message == "" {
		t.Fatalf("fresh test: %+v %v", res, err)
	}

	// srv listens on 127.0.0.1, a local endpoint: it would work without a key; the key set
	// below must still be sent, since one is filed for it.
	if _, err := user.Settings.Update(settings.Patch{LLM: &settings.LLMPatch{Provider: sp("openai"), BaseURL: sp(srv.URL()), Model: sp("gpt-4o-mini")}}); err != nil {
		t.Fatal(err)
	}
	if st, _ := user.LLM.Status(api.Empty{}); !st.Configured || st.KeySet || !st.Local || st.Model != "gpt-4o-mini" {
		t.Fatalf("configured status: %+v", st)
	}
	// Only the person sets keys.
	for _, actor := range []string{api.ActorBridge, "tool"} {
		_, err := svc.API(ctx, actor).LLM.SetKey(api.SetKeyParams{Key: secretKey})
		var ae *api.Error
		if !errors.As(err, &ae) || ae.Code != llm.CodeKeyDesktopOnly {
			t.Fatalf("%s set a key: %v", actor, err)
		}
	}
	st, err = user.LLM.SetKey(api.SetKeyParams{Key: secretKey})
	if err != nil || !st.KeySet || !st.Configured {
		t.Fatalf("set key: %+v %v", st, err)
	}
	raw, _ := json.Marshal(st)
	if bytes.Contains(raw, []byte(secretKey)) {
		t.Fatalf("status carries the key: %s", raw)
	}

	srv.Push(llmtest.Text("pong").WithUsage(12, 1))
	res, err := user.LLM.Test(api.Empty{})
	if err != nil || !res.OK || res.Reply != "pong" || res.Model != "gpt-4o-mini" {
		t.Fatalf("test connection: %+v %v", res, err)
	}
	if got := srv.Requests()[0].Auth(); got != "Bearer "+secretKey {
		t.Fatalf("provider got auth %q", got)
	}
	sum, err := user.Usage.Summary(api.UsageParams{Days: 7})
	if err != nil || sum.Total.Calls != 1 || sum.Total.InputTokens != 12 || len(sum.ByDay) != 7 ||
		len(sum.ByPurpose) != 1 || sum.ByPurpose[0].Key != llm.PurposeTest {
		t.Fatalf("usage: %+v %v", sum, err)
	}
	if _, err := user.Usage.Summary(api.UsageParams{Days: 400}); err == nil {
		t.Fatal("a 400-day range was accepted")
	}

	// A failing call's error never carries the key either.
	srv.Push(llmtest.Reply{Status: 401, ErrorMsg: "Incorrect API key provided: " + secretKey})
	res, _ = user.LLM.Test(api.Empty{})
	if res.OK || res.Error == nil || res.Error.Code != llm.CodeAuthFailed {
		t.Fatalf("auth failure: %+v", res)
	}
	raw, _ = json.Marshal(res)
	if bytes.Contains(raw, []byte(secretKey)) {
		t.Fatalf("test result carries the key: %s", raw)
	}

	if _, err := user.Memory.Write(api.WriteParams{Scope: api.ScopeGlobal, Type: api.TypeUser, Slug: "likes-tea",
		Title: "Likes tea", Body: "Drinks green tea"}); err != nil {
		t.Fatal(err)
	}
	exp, err := user.Memory.Export(api.ExportParams{Scope: api.ScopeGlobal})
	if err != nil || strings.Contains(exp.JSONL, secretKey) || exp.Count != 1 {
		t.Fatalf("export: %v count=%d", err, exp.Count)
	}
	// The index's WAL is folded in at close, so the scan sees everything written.
	closeNow()

	var holders []string
	err = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(secretKey)) {
			rel, _ := filepath.Rel(home, p)
			holders = append(holders, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(logs.Bytes(), []byte(secretKey)) {
		t.Fatalf("the key is in the log")
	}
	if len(holders) != 1 || holders[0] != keyring.File {
		t.Fatalf("the key is in %v, want only %s", holders, keyring.File)
	}
	fi, _ := os.Stat(filepath.Join(home, keyring.File))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s mode %v", keyring.File, fi.Mode())
	}
}

// TestLLMRebuiltWhenSettingsChange: the Source handed to services answers the current model
// after each settings change, and not-configured after the provider is turned off.
func TestLLMRebuiltWhenSettingsChange(t *testing.T) {
	svc, _ := openWithCatalog(t, t.TempDir())
	ctx := context.Background()
	src := svc.LLM.Source()
	if _, err := src(); llm.CodeOf(err) != llm.CodeNotConfigured {
		t.Fatalf("fresh source: %v", err)
	}
	a, b := llmtest.NewOpenAI(t), llmtest.NewAnthropic(t)
	for _, step := range []struct {
		provider, url, model string
		srv                  *llmtest.Server
	}{
		{"openai", a.URL(), "llama3.1", a},
		{"anthropic", b.URL(), "claude-haiku-4-5", b},
	} {
		if _, err := svc.Settings.Update(ctx, settings.Patch{LLM: &settings.LLMPatch{Provider: sp(step.provider), BaseURL: sp(step.url), Model: sp(step.model)}}); err != nil {
			t.Fatal(err)
		}
		c, err := src()
		if err != nil || c.Provider() != step.provider || c.Model() != step.model {
			t.Fatalf("after switching to %s: %v", step.provider, err)
		}
		step.srv.Push(llmtest.Text("hi"))
		if _, err := c.Complete(ctx, llm.Request{Purpose: llm.PurposeExtraction, Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}}); err != nil {
			t.Fatal(err)
		}
		if step.srv.Requests()[0].Auth() != "" {
			t.Fatal("a keyless local endpoint got a credential")
		}
	}
	// A public endpoint without a key is not configured.
	if _, err := svc.Settings.Update(ctx, settings.Patch{LLM: &settings.LLMPatch{Provider: sp("openai"), BaseURL: sp(""), Model: sp("gpt-4o")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := src(); llm.CodeOf(err) != llm.CodeNotConfigured {
		t.Fatalf("public endpoint without key: %v", err)
	}
	if _, err := svc.Settings.Update(ctx, settings.Patch{LLM: &settings.LLMPatch{Provider: sp("")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := src(); llm.CodeOf(err) != llm.CodeNotConfigured {
		t.Fatalf("provider off: %v", err)
	}
}

// TestDamagedKeyFileIsReportedNotQuoted: a key file that does not parse leaves the model
// unconfigured with a translated llm_key_store error that never quotes the file.
func TestDamagedKeyFileIsReportedNotQuoted(t *testing.T) {
	home := t.TempDir()
	svc, _ := openWithCatalog(t, home)
	ctx := context.Background()
	user := svc.API(ctx, api.ActorUser)
	if err := os.WriteFile(filepath.Join(home, keyring.File), []byte(`{"keys": {"https://api.openai.com/v1": sk-LEAKED`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := user.Settings.Update(settings.Patch{LLM: &settings.LLMPatch{Provider: sp("openai"), Model: sp("gpt-4o-mini")}}); err != nil {
		t.Fatal(err)
	}
	st, err := user.LLM.Status(api.Empty{})
	if err != nil || st.Configured || st.Error == nil || st.Error.Code != llm.CodeKeyStore || st.Error.Message == "" {
		t.Fatalf("status: %+v %v", st, err)
	}
	res, _ := user.LLM.Test(api.Empty{})
	raw, _ := json.Marshal([]any{st, res})
	if res.OK || res.Error == nil || res.Error.Code != llm.CodeKeyStore || bytes.Contains(raw, []byte("LEAKED")) {
		t.Fatalf("test: %s", raw)
	}
	// A damaged file may hold other keys: setting one does not overwrite it, the person fixes
	// or removes the file (the error names it).
	if st, err := user.LLM.SetKey(api.SetKeyParams{Key: "sk-new-0123456789"}); err == nil || !strings.Contains(err.Error(), keyring.File) {
		t.Fatalf("a damaged file was overwritten without being read: %+v", st)
	}
}
