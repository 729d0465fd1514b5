package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The stdio transport is this server's own rather than the SDK's IOTransport, which ended the
// session at the first line it could not decode, and at the end of input dropped the answers
// of requests still running (their writes landed, unanswered). Here:
//   - each line is checked (rpccheck.go) and a bad one answered with its JSON-RPC error; the
//     session goes on;
//   - a call is handed on only once the session is initialized (a call piped right behind its
//     initialize waits for the answer), so "initialized" never races "initialize";
//   - at the end of input the calls already handed on are finished and answered (for at most
//     drainTimeout) before the SDK hears of it; a call the server is waiting on from the client
//     (roots/list) fails at once, since no answer can come;
//   - a cancelled call is not answered (notifications/cancelled: the spec says the receiver
//     SHOULD NOT respond);
//   - batches are served in the versions that have them (before 2025-06-18) and refused element
//     by element in the others.

// maxLineBytes bounds one line, as the SDK's transport does by default.
const maxLineBytes = 16 << 20

// drainTimeout bounds how long the calls already received may run, and their answers may wait
// to be read, after the input ends. A var so tests can shorten it (export_test.go).
var drainTimeout = 30 * time.Second

// errOutputAbandoned is a write given up on: the client stopped reading its output and the
// session is ending (its input ended drainTimeout ago, the process was told to stop, or the
// connection closed).
var errOutputAbandoned = errors.New("mcp: the client is not reading its output; the answer is dropped")

// stdioTransport connects the server to the client on the other end of in and out.
type stdioTransport struct {
	s   *Server
	in  io.ReadCloser
	out io.WriteCloser
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c := &stdioConn{s: t.s, in: t.in, out: t.out, incoming: make(chan readItem), closed: make(chan struct{}),
		answered: make(chan struct{}, 1), inflight: map[jsonrpc.ID]*batch{}, cancelled: map[jsonrpc.ID]bool{},
		outgoing: map[jsonrpc.ID]bool{}, writes: make(chan writeReq), gone: make(chan struct{})}
	go c.readLoop()
	go c.writeLoop()
	go func() {
		// Told to stop (SIGTERM, Ctrl-C): the SDK's Close waits for every call's answer to be
		// written, so answers a client does not read must be given up on, or it waits forever.
		select {
		case <-ctx.Done():
			c.abandonOutput()
		case <-c.closed:
		}
	}()
	return c, nil
}

// writeReq is one line for writeLoop, and where its result goes.
type writeReq struct {
	line []byte
	done chan error
}

type readItem struct {
	msg jsonrpc.Message
	err error
}

// stdioConn is one stdio session's connection (sdk.Connection).
type stdioConn struct {
	s   *Server
	in  io.ReadCloser
	out io.WriteCloser
	// writes carries lines to writeLoop, the only writer of out (one line at a time, from the
	// SDK and from the line checks); a write waits for it only until gone is closed.
	writes   chan writeReq
	gone     chan struct{}
	goneOnce sync.Once

	incoming  chan readItem // from readLoop to Read, in the order the lines came
	closed    chan struct{}
	closeOnce sync.Once
	answered  chan struct{} // poked when a call is answered (the drain waits on it)

	mu        sync.Mutex
	version   string                // the negotiated protocol version ("" before initialize)
	initWait  chan struct{}         // closed when the pending initialize is answered
	initID    jsonrpc.ID            // the pending initialize
	initOK    bool                  // an initialize was answered with a result
	inflight  map[jsonrpc.ID]*batch // calls handed on and not answered (batch nil outside one)
	cancelled map[jsonrpc.ID]bool   // calls the client cancelled: their answers are dropped
	outgoing  map[jsonrpc.ID]bool   // the server's calls waiting for the client's answer
	eof       bool
}

// batch collects the answers of one batch line, written as one array once all are in.
type batch struct {
	pending   int
	sealed    bool // every element has been handed on or refused
	responses []json.RawMessage
}

func (c *stdioConn) SessionID() string { return "" }

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case it := <-c.incoming:
		return it.msg, it.err
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		return c.answer(m)
	case *jsonrpc.Request:
		if m.IsCall() {
			c.mu.Lock()
			if c.eof {
				c.mu.Unlock()
				return &jsonrpc.Error{Code: rpcRejected, Message: "mcp: the client's input has ended; it cannot answer " + m.Method}
			}
			c.outgoing[m.ID] = true
			c.mu.Unlock()
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// answer writes the SDK's answer to a client's call: dropped when the client cancelled the
// call, kept for its batch's array when it came in one, written on its own otherwise.
func (c *stdioConn) answer(m *jsonrpc.Response) error {
	c.mu.Lock()
	b, tracked := c.inflight[m.ID]
	delete(c.inflight, m.ID)
	drop := c.cancelled[m.ID]
	delete(c.cancelled, m.ID)
	if c.initWait != nil && m.ID == c.initID {
		c.initOK = c.initOK || m.Error == nil
		close(c.initWait)
		c.initWait = nil
	}
	var flush []json.RawMessage
	if tracked && b != nil {
		if !drop {
			if data, err := encodeResponse(m); err == nil {
				b.responses = append(b.responses, data)
			}
		}
		b.pending--
		if b.sealed && b.pending == 0 {
			flush = b.responses
		}
	}
	c.mu.Unlock()
	select {
	case c.answered <- struct{}{}:
	default:
	}
	switch {
	case drop:
		return nil
	case tracked && b != nil:
		return c.writeBatch(flush)
	}
	data, err := encodeResponse(m)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// encodeResponse encodes an answer; one without an id (the SDK's answer to a call it could not
// attribute) gets id null rather than none.
func encodeResponse(m *jsonrpc.Response) (json.RawMessage, error) {
	if !m.ID.IsValid() {
		e := &replyError{Code: rpcInternalError, Message: "internal error"}
		var we *jsonrpc.Error
		if errors.As(m.Error, &we) {
			e = &replyError{Code: we.Code, Message: we.Message}
		} else if m.Error != nil {
			e.Message = m.Error.Error()
		}
		return encodeReply(nil, e), nil
	}
	return jsonrpc.EncodeMessage(m)
}

// writeLine writes one line to the client. A client that never reads its output (a full pipe)
// blocks the write; it is given up on once the output is abandoned, so the session can end
// instead of waiting on that write forever.
func (c *stdioConn) writeLine(data []byte) error {
	w := writeReq{line: append(append(make([]byte, 0, len(data)+1), data...), '\n'), done: make(chan error, 1)}
	select {
	case c.writes <- w:
	case <-c.gone:
		return errOutputAbandoned
	}
	select {
	case err := <-w.done:
		return err
	case <-c.gone:
		return errOutputAbandoned
	}
}

// writeLoop writes the lines in the order writeLine hands them over, until the output is
// abandoned (a write still blocked then is left to the process's end).
func (c *stdioConn) writeLoop() {
	for {
		select {
		case w := <-c.writes:
			_, err := c.out.Write(w.line)
			w.done <- err
		case <-c.gone:
			return
		}
	}
}

// abandonOutput gives up on the writes not done yet and any later one.
func (c *stdioConn) abandonOutput() {
	c.goneOnce.Do(func() { close(c.gone) })
}

// writeBatch writes a batch's answers as one array (nothing when it held only notifications).
func (c *stdioConn) writeBatch(responses []json.RawMessage) error {
	if len(responses) == 0 {
		return nil
	}
	data, err := json.Marshal(responses)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *stdioConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		c.abandonOutput()
		err = errors.Join(c.in.Close(), c.out.Close())
	})
	return err
}
