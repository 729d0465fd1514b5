package api

import (
	"context"
	"encoding/json"
	"errors"

	"engram/backend/coded"
	"engram/backend/memory"
	"engram/backend/settings"
)

// Error is how every failure crosses api/: a stable code, the catalog key that translates it,
// the arguments for its placeholders, and the message already translated for the current
// language. Error() is the JSON form because Wails hands a bound method's error to the UI as
// a string.
type Error struct {
	Code    string         `json:"code"`
	I18nKey string         `json:"i18n_key"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
}

func (e *Error) Error() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// Codes of api-level failures (memory codes pass through unchanged).
const (
	CodeInvalidParams     = "invalid_params"
	CodeUnknownMethod     = "unknown_method"
	CodeWorkdirMissing    = "workdir_required"
	CodeAgentMissing      = "agent_required"
	CodeInvalidSetting    = settings.CodeInvalid
	CodeCanceled          = "canceled"
	CodeRemoteUnavailable = "remote_unavailable"
)

// fail converts any error into an *Error translated for the caller's language.
func (a *API) fail(err error) error {
	if err == nil {
		return nil
	}
	var ae *Error
	if errors.As(err, &ae) {
		return ae
	}
	e := &Error{Code: memory.CodeInternal}
	// Every package's coded error (memory, organizer, recall, embed, settings) carries its
	// code behind one interface; the outermost one in the chain speaks.
	if c, ok := coded.As(err); ok {
		e.Code, e.Args = c.ErrorCode(), c.ErrorArgs()
	} else if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		e.Code = CodeCanceled
	} else if memory.IsCorrupt(err) {
		e.Code, e.Args = memory.CodeIndexCorrupt, map[string]any{"Detail": err.Error()}
		// A long-running process mends its index in the background: the caller is told to
		// try again in a moment, not to restart.
		if a.deps.Store != nil && a.deps.Store.RepairSoon(err) {
			e.Code = memory.CodeIndexRepairing
		}
	} else {
		e.Args = map[string]any{"Detail": err.Error()}
	}
	return a.newError(e.Code, e.Args)
}

// newError builds a coded error with its message in the current language.
func (a *API) newError(code string, args map[string]any) *Error {
	if args == nil {
		args = map[string]any{}
	}
	key := "error." + code
	if a.deps.Catalog != nil && !a.deps.Catalog.Has(key) {
		key = "error.internal"
	}
	args = a.termKeys(key, args)
	args = translateDetail(a, args)
	// "internal" shows its Detail; an error built without one must not read "<no value>".
	if key == "error.internal" {
		if _, ok := args["Detail"]; !ok {
			args["Detail"] = code
		}
	}
	e := &Error{Code: code, I18nKey: key, Args: args}
	e.Message = a.t(key, a.termArgs(args))
	return e
}

// DetailKey is the argument that names a catalog key (detail.*) for an error's Detail: the
// package that made the error fills Detail in English too (for logs and callers without a
// catalog), and newError puts the translation in its place, filled from the same arguments, so
// a Chinese message never carries an English reason. The key stays in the arguments: the UI
// translates it again when the language changes (localiseArgs).
const DetailKey = "DetailKey"

// Reason adds err's text to args as Detail, and for a file-system failure people meet the key
// of that reason in words (coded.Reason); for transports, which translate their own messages.
func Reason(args map[string]any, err error) map[string]any { return coded.Reason(args, err) }

// translateDetail returns args with Detail translated when DetailKey names a known key; args
// itself, which may belong to the error that made it, is left as it was.
func translateDetail(a *API, args map[string]any) map[string]any {
	key, ok := args[DetailKey].(string)
	if !ok || a.deps.Catalog == nil || !a.deps.Catalog.Has(key) {
		return args
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	dargs := args
	if rawFieldKeys[key] {
		dargs = make(map[string]any, len(args))
		for k, v := range args {
			if k != "FieldKey" {
				dargs[k] = v
			}
		}
	} else {
		dargs = a.termKeys(key, args)
	}
	out["Detail"] = a.t(key, a.termArgs(dargs))
	return out
}

// t translates with the current language.
func (a *API) t(key string, args map[string]any) string {
	if a.deps.Catalog == nil {
		return key
	}
	return a.deps.Catalog.T(a.language(), key, args)
}

func (a *API) language() string {
	if a.deps.Settings == nil {
		if a.lang != "" {
			return a.lang
		}
		return "en"
	}
	st, err := a.deps.Settings.Get(a.ctx)
	if err != nil {
		return "en"
	}
	return st.Language
}

// Error builds a translated coded error for transports (the bridge's protocol errors).
func (a *API) Error(code string, args map[string]any) *Error { return a.newError(code, args) }
