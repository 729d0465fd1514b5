package mcp_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/mcp"
	"engram/backend/wire"
)

// stuckLines are a session's opening and enough calls that their answers (the tool list, some
// 15 KiB each) fill any pipe a client never reads.
func stuckLines() string {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"deaf","version":"1"}}}` + "\n")
	b.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i)
	}
	return b.String()
}

// A client that stops reading the server's output, then tells `engram mcp` to stop (SIGTERM,
// as clients do at shutdown), gets a process that ends: its answers were blocked on the full
// pipe, and the SDK's shutdown waited on those writes forever (SIGTERM and the closed input
// were both ignored; only SIGKILL ended it).
func TestStdioEndsWhenTheClientNeverReads(t *testing.T) {
	for _, tc := range []struct {
		name       string
		closeInput bool
	}{
		{"input open", false},
		{"input closed", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(binary, "mcp", "--agent", "tester")
			cmd.Env = append(os.Environ(), "ENGRAM_HOME="+t.TempDir(), "ENGRAM_LANG=en")
			var stderr syncBuffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.StdoutPipe() // never read
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := cmd.Process.Wait(); done <- err }() // leaves out open
			if _, err := io.WriteString(stdin, stuckLines()); err != nil {
				t.Fatal(err)
			}
			if tc.closeInput {
				_ = stdin.Close()
			}
			// The answers are being written into the full pipe once the server has read all
			// the lines; the signal is what a client sends when it shuts down.
			waitForStuckOutput(t, out.(*os.File))
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("engram mcp did not end after SIGTERM while its output was not read\nstderr: %s", stderr.String())
			}
		})
	}
}

// waitForStuckOutput waits until the process's stdout pipe holds 32 KiB of answers; the rest
// (some 600 KiB) cannot fit in it (a Linux pipe holds 64 KiB), so those writes block: out is
// the pipe's end the test holds and never reads.
func waitForStuckOutput(t *testing.T, out *os.File) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if n, err := unix.IoctlGetInt(int(out.Fd()), unix.TIOCINQ); err != nil {
			t.Fatal(err)
		} else if n >= 32<<10 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the server's output never filled its pipe")
}

// A session whose client closed its input and never reads its output ends once the drain time
// has passed, with the writes of its answers still blocked: the SDK waited on them forever.
func TestStdioSessionEndsWhenItsAnswersAreNeverRead(t *testing.T) {
	defer mcp.SetDrainTimeout(mcp.SetDrainTimeout(200 * time.Millisecond))
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	svc, err := wire.Open(ctx, wire.Options{Home: t.TempDir(), Lang: "en", Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv, err := mcp.New(svc.API(ctx, api.ActorTool), svc.Events, mcp.Config{Agent: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	inR, inW := io.Pipe()
	_, outW := io.Pipe() // nobody reads: every write blocks
	done := make(chan error, 1)
	go func() { done <- srv.RunStdio(ctx, inR, outW) }()
	if _, err := io.WriteString(inW, stuckLines()); err != nil {
		t.Fatal(err)
	}
	_ = inW.Close()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the session never ended: its answers' writes were waited on forever")
	}
}
