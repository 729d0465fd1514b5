// Package jsonrpc is the bridge's reading of JSON-RPC 2.0 messages from the websocket before any
// method runs: splitting a batch, decoding a request, refusing what the protocol does not allow
// (an id that is an object or a list, a missing method, another version) with the code and the
// error key the bridge answers with. It is a leaf (standard library only) so the decoding of
// every byte a browser sends can be fuzzed without linking the services.
package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
)

// JSON-RPC 2.0 error codes. Application failures use AppError with the api error as data.
const (
	ParseError     = -32700
	InvalidRequest = -32600
	MethodNotFound = -32601
	InvalidParams  = -32602
	Internal       = -32603
	AppError       = -32000
	RateLimited    = -32029
)

// Error keys of the refusals (translated as "error.<key>").
const (
	KeyParseError     = "bridge_parse_error"
	KeyInvalidRequest = "bridge_invalid_request"
	// KeyRequestField: valid JSON whose field (Field) has the wrong type ("method": 5).
	KeyRequestField = "bridge_request_field"
	KeyBatchEmpty   = "bridge_batch_empty"
	// KeyBatchTooLarge: Count calls in one batch, at most Max.
	KeyBatchTooLarge = "bridge_batch_too_large"
)

// Request is one call; ID is empty for a notification (no answer).
type Request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// Problem is a message or batch item refused before any method runs: the JSON-RPC code, the
// error key and its arguments, and the id to answer to (nil: none can be trusted, answered
// with null).
type Problem struct {
	Code int
	Key  string
	Args map[string]any
	ID   json.RawMessage
}

// Split reads one websocket message: the items of a batch (batch true), or the message itself.
// A batch that is not a JSON list, is empty or holds more than maxBatch items is a Problem for
// the whole message.
func Split(data []byte, maxBatch int) (items []json.RawMessage, batch bool, p *Problem) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return []json.RawMessage{trimmed}, false, nil
	}
	if err := json.Unmarshal(trimmed, &items); err != nil {
		return nil, true, decodeProblem(err)
	}
	if len(items) == 0 {
		return nil, true, &Problem{Code: InvalidRequest, Key: KeyBatchEmpty}
	}
	if len(items) > maxBatch {
		return nil, true, &Problem{Code: InvalidRequest, Key: KeyBatchTooLarge, Args: map[string]any{"Max": maxBatch, "Count": len(items)}}
	}
	return items, true, nil
}

// decodeProblem is the refusal of a message encoding/json could not read. Its own words are
// English ("invalid character 'x' looking for beginning of value") and were the whole reason a
// person reading Chinese was given: what is said is where (a byte offset) or which field.
// Valid JSON that is not a request object ([1,2], "method": 5) is an invalid request, as
// JSON-RPC 2.0 says, not a parse error.
func decodeProblem(err error) *Problem {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return &Problem{Code: ParseError, Key: KeyParseError, Args: map[string]any{"Offset": syn.Offset}}
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		return &Problem{Code: InvalidRequest, Key: KeyRequestField, Args: map[string]any{"Field": typ.Field}}
	}
	return &Problem{Code: InvalidRequest, Key: KeyInvalidRequest}
}

// Decode reads one request. It is refused when it is not a JSON object of a request, when its
// id is not a string, a number or null (never echoed back), or when it is not version 2.0
// with a method (answered to its id).
func Decode(item []byte) (Request, *Problem) {
	var req Request
	if err := json.Unmarshal(item, &req); err != nil {
		p := decodeProblem(err)
		if p.Key == KeyRequestField {
			p.ID = idOfObject(item) // the id may still be read (ValidID below is not reached)
		}
		return Request{}, p
	}
	if !ValidID(req.ID) {
		return Request{}, &Problem{Code: InvalidRequest, Key: KeyInvalidRequest}
	}
	if req.JSONRPC != "2.0" || req.Method == "" {
		return Request{}, &Problem{Code: InvalidRequest, Key: KeyInvalidRequest, ID: req.ID}
	}
	return req, nil
}

// ValidID accepts what JSON-RPC 2.0 allows as an id: a string, a number, null, or none (a
// notification). Anything else is never echoed: a client's object or array would come back
// verbatim in every error reply.
func ValidID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return true
	}
	switch c := id[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	}
	return string(id) == "null"
}

// NullID is the id an answer carries: null when the request had none.
func NullID(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

// idOfObject is the id of a request object whose other fields did not decode, when it is one
// JSON-RPC allows (else nil: answered with null).
func idOfObject(item []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(item, &probe) != nil || len(probe.ID) == 0 || !ValidID(probe.ID) {
		return nil
	}
	return probe.ID
}
