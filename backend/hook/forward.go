package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"engram/backend/extraction"
)

// MethodExtractionRequest is the api method the hook calls on a running bridge.
const MethodExtractionRequest = "extraction.request"

// rpcReply is the part of a JSON-RPC answer the hook reads.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
}

// errUnanswered wraps a failure after the call was sent: the bridge may well be running it.
var errUnanswered = errors.New("hook: the bridge took the call but did not answer")

// forwardToBridge hands req to the process that publishes a bridge in home, as one
// extraction.request call, and waits for its answer. A failure before the call left (no
// bridge published, a stale one) or a refusal is returned so the caller can run the
// extraction itself; a call sent and not answered in time wraps errUnanswered, since running
// it a second time would extract the turn twice.
func forwardToBridge(ctx context.Context, home string, req extraction.Request, alive func(int) bool) error {
	d, err := ReadDiscovery(home)
	if err != nil {
		return err
	}
	if alive != nil && !alive(d.PID) {
		return fmt.Errorf("hook: the bridge of pid %d is gone", d.PID)
	}
	tok, err := readToken(home)
	if err != nil {
		return err
	}
	wsURL := "ws://" + strings.TrimPrefix(strings.TrimSuffix(d.URL, "/"), "http://") + "/ws"
	conn, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": []string{"Bearer " + tok}},
	})
	if err != nil {
		return fmt.Errorf("hook: unable to reach the bridge at %s: %w", d.URL, err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	call, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": MethodExtractionRequest, "params": req})
	if err != nil {
		return err
	}
	if err := conn.Write(ctx, websocket.MessageText, call); err != nil {
		return fmt.Errorf("hook: unable to send to the bridge: %w", err)
	}
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return fmt.Errorf("%w: %v", errUnanswered, err)
		}
		var r rpcReply
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("hook: the bridge answered something else: %w", err)
		}
		if r.Method != "" || string(r.ID) != "1" {
			continue // an event notification pushed to every client
		}
		conn.Close(websocket.StatusNormalClosure, "")
		if r.Error != nil {
			msg := r.Error.Message
			if r.Error.Data != nil && r.Error.Data.Message != "" {
				msg = r.Error.Data.Code + ": " + r.Error.Data.Message
			}
			return fmt.Errorf("hook: the bridge refused %s: %s", MethodExtractionRequest, msg)
		}
		return nil
	}
}

// errNoCommand is returned when the detached fallback has nothing to run.
var errNoCommand = errors.New("hook: no command to run the extraction with")

// defaultTimeout bounds the whole hand-over to a bridge.
const defaultTimeout = 3 * time.Second
