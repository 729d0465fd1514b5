package api

import (
	"encoding/json"

	"engram/backend/memory"
)

// KvService is each agent's key-value namespace: small structured facts ("project:version")
// kept in memory/agents/<agent>/kv.json beside the agent's memories. (Spelled Kv because the
// table binds "noun.verb" to <Noun>Service.<Verb>.)
//
// Agent in every params type is the namespace, and for a model-facing caller (actor "tool")
// it is the caller itself: the MCP transport fills it from the connection's identity and never
// from a model's tool arguments, so a model reads and writes only its own agent's keys. People
// (the desktop window, the CLI, the bridge) may name any agent.
type KvService struct{ a *API }

// KVKeyParams name one key of one agent's namespace (kv.get, kv.delete).
type KVKeyParams struct {
	// Agent is the namespace; for MCP callers the transport sets it from the connection's
	// identity, never from model arguments.
	Agent string `json:"agent"`
	Key   string `json:"key"`
}

// KVSetParams store Value under Key (kv.set).
type KVSetParams struct {
	// Agent is the namespace; for MCP callers the transport sets it from the connection's
	// identity, never from model arguments.
	Agent string `json:"agent"`
	// Key is 1–256 bytes of printable text.
	Key string `json:"key"`
	// Value is any JSON value or a string, at most 64 KiB once compacted; null is refused.
	Value json.RawMessage `json:"value"`
}

// KVListParams page through an agent's keys (kv.list), in byte order.
type KVListParams struct {
	// Agent is the namespace; for MCP callers the transport sets it from the connection's
	// identity, never from model arguments.
	Agent  string `json:"agent"`
	Prefix string `json:"prefix,omitempty"`
	// Cursor is the next_cursor of the previous page.
	Cursor string `json:"cursor,omitempty"`
	// Limit is the page size: 100 by default, at most 1000.
	Limit int `json:"limit,omitempty"`
}

// KVEntry is one key and its value.
type KVEntry struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// KVGetResult is the value of one key.
type KVGetResult struct {
	Agent string          `json:"agent"`
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// KVSetResult says what kv.set did: Changed is false when the key already held the value.
type KVSetResult struct {
	Agent   string `json:"agent"`
	Key     string `json:"key"`
	Created bool   `json:"created"`
	Changed bool   `json:"changed"`
}

// KVDeleteResult confirms a deleted key.
type KVDeleteResult struct {
	Agent   string `json:"agent"`
	Key     string `json:"key"`
	Deleted bool   `json:"deleted"`
}

// KVListResult is one page of keys; pass NextCursor as cursor for the next one.
type KVListResult struct {
	Agent      string    `json:"agent"`
	Prefix     string    `json:"prefix"`
	Entries    []KVEntry `json:"entries"`
	Total      int       `json:"total"`
	NextCursor string    `json:"next_cursor,omitempty"`
}

// Get returns the value of one key (kv_not_found when the agent has none).
func (s *KvService) Get(p KVKeyParams) (KVGetResult, error) {
	if err := s.a.Wait(); err != nil {
		return KVGetResult{}, err
	}
	v, err := s.a.deps.Store.KVGet(s.a.ctx, p.Agent, p.Key)
	if err != nil {
		return KVGetResult{}, s.a.fail(err)
	}
	return KVGetResult{Agent: p.Agent, Key: p.Key, Value: v}, nil
}

// Set stores a value under a key; refused for secrets, over-long keys or values, and
// past 10,000 keys per agent.
func (s *KvService) Set(p KVSetParams) (KVSetResult, error) {
	if err := s.a.Wait(); err != nil {
		return KVSetResult{}, err
	}
	r, err := s.a.deps.Store.KVSet(s.a.ctx, memory.KVChange{Agent: p.Agent, Key: p.Key, Value: p.Value, Actor: s.a.actor})
	if err != nil {
		return KVSetResult{}, s.a.fail(err)
	}
	return KVSetResult{Agent: p.Agent, Key: p.Key, Created: r.Created, Changed: r.Changed}, nil
}

// Delete removes one key. Removing a key the agent does not have changes nothing, so it
// succeeds with Deleted false for every transport (the CLI and the bridge failed with
// kv_not_found while MCP's kv_delete succeeded, over the same method).
func (s *KvService) Delete(p KVKeyParams) (KVDeleteResult, error) {
	if err := s.a.Wait(); err != nil {
		return KVDeleteResult{}, err
	}
	if err := s.a.deps.Store.KVDelete(s.a.ctx, memory.KVChange{Agent: p.Agent, Key: p.Key, Actor: s.a.actor}); err != nil {
		if memory.CodeOf(err) == memory.CodeKVNotFound {
			return KVDeleteResult{Agent: p.Agent, Key: p.Key}, nil
		}
		return KVDeleteResult{}, s.a.fail(err)
	}
	return KVDeleteResult{Agent: p.Agent, Key: p.Key, Deleted: true}, nil
}

// List pages through an agent's keys starting with Prefix, sorted by key.
func (s *KvService) List(p KVListParams) (KVListResult, error) {
	if err := s.a.Wait(); err != nil {
		return KVListResult{}, err
	}
	page, err := s.a.deps.Store.KVList(s.a.ctx, p.Agent, p.Prefix, p.Cursor, p.Limit)
	if err != nil {
		return KVListResult{}, s.a.fail(err)
	}
	out := KVListResult{Agent: p.Agent, Prefix: p.Prefix, Entries: make([]KVEntry, 0, len(page.Entries)),
		Total: page.Total, NextCursor: page.NextCursor}
	for _, e := range page.Entries {
		out.Entries = append(out.Entries, KVEntry{Key: e.Key, Value: e.Value})
	}
	return out, nil
}
