package api

import "context"

// sessionKeyCtx carries the key MCP session ids are signed with on one HTTP request.
type sessionKeyCtx struct{}

// WithSessionKey is ctx carrying key: the bridge, having checked a request's token, hands the
// MCP handler the key its session ids are signed and verified with (made from the home's
// session secret and that token, so a regenerated token revokes every id made before it).
func WithSessionKey(ctx context.Context, key []byte) context.Context {
	return context.WithValue(ctx, sessionKeyCtx{}, key)
}

// SessionKey is the key WithSessionKey put in ctx, or nil: without one no session id is
// signed, and none this process does not hold is taken back.
func SessionKey(ctx context.Context) []byte {
	k, _ := ctx.Value(sessionKeyCtx{}).([]byte)
	return k
}
