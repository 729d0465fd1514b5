package mcp

import (
	"bytes"
	"encoding/json"
)

// A message over the size limit is not read (stdio skips the rest of its line, HTTP stops
// reading the body), and was refused with id null, as JSON-RPC answers a message whose id
// cannot be read. But its id is usually readable: clients write "jsonrpc", "id" and "method"
// before the params that make it large. Over stdio a client waits for the answer to that id,
// and one answered only with id null waited until its own timeout (a kv_set of a large value,
// a memory_write of a pasted file). So the id is read from the head of the message kept for
// it, and the refusal answers it.

// headBytes is how much of an oversized message is kept to read its id from.
const headBytes = 64 << 10

// headID is the id of the call whose message begins with head (cut anywhere): the top-level
// "id", when it is a valid id and the top-level "method" also comes before the cut; nil
// otherwise (a response, a batch, an id after the cut: answered with id null as before).
func headID(head []byte) any {
	head = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(head), bom))
	if len(head) == 0 || head[0] != '{' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil
	}
	var id any
	method := false
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			break
		}
		switch key {
		case "id":
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return nil
			}
			if v, bad := readID(raw, true); bad == "" {
				id = v
			}
		case "method":
			var m string
			if dec.Decode(&m) != nil {
				return nil
			}
			method = m != ""
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				// The cut is inside this value: what follows is not there.
				if method {
					return id
				}
				return nil
			}
		}
		if method && id != nil {
			return id
		}
	}
	return nil
}

// maxDepth is how deeply a message may nest objects and lists: the SDK's decoder refuses more
// (go-sdk's internal/json), and a message it refused was answered "a JSON-RPC message is an
// object with \"jsonrpc\" …" — true of it, and no help — or, past encoding/json's own limit,
// "this is not one JSON value".
const maxDepth = 1000

// jsonDepth is the deepest nesting of objects and lists in b, read outside strings as the
// SDK's decoder reads it; it stops counting once past limit.
func jsonDepth(b []byte, limit int) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case (c == '}' || c == ']') && depth > 0:
			depth--
		}
	}
	return deepest
}

// tooDeep is the refusal of a message nested deeper than maxDepth, answering its id when its
// head shows it, or nil.
func tooDeep(msg []byte) *rpcRefusal {
	if jsonDepth(msg, maxDepth) <= maxDepth {
		return nil
	}
	return &rpcRefusal{id: headID(msg[:min(len(msg), headBytes)]), code: rpcInvalidRequest, key: "mcp_rpc_too_deep",
		args: map[string]any{"Max": maxDepth}}
}
