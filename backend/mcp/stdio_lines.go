package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// deliver hands a message to Read; false when the connection closed first.
func (c *stdioConn) deliver(it readItem) bool {
	select {
	case c.incoming <- it:
		return true
	case <-c.closed:
		return false
	}
}

// readLoop reads the client's lines until the input ends, then drains.
func (c *stdioConn) readLoop() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			// line is the head of the message (oversize.go): its id is answered.
			c.refuse(&rpcRefusal{id: headID(line), code: rpcInvalidRequest, key: "mcp_rpc_too_large", args: map[string]any{"Max": maxLineBytes}})
		} else if !c.handleLine(line) {
			return
		}
		if err != nil {
			c.drain(err)
			return
		}
	}
}

// readLine reads one line without its end; tooLong reports one over maxLineBytes (skipped to
// its end, so the next line is read whole), and line is then its first headBytes.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, e := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLineBytes+2 {
				tooLong, line = true, bytes.Clone(line[:min(len(line), headBytes)])
			} else {
				line = append(line, chunk...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, e
	}
}

// handleLine checks one line and hands on what is well formed; false when the connection closed.
func (c *stdioConn) handleLine(line []byte) bool {
	line = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(line), bom))
	if len(line) == 0 {
		return true
	}
	if ref := tooDeep(line); ref != nil {
		c.refuse(ref)
		return true
	}
	switch {
	case !json.Valid(line):
		// Not one JSON value: broken JSON, data after the value, two values on one line.
		c.refuse(&rpcRefusal{code: rpcParseError, key: "mcp_rpc_parse_error"})
		return true
	case line[0] == '[':
		return c.handleBatch(line)
	}
	return c.handleOne(line, nil)
}

// refuse writes a refusal on its own line.
func (c *stdioConn) refuse(r *rpcRefusal) {
	if err := c.writeLine(c.s.reply(r)); err != nil {
		c.s.cfg.Logger.Warn("mcp: unable to answer a malformed message", "err", err)
	}
}

// handleOne checks one message and hands it on, or refuses it (into b when it is part of an
// accepted batch); false when the connection closed.
func (c *stdioConn) handleOne(raw []byte, b *batch) bool {
	in, ref := checkMessage(raw)
	if ref == nil {
		var closed bool
		if ref, closed = c.admit(in, b); closed {
			return false
		}
	}
	if ref == nil {
		return c.deliver(readItem{msg: in.msg})
	}
	if b != nil {
		c.mu.Lock()
		b.responses = append(b.responses, c.s.reply(ref))
		c.mu.Unlock()
	} else {
		c.refuse(ref)
	}
	return true
}

// admit checks a well-formed message against the session and records it: a call is refused
// before the session is initialized, or while its id is still in use; an initialize is refused
// in a batch (the spec forbids it). A call counts in its batch b (nil outside one). closed
// reports that the connection closed while a call waited for the initialize before it.
func (c *stdioConn) admit(in *inbound, b *batch) (ref *rpcRefusal, closed bool) {
	if in.call && in.method != "initialize" && in.method != "ping" {
		c.mu.Lock()
		wait := c.initWait
		c.mu.Unlock()
		if wait != nil {
			// A call piped right behind its initialize waits for the answer (the SDK serves an
			// initialize alone), then is judged by it.
			select {
			case <-wait:
			case <-c.closed:
				return nil, true
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case in.method == "": // the client's answer to one of the server's calls
		delete(c.outgoing, in.id)
		return nil, false
	case in.method == "notifications/cancelled":
		if id, ok := cancelledID(in.params); ok {
			if _, running := c.inflight[id]; running {
				c.cancelled[id] = true
			}
		}
		return nil, false
	case !in.call:
		return nil, false
	}
	if _, used := c.inflight[in.id]; used {
		return &rpcRefusal{code: rpcInvalidRequest, key: "mcp_rpc_id_in_use", args: map[string]any{"ID": in.idRaw}}, false
	}
	switch {
	case in.method == "initialize" && b != nil:
		return &rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_rpc_initialize_in_batch"}, false
	case in.method == "initialize":
		if !c.initOK && c.initWait == nil {
			c.initWait, c.initID = make(chan struct{}), in.id
			c.version = negotiate(requestedVersion(in.params))
		}
	case in.method != "ping" && !c.initOK:
		return &rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_not_initialized",
			args: map[string]any{"Method": in.method}}, false
	}
	c.inflight[in.id] = b
	if b != nil {
		b.pending++
	}
	return nil, false
}

// handleBatch serves a batch line: in a version with batches each element is checked and
// handed on, and the answers go back as one array; in a version without them every call in it
// is refused with its id (so the client's waiting calls end) and nothing runs.
func (c *stdioConn) handleBatch(line []byte) bool {
	var elems []json.RawMessage
	if json.Unmarshal(line, &elems) != nil || len(elems) == 0 {
		c.refuse(&rpcRefusal{code: rpcInvalidRequest, key: "mcp_rpc_batch_empty"})
		return true
	}
	c.mu.Lock()
	version := c.version
	c.mu.Unlock()
	if !batchAllowed(version) {
		c.writeAnswers(c.s.refuseBatch(elems, version))
		return true
	}
	b := &batch{}
	for _, e := range elems {
		if !c.handleOne(bytes.TrimSpace(e), b) {
			return false
		}
	}
	c.mu.Lock()
	b.sealed = true
	var flush []json.RawMessage
	if b.pending == 0 {
		flush = b.responses
	}
	c.mu.Unlock()
	c.writeAnswers(flush)
	return true
}

func (c *stdioConn) writeAnswers(responses []json.RawMessage) {
	if err := c.writeBatch(responses); err != nil {
		c.s.cfg.Logger.Warn("mcp: unable to answer a batch", "err", err)
	}
}

// refuseBatch answers a batch sent in a version without batches: each call with its id, each
// malformed element with its own error; one error with id null when it held neither.
func (s *Server) refuseBatch(elems []json.RawMessage, version string) []json.RawMessage {
	return s.refuseEach(elems, "mcp_rpc_batch_unsupported", map[string]any{"Version": version})
}

// refuseEach answers a batch none of which runs: each call with its id and the catalog's key,
// each malformed element with its own error; one error with id null when it held neither.
func (s *Server) refuseEach(elems []json.RawMessage, key string, args map[string]any) []json.RawMessage {
	unsupported := func(id any) *rpcRefusal {
		return &rpcRefusal{id: id, code: rpcInvalidRequest, key: key, args: args}
	}
	var out []json.RawMessage
	for _, e := range elems {
		in, ref := checkMessage(bytes.TrimSpace(e))
		if ref == nil && in.call {
			ref = unsupported(in.idRaw)
		}
		if ref != nil {
			out = append(out, s.reply(ref))
		}
	}
	if len(out) == 0 {
		out = append(out, s.reply(unsupported(nil)))
	}
	return out
}

// drain runs once the input has ended: the server's calls still waiting for the client fail
// at once (no answer can come), the client's calls already handed on are finished and
// answered (for at most drainTimeout), and only then does the SDK hear that the input ended.
func (c *stdioConn) drain(readErr error) {
	c.mu.Lock()
	c.eof = true
	waiting := make([]jsonrpc.ID, 0, len(c.outgoing))
	for id := range c.outgoing {
		waiting = append(waiting, id)
	}
	clear(c.outgoing)
	c.mu.Unlock()
	for _, id := range waiting {
		gone := &jsonrpc.Error{Code: rpcInternalError, Message: "mcp: the client's input ended before it answered"}
		if !c.deliver(readItem{msg: &jsonrpc.Response{ID: id, Error: gone}}) {
			return
		}
	}
	// The calls and their answers' writes get drainTimeout in all: a client that closed its
	// input and never reads its output must not keep the process alive.
	deadline := time.AfterFunc(drainTimeout, c.abandonOutput)
	go func() {
		<-c.closed
		deadline.Stop()
	}()
wait:
	for {
		c.mu.Lock()
		n := len(c.inflight)
		c.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-c.answered:
		case <-c.gone:
			c.s.cfg.Logger.Warn("mcp: the input ended and calls were still running; they are dropped", "calls", n)
			break wait
		case <-c.closed:
			return
		}
	}
	if errors.Is(readErr, io.EOF) {
		readErr = io.EOF
	}
	c.deliver(readItem{err: readErr})
}
