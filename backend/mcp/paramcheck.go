package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
)

// A call's params of the wrong shape reached the SDK, which answered in English with Go's
// decoder in the message ("handling 'tools/call': invalid params: unmarshaling \"5\" into a
// *mcp.CallToolParamsRaw: json: cannot unmarshal … into Go struct field …") — for params that
// are not an object, a field of the wrong kind (`"name": 5`, `"uri": 5`, `"cursor": 5`,
// `"_meta": "x"`) — or "invalid request: missing required \"params\"" for a call that needs
// them and sent none. They are refused here, on both transports, with -32602 and the field
// and the kind it takes in the person's language, before the SDK reads them.

// paramsOf makes the value the SDK decodes a method's params into, by method (serverMethods);
// optional reports the methods whose params may be left out.
var paramsOf = map[string]struct {
	make     func() any
	optional bool
}{
	"initialize":               {func() any { return new(sdk.InitializeParams) }, false},
	"ping":                     {func() any { return new(sdk.PingParams) }, true},
	"tools/list":               {func() any { return new(sdk.ListToolsParams) }, true},
	"tools/call":               {func() any { return new(sdk.CallToolParamsRaw) }, false},
	"resources/list":           {func() any { return new(sdk.ListResourcesParams) }, true},
	"resources/templates/list": {func() any { return new(sdk.ListResourceTemplatesParams) }, true},
	"resources/read":           {func() any { return new(sdk.ReadResourceParams) }, false},
	"resources/subscribe":      {func() any { return new(sdk.SubscribeParams) }, false},
	"resources/unsubscribe":    {func() any { return new(sdk.UnsubscribeParams) }, false},
	"prompts/list":             {func() any { return new(sdk.ListPromptsParams) }, true},
	"prompts/get":              {func() any { return new(sdk.GetPromptParams) }, false},
	"logging/setLevel":         {func() any { return new(sdk.SetLoggingLevelParams) }, false},
}

// Catalog codes of the params refusals.
const (
	keyParamsRequired  = "mcp_rpc_params_required"
	keyParamsNotObject = "mcp_rpc_params_not_object"
	keyParamsField     = "mcp_rpc_params_field"
	keyVersionNewer    = "mcp_protocol_version_unsupported"
)

// metaVersionKey is where a call of the stateless protocol (2026-07-28 on) names its version.
const metaVersionKey = "io.modelcontextprotocol/protocolVersion"

// rpcUnsupportedVersion is the protocol's code for a version the server does not speak, whose
// data names the versions it does (a client of a newer protocol falls back on it).
const rpcUnsupportedVersion = sdk.CodeUnsupportedProtocolVersion

// checkParams refuses the params of a call to method (one of serverMethods) that the SDK could
// not read, or nil.
func checkParams(id any, method string, params json.RawMessage) *rpcRefusal {
	spec, ok := paramsOf[method]
	if !ok {
		return nil
	}
	params = bytes.TrimSpace(params)
	if len(params) == 0 || bytes.Equal(params, []byte("null")) {
		if spec.optional {
			return nil
		}
		return &rpcRefusal{id: id, code: rpcInvalidParams, key: keyParamsRequired, args: map[string]any{"Method": method}}
	}
	if params[0] != '{' {
		return &rpcRefusal{id: id, code: rpcInvalidParams, key: keyParamsNotObject, args: map[string]any{"Method": method}}
	}
	if err := json.Unmarshal(params, spec.make()); err != nil {
		var te *json.UnmarshalTypeError
		field, want := "params", "detail.mcp_kind_value"
		if errors.As(err, &te) {
			if te.Field != "" {
				field = te.Field
			}
			if k, ok := kindKeys[api.JSONKind(te.Type)]; ok {
				want = k
			}
		}
		return &rpcRefusal{id: id, code: rpcInvalidParams, key: keyParamsField, want: want,
			args: map[string]any{"Method": method, "Field": field}}
	}
	if v := metaVersion(params); v != "" && v >= firstStatelessVersion {
		return newerVersion(id, v)
	}
	return nil
}

// kindKeys name in the catalog the kinds api.JSONKind names.
var kindKeys = map[string]string{"string": "detail.mcp_kind_string", "true/false": "detail.mcp_kind_boolean",
	"number": "detail.mcp_kind_number", "list": "detail.mcp_kind_list", "object": "detail.mcp_kind_object"}

// metaVersion is the protocol version a call's params._meta names, or "".
func metaVersion(params json.RawMessage) string {
	var p struct {
		Meta map[string]any `json:"_meta"`
	}
	_ = json.Unmarshal(params, &p)
	v, _ := p.Meta[metaVersionKey].(string)
	return v
}

// newerVersion refuses a call made in protocol version v, which is of the stateless protocol
// this server does not speak (it speaks the handshake-era versions): the protocol's code and
// data, which a client falls back on, and the words in the person's language (the SDK said
// "unsupported protocol version", and over HTTP named the wrong version).
func newerVersion(id any, v string) *rpcRefusal {
	return &rpcRefusal{id: id, code: rpcUnsupportedVersion, key: keyVersionNewer,
		args: map[string]any{"Version": v, "Supported": strings.Join(protocolVersions, ", ")},
		data: map[string]any{"supported": protocolVersions, "requested": v}}
}
