package bridge

import (
	"encoding/json"

	"engram/backend/api"
)

// JSON-RPC 2.0 error codes. Application failures use -32000 with the api.Error as data, so
// browsers translate them like the desktop does.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	rpcInternal       = -32603
	rpcAppError       = -32000
	rpcRateLimited    = -32029
)

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type rpcError struct {
	Code    int        `json:"code"`
	Message string     `json:"message"`
	Data    *api.Error `json:"data,omitempty"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcNotification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// eventParams is what an "event" notification carries.
type eventParams struct {
	Name string `json:"name"`
	Data any    `json:"data"`
}

func nullID(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

// rpcCodeFor maps an api error to the JSON-RPC code a generic client understands.
func rpcCodeFor(e *api.Error) int {
	switch e.Code {
	case api.CodeUnknownMethod:
		return rpcMethodNotFound
	case api.CodeInvalidParams, api.CodeWorkdirMissing, api.CodeAgentMissing:
		return rpcInvalidParams
	}
	return rpcAppError
}
