package mcp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
)

// Codes of this transport's own refusals; each has an i18n key "error.<code>" that names the fix.
const (
	codeInvalidArguments      = "mcp_invalid_arguments"
	codeAgentUnknown          = "mcp_agent_unknown"
	codeWorkdirNotAllowed     = "workdir_not_allowed"
	codeWorkdirOtherProject   = "workdir_other_project"
	codeInvalidCursor         = "mcp_invalid_cursor"
	codeExtractionUnavailable = "extraction_unavailable"
	codeKVUnavailable         = "kv_unavailable"
)

// nextCall is the call a model should make next, in this server's own tool names.
type nextCall struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// toolError is a failure the model reads and can act on: the code, the message in the
// person's language (it names the fix), the next call to make and, for a missed reference,
// entries that exist.
type toolError struct {
	Code              string         `json:"code"`
	Message           string         `json:"message"`
	Args              map[string]any `json:"args,omitempty"`
	SuggestedNextCall *nextCall      `json:"suggested_next_call,omitempty"`
	Candidates        any            `json:"candidates,omitempty"`
	// Untrusted is the notice that memory text is data (api.MemoriesNotice), given with
	// candidates: their titles are memory text.
	Untrusted string   `json:"untrusted_data,omitempty"`
	Allowed   []string `json:"allowed_workdirs,omitempty"`
	// refused names arguments the refusal is about that its Args do not: a suggested retry
	// does not carry them back (nextcall.go).
	refused []string
}

// codedError translates code through the catalog (error.<code>).
func (s *Server) codedError(code string, args map[string]any, next *nextCall) *toolError {
	e := s.api.Error(code, args)
	return &toolError{Code: code, Message: e.Message, Args: args, SuggestedNextCall: next}
}

// apiError turns an api failure into a tool error; next is the call that can follow.
func (s *Server) apiError(err error, next *nextCall) *toolError {
	var ae *api.Error
	if errors.As(err, &ae) {
		return &toolError{Code: ae.Code, Message: ae.Message, Args: ae.Args, SuggestedNextCall: next}
	}
	return s.codedError("internal", map[string]any{"Detail": err.Error()}, next)
}

// actionTools names, for each MemoryManager action, the tool of this server that does it.
var actionTools = map[string]string{"search": "memory_search", "list": "memory_list", "read": "memory_read",
	"write": "memory_write", "update": "memory_update", "delete": "memory_delete"}

// recallError turns a MemoryManager failure into a tool error: its code translated when the
// catalog knows it (the recall message otherwise), its suggested_next_call renamed to this
// server's tools, its candidates kept.
func (s *Server) recallError(e *api.ToolError) *toolError {
	te := &toolError{Code: e.Code, Message: e.Message, Args: e.Args}
	if len(e.Candidates) > 0 {
		te.Candidates, te.Untrusted = e.Candidates, api.MemoriesNotice
	}
	if tr := s.api.Error(e.Code, e.Args); tr.I18nKey == "error."+e.Code {
		te.Message = tr.Message
	}
	if e.SuggestedNextCall != nil {
		args := map[string]any{}
		tool := "memory_list"
		for k, v := range e.SuggestedNextCall {
			if k == "action" {
				if a, ok := v.(string); ok && actionTools[a] != "" {
					tool = actionTools[a]
				}
				continue
			}
			if str, ok := v.(string); ok && str == "" {
				continue
			}
			args[k] = v
		}
		for k, v := range args {
			if !s.allowedValue(tool, k, v) {
				delete(args, k) // recall repeats the value it refused ("scope": "nonsense")
			}
		}
		te.SuggestedNextCall = &nextCall{Tool: tool, Arguments: args}
	}
	return te
}

// errorResult is a tool error as the model sees it (isError set).
func errorResult(e *toolError) *sdk.CallToolResult {
	b, _ := json.Marshal(map[string]any{"ok": false, "error": e})
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}
}

// okResult is a successful answer as JSON text.
func okResult(v any) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(mustJSON(v))}}}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]any{"ok": false, "error": map[string]any{"code": "internal", "message": err.Error()}})
	}
	return b
}

// EstimateTokens counts the tokens of s the way the result budget does: about three ASCII
// characters a token (as recall.EstimateTokens counts them for build_context), one a token for
// CJK and other wide characters, two for the rest. Four ASCII characters a token undercounted
// the JSON of a page: ids, hashes, paths and punctuation come to about 2.4 characters a token
// in Anthropic's tokenizer, so a kv_list page of 20,000 "tokens" (80 KB) was some 33,000, past
// the 25,000 Claude Code accepts from a tool (it refuses the result).
func EstimateTokens(s string) int {
	ascii, wide, other := 0, 0, 0
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			ascii++
		case r >= 0x2E80:
			wide++
		default:
			other++
		}
	}
	return (ascii+2)/3 + wide + (other+1)/2
}

// cursor is where the next page of a search or list starts, bound to the arguments that
// made the first page (a cursor replayed with another query is refused).
type cursor struct {
	Tool   string `json:"t"`
	Offset int    `json:"o"`
	Hash   string `json:"h"`
}

func argsHash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func encodeCursor(c cursor) string {
	return base64.RawURLEncoding.EncodeToString(mustJSON(c))
}

// decodeCursor reads a cursor for tool and the arguments' hash; "" is the first page.
func (s *Server) decodeCursor(raw, tool, hash string) (int, *toolError) {
	if raw == "" {
		return 0, nil
	}
	var c cursor
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Tool != tool || c.Hash != hash || c.Offset < 0 {
		return 0, s.codedError(codeInvalidCursor, map[string]any{"Tool": tool}, &nextCall{Tool: tool, Arguments: map[string]any{}})
	}
	return c.Offset, nil
}

// page fits a search or list page into the token budget (see fit); its cursor is the offset
// after the items kept, bound to the tool and the arguments' hash.
func (s *Server) page(n int, more bool, tool, hash string, offset int, build func(keep int, next string) any) any {
	return s.fit(n, more, offsetCursor(tool, hash, offset), build)
}

// offsetCursor is the cursor of a search or list page that starts at offset and keeps keep
// items: the next page starts after them.
func offsetCursor(tool, hash string, offset int) func(keep int) string {
	return func(keep int) string {
		return encodeCursor(cursor{Tool: tool, Offset: offset + keep, Hash: hash})
	}
}

// fit fits n items into the token budget, for every paged tool (search, list, kv_list): the
// most whole items from the front whose encoded result stays within it (at least one, so a
// page always moves on). build makes the result from the kept items and the next cursor,
// which is cursorAt(keep) when items are left out or more follow, else "". A result only grows
// with each item it keeps (a kv page's cursor, a key, nearly so; what is returned fits all the
// same), so the most that fit are found by halving: a kv_list page of 1,000 values of 64 KiB
// is encoded a few times over in all, not once for each entry it leaves out.
func (s *Server) fit(n int, more bool, cursorAt func(keep int) string, build func(keep int, next string) any) any {
	try := func(keep int) (any, bool) {
		next := ""
		if keep < n || more {
			next = cursorAt(keep)
		}
		res := build(keep, next)
		return res, EstimateTokens(string(mustJSON(res))) <= s.cfg.BudgetTokens
	}
	res, fits := try(n)
	if fits || n <= 1 {
		return res
	}
	lo, hi := 1, n-1 // the most that fit are in [lo, hi]; 1 is kept even over the budget
	res = nil
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if r, ok := try(mid); ok {
			lo, res = mid, r
		} else {
			hi = mid - 1
		}
	}
	if res == nil {
		res, _ = try(lo)
	}
	return res
}
