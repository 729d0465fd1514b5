package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// A token replaced by another process (`engram bridge token --regenerate`) revoked the
// connections made with the old one only when some new client happened to connect: until
// then they kept calling every method and hearing every event. Each message, event and ping
// now checks the token: the old connection's next call is not run and it is closed, and one
// that only listens hears no event after the change.
func TestRegenerateFromAnotherProcessRevokesWithoutANewConnection(t *testing.T) {
	f := start(t, Config{})
	caller := f.mustDial(t)
	listener := f.mustDial(t)
	if _, err := RegenerateToken(f.srv.cfg.Home); err != nil { // what the CLI does, in its own process
		t.Fatal(err)
	}
	f.srv.tokenTick.Add(1) // what watchToken does every tokenCheckEvery: the next call looks
	// Nothing has connected since. The old connection's call is not run.
	msg := `{"jsonrpc":"2.0","id":1,"method":"memory.write","params":{"scope":"global","type":"user","slug":"after-revoke","title":"t","body":"b"}}`
	if err := caller.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	if err := readUntilClosed(caller); errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("the connection made with the old token still runs calls")
	}
	if n := countMemories(t, f.store); n != 0 {
		t.Fatalf("a revoked connection's write was run: %d memories", n)
	}
	// An event (a write by the person, in process) is not sent to the listener: it is closed.
	if _, err := f.srv.api.Call("memory.write", json.RawMessage(`{"scope":"global","type":"user","slug":"by-the-person","title":"t","body":"b"}`)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, data, err := listener.Read(ctx)
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatal("the listening connection made with the old token is still open")
		}
		if err != nil {
			break
		}
		if strings.Contains(string(data), "by-the-person") || strings.Contains(string(data), "memory.") {
			t.Fatalf("a revoked connection heard an event: %s", data)
		}
	}
}

// With nothing sent and no event, a quiet websocket and an MCP event stream (a GET on /mcp
// that stays open) opened with a token the CLI then replaced stayed open for good: the
// stream kept hearing the session's notifications. The token file is watched, and both end.
func TestRegenerateEndsQuietConnectionsAndMCPStreams(t *testing.T) {
	stream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
	})
	f := start(t, Config{MCP: stream, PingInterval: 20 * time.Millisecond, PongTimeout: time.Hour})
	quiet := f.mustDial(t)
	go func() { // a browser answers pings by itself
		for {
			if _, _, err := quiet.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // bounds a failure only
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.base+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+f.srv.Token())
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("opening the stream: %v %v", resp, err)
	}
	defer resp.Body.Close()
	waitFor(t, "the websocket registered", func() bool { return len(f.srv.Clients()) == 1 })

	if _, err := RegenerateToken(f.srv.cfg.Home); err != nil { // the CLI, in its own process
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("the MCP event stream opened with the old token is still open")
	}
	waitFor(t, "the quiet websocket closed", func() bool { return len(f.srv.Clients()) == 0 })
}
