package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// protocolWords answers in the person's language, with the catalog code in data.code as every
// other refusal, the protocol errors the SDK words in English and without a code: a call to a
// tool this server does not have ("unknown tool"), a resource that is not there or not the
// caller's ("Resource not found"), and any prompt (this server has none: "unknown prompt").
func (s *Server) protocolWords(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		switch r := req.(type) {
		case *sdk.CallToolRequest:
			name := ""
			if r.Params != nil {
				name = r.Params.Name
			}
			if _, ok := s.schemas[name]; !ok {
				return nil, s.protocolError(rpcInvalidParams, "mcp_unknown_tool", map[string]any{"Tool": cutEcho(name, maxEcho),
					"Tools": strings.Join(s.toolNames(), ", ")})
			}
		case *sdk.GetPromptRequest:
			name := ""
			if r.Params != nil {
				name = r.Params.Name
			}
			return nil, s.protocolError(rpcInvalidParams, "mcp_unknown_prompt", map[string]any{"Prompt": cutEcho(name, maxEcho)})
		}
		res, err := next(ctx, method, req)
		if uri, ok := missingResource(err); ok {
			return nil, s.resourceNotFound(uri)
		}
		if badListCursor(req, err) {
			// The SDK's "invalid params" for a cursor it did not hand out.
			return nil, s.protocolError(rpcInvalidParams, codeInvalidCursor, map[string]any{"Tool": method})
		}
		return res, err
	}
}

// badListCursor reports whether err is the SDK's refusal of a tools/list, prompts/list or
// resources/templates/list cursor (resources/list is this server's own).
func badListCursor(req sdk.Request, err error) bool {
	var je *jsonrpc.Error
	if err == nil || !errors.As(err, &je) || je.Code != rpcInvalidParams || len(je.Data) > 0 {
		return false
	}
	switch r := req.(type) {
	case *sdk.ListToolsRequest:
		return r.Params != nil && r.Params.Cursor != ""
	case *sdk.ListPromptsRequest:
		return r.Params != nil && r.Params.Cursor != ""
	case *sdk.ListResourceTemplatesRequest:
		return r.Params != nil && r.Params.Cursor != ""
	}
	return false
}

// missingResource reports whether err is the SDK's "Resource not found" (which names the
// address in its data, and no catalog code), and the address.
func missingResource(err error) (string, bool) {
	var je *jsonrpc.Error
	if err == nil || !errors.As(err, &je) || je.Code != sdk.CodeResourceNotFound {
		return "", false
	}
	var data struct {
		URI  *string `json:"uri"`
		Code string  `json:"code"`
	}
	if json.Unmarshal(je.Data, &data) != nil || data.URI == nil || data.Code != "" {
		return "", false
	}
	return *data.URI, true
}

// resourceNotFound is a read (or subscription) of a resource that is not there, or not the
// caller's: the same answer, so that an id leaks nothing.
func (s *Server) resourceNotFound(uri string) *jsonrpc.Error {
	const key = "mcp_resource_not_found"
	uri = cutEcho(uri, maxEcho)
	data, _ := json.Marshal(map[string]any{"code": key, "uri": uri})
	return &jsonrpc.Error{Code: sdk.CodeResourceNotFound, Message: s.api.Error(key, map[string]any{"URI": uri}).Message, Data: data}
}

// toolNames are the names of this server's tools, sorted.
func (s *Server) toolNames() []string {
	out := make([]string, 0, len(s.schemas))
	for name := range s.schemas {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
