package bridge

import (
	"encoding/json"

	"engram/backend/api"
	"engram/backend/bridge/jsonrpc"
)

// JSON-RPC 2.0 error codes (package jsonrpc, which also decodes the messages). Application
// failures use -32000 with the api.Error as data, so browsers translate them like the desktop.
const (
	rpcParseError     = jsonrpc.ParseError
	rpcInvalidRequest = jsonrpc.InvalidRequest
	rpcMethodNotFound = jsonrpc.MethodNotFound
	rpcInvalidParams  = jsonrpc.InvalidParams
	rpcInternal       = jsonrpc.Internal
	rpcAppError       = jsonrpc.AppError
	rpcRateLimited    = jsonrpc.RateLimited
)

type rpcRequest = jsonrpc.Request

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

func nullID(id json.RawMessage) json.RawMessage { return jsonrpc.NullID(id) }

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
