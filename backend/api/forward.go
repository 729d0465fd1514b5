package api

import (
	"encoding/json"
	"errors"
)

// ForwardedMethods are the methods a long-running process (desktop app, engram serve, engram
// mcp) answers for one-shot CLI calls over the watcher's socket (memory.ForwardCall): the CLI's
// forwarded verbs (search) and the app.info they ask first for the home's language. Read-only:
// the socket needs no token (the memory folder is the owner's alone), so it must not offer
// more than reading the files would.
var ForwardedMethods = []string{"app.info", "memory.search"}

// CallJSON runs one method by name for a forwarded call: its result as JSON, or its error as
// a coded Error in JSON (an uncoded failure becomes "internal").
func (a *API) CallJSON(method string, params json.RawMessage) (result, errJSON json.RawMessage) {
	res, err := a.Call(method, params)
	if err == nil {
		if res == nil {
			res = struct{}{}
		}
		b, merr := json.Marshal(res)
		if merr == nil {
			return b, nil
		}
		err = merr
	}
	var ae *Error
	if !errors.As(err, &ae) {
		ae = a.Error("internal", map[string]any{"Detail": err.Error()})
	}
	b, _ := json.Marshal(ae)
	return nil, b
}
