package hook_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/bridge"
	"engram/backend/extraction"
	"engram/backend/hook"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/settings"
)

// The hook against the real bridge of a running Engram on the same home: the bridge publishes
// bridge.json when it listens, the hook finds it, passes the token, Host and Origin checks and
// calls extraction.request; the file is gone once the bridge stops.
func TestHookReachesTheRealBridge(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	home := t.TempDir()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := memory.Open(ctx, home, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	set := settings.New(st, "en")
	hub := api.NewHub(st, set)
	ext := extraction.New(ctx, extraction.Options{Store: st, Planner: extraction.NewOffline(), Logger: quiet})
	defer ext.Close()
	bapi := api.New(ctx, api.Deps{Store: st, Catalog: cat, Settings: set, Events: hub, Extraction: ext}, memory.ActorBridge)
	srv, err := bridge.New(bridge.Config{Addr: "127.0.0.1:0", Home: home, Logger: quiet}, bapi, hub, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	d, err := hook.ReadDiscovery(home)
	if err != nil || d.PID != os.Getpid() || !strings.HasPrefix(d.URL, "http://127.0.0.1:") {
		t.Fatalf("bridge.json %+v %v", d, err)
	}
	if fi, _ := os.Stat(filepath.Join(home, hook.DiscoveryFile)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("bridge.json mode %v", fi.Mode())
	}
	transcript := filepath.Join(t.TempDir(), "t.jsonl")
	data, _ := os.ReadFile("../transcript/testdata/sample.jsonl")
	if err := os.WriteFile(transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	childOut := filepath.Join(t.TempDir(), "child.json")
	exe, _ := os.Executable()
	h := hook.New(hook.Options{Store: st, Home: home, Command: []string{exe, "extract", "-"},
		Env: []string{"HOOK_TEST_CHILD=" + childOut}, Logger: quiet})
	res, err := h.ClaudeCode(ctx, hook.Payload{SessionID: "s-real", TranscriptPath: transcript, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// The running process takes the turn: it is recorded in its session and a run starts.
	if res.Status != hook.StatusForwarded {
		t.Fatalf("the hook did not forward to the running bridge: %+v", res)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		runs, err := ext.Runs(ctx, extraction.RunsParams{Session: "s-real"})
		if err != nil {
			t.Fatal(err)
		}
		if len(runs.Runs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the forwarded turn never reached extraction")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if sess, err := bapi.Sessions.Read(api.SessionRef{ID: "s-real", Agent: "claude-code"}); err != nil || len(sess.Turns) == 0 {
		t.Fatalf("the forwarded turn is not in its session: %v %+v", err, sess)
	}
	sctx, c := context.WithTimeout(context.Background(), 3*time.Second)
	defer c()
	if err := srv.Stop(sctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, hook.DiscoveryFile)); !os.IsNotExist(err) {
		t.Fatalf("bridge.json left after Stop: %v", err)
	}
}
