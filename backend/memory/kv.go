package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Each agent has a small key-value namespace for structured facts ("project:version" →
// "1.4.2") beside its memories: one JSON object in memory/agents/<agent>/kv.json, keys sorted,
// so the file stays canonical, readable, exported and backed up with the Markdown. It is not a
// memory: the walk, reconcile, watcher and quota never index or count it.

// KV limits.
const (
	KVFileName      = "kv.json"
	MaxKVKeyBytes   = 256
	MaxKVValueBytes = 64 << 10
	MaxKVKeys       = 10000
	// DefaultKVListLimit and MaxKVListLimit page kv.list.
	DefaultKVListLimit = 100
	MaxKVListLimit     = 1000
)

// KV codes; each has an "error.<code>" key.
const (
	CodeKVInvalidKey    = "kv_invalid_key"
	CodeKVInvalidValue  = "kv_invalid_value"
	CodeKVValueTooLarge = "kv_value_too_large"
	CodeKVTooManyKeys   = "kv_too_many_keys"
	CodeKVNotFound      = "kv_not_found"
	// CodeKVFileInvalid marks a kv.json edited by hand into something Engram will not
	// rewrite: it is reported and every write to that agent's namespace is refused.
	CodeKVFileInvalid = "kv_file_invalid"
	// CodeKVFileChanged refuses a write when kv.json changed on disk while it was written.
	CodeKVFileChanged = "kv_file_changed"
	// CodeKVConflict is an import line whose key already holds a different value (kept).
	CodeKVConflict = "kv_conflict"
	// ProblemKVFile is how an unusable kv.json shows in the problems list (its message takes
	// only the detail: the list shows the path itself).
	ProblemKVFile = "kv_file_unusable"
)

// Audit ops of the key-value namespace.
const (
	OpKVSet    = "kv_set"
	OpKVDelete = "kv_delete"
)

// KVEntry is one key and its value (any JSON value; a string is a JSON string).
type KVEntry struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// KVPage is one page of a listing, keys in byte order.
type KVPage struct {
	Entries []KVEntry `json:"entries"`
	// Total counts the keys matching the prefix, on every page.
	Total int `json:"total"`
	// NextCursor, when set, is passed as cursor to read the next page.
	NextCursor string `json:"next_cursor,omitempty"`
}

// KVChange names who changes a key: actor, session and model go to the audit log.
type KVChange struct {
	Agent, Key string
	// Value is any JSON value (set only); null is refused: delete the key instead.
	Value                 json.RawMessage
	Actor, Session, Model string
}

// KVSetResult says what a set did.
type KVSetResult struct {
	Created bool `json:"created"`
	// Changed is false when the key already held this value (nothing was written).
	Changed bool `json:"changed"`
}

func kvRel(agent string) string { return "agents/" + agent + "/" + KVFileName }

func checkKVAgent(agent string) error {
	if !ValidAgent(agent) {
		return codeErr(CodeInvalidAgent, map[string]any{"Agent": agent}, "invalid agent %q", agent)
	}
	return nil
}

// kvKeyProblem says why key breaks the key rule (nil when it is fine): 1 to 256 bytes of
// printable UTF-8, no control characters, no leading or trailing space. Its key and arguments
// are those of a kv.json's entry (detail.kv_key_*, kvKeyFault adds the entry).
func kvKeyProblem(key string) *fault {
	var f fault
	switch {
	case key == "":
		f = newFault("detail.kv_key_empty", nil, "empty")
	case len(key) > MaxKVKeyBytes:
		f = newFault("detail.kv_key_too_long", map[string]any{"Size": len(key), "Max": MaxKVKeyBytes}, "%d bytes, at most %d", len(key), MaxKVKeyBytes)
	case !utf8.ValidString(key):
		f = newFault("detail.kv_key_refused", nil, "not UTF-8")
	case strings.TrimSpace(key) != key:
		f = newFault("detail.kv_key_space", nil, "leading or trailing space")
	default:
		for _, r := range key {
			if !unicode.IsPrint(r) || unicode.IsControl(r) {
				c := fmt.Sprintf("U+%04X", r)
				f = newFault("detail.kv_key_unprintable", map[string]any{"Char": c}, "unprintable character %s", c)
				break
			}
		}
		if f.key == "" {
			return nil
		}
	}
	return &f
}

// kvKey is the one spelling a key is kept and looked up under: its NFC form. "café" typed
// with a composed é and with e and a combining accent looks the same to a person and an agent;
// before, they were two keys, and a value set under one was not found under the other.
func kvKey(key string) string { return norm.NFC.String(key) }

func checkKVKey(key string) error {
	if p := kvKeyProblem(key); p != nil {
		return codeErr(CodeKVInvalidKey, map[string]any{"Max": MaxKVKeyBytes, "Detail": p.text}, "invalid key: %s", p.text)
	}
	return nil
}

// normalizeKVValue compacts a JSON value, refusing what is not one, null, and what is over the
// limit once compacted.
func normalizeKVValue(v json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(v)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil, codeErr(CodeKVInvalidValue, map[string]any{"Detail": "missing or null", "DetailKey": "detail.value_missing"}, "a value is required (delete the key instead of setting null)")
	}
	if !json.Valid(t) {
		return nil, codeErr(CodeKVInvalidValue, map[string]any{"Detail": "not JSON", "DetailKey": "detail.not_json"}, "the value is not JSON")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, t); err != nil {
		return nil, codeErr(CodeKVInvalidValue, map[string]any{"Detail": err.Error()}, "the value is not JSON: %v", err)
	}
	if buf.Len() > MaxKVValueBytes {
		return nil, codeErr(CodeKVValueTooLarge, map[string]any{"Size": buf.Len(), "Max": MaxKVValueBytes},
			"the value is %d bytes, at most %d", buf.Len(), MaxKVValueBytes)
	}
	return json.RawMessage(buf.Bytes()), nil
}

// kvSecret runs the memory guard over a key and a value: the value's JSON text and every
// string and member name inside it (escapes such as \u002d would hide a token from the text).
func kvSecret(key string, value json.RawMessage) (kind, field string) {
	fields := []textField{{"key", key}, {"value", string(value)}}
	var v any
	if json.Unmarshal(value, &v) == nil {
		var walk func(any)
		walk = func(x any) {
			switch t := x.(type) {
			case string:
				fields = append(fields, textField{"value", t})
			case []any:
				for _, e := range t {
					walk(e)
				}
			case map[string]any:
				for k, e := range t {
					fields = append(fields, textField{"value", k})
					walk(e)
				}
			}
		}
		walk(v)
	}
	return scanFields(fields...)
}

// checkKVEntry validates one key and value as a write does; value must be normalized.
func checkKVEntry(key string, value json.RawMessage) error {
	if err := checkKVKey(key); err != nil {
		return err
	}
	if kind, field := kvSecret(key, value); kind != "" {
		return secretErr(kind, field)
	}
	return nil
}

// kvAudit records one key's change: who, which agent, which key — never the value. The key
// goes in the slug column too, which the activity log shows beside the agent scope; no memory
// id, so nothing takes the row for a memory's history.
func (s *Store) kvAudit(ctx context.Context, op string, ch KVChange) {
	d, _ := json.Marshal(map[string]any{"agent": ch.Agent, "key": ch.Key})
	res, err := s.db.ExecContext(ctx, `INSERT INTO memory_audit_log(ts, op, actor, memory_id, slug, scope, scope_key,
		session, model, result, detail) VALUES(?,?,?,'',?,?,?,?,?,'ok',?)`, s.rfc(s.opts.Now()), op, ch.Actor, ch.Key,
		string(ScopeAgent), ch.Agent, ch.Session, ch.Model, string(d))
	if err != nil {
		s.log.Error("memory: unable to write audit row", "err", err)
		return
	}
	s.ownAudit(res)
}

// kvCommit tells the history hook (git, when on) about a changed kv.json, so an agent's facts
// are versioned like its memories. The commit names the operation and the file, never the key
// or the value. The caller holds the writer lock.
func (s *Store) kvCommit(op string, ch KVChange) {
	s.runHook(Applied{Actor: ch.Actor, Ops: []string{op + " " + kvRel(ch.Agent)}, Paths: []string{kvRel(ch.Agent)}})
}

// kvHandEdited commits kv.json files the watcher saw changed by someone else (a hand edit);
// this process's own writes equal HEAD already and make no commit.
func (s *Store) kvHandEdited(agents map[string]bool) {
	s.hookMu.Lock()
	on := s.hook != nil
	s.hookMu.Unlock()
	if !on || len(agents) == 0 {
		return
	}
	a := Applied{Actor: ActorHand}
	for agent := range agents {
		a.Paths = append(a.Paths, kvRel(agent))
	}
	sort.Strings(a.Paths)
	for _, p := range a.Paths {
		a.Ops = append(a.Ops, "edit "+p)
	}
	if err := s.withLock(func() error { s.runHook(a); return nil }); err != nil {
		s.log.Warn("memory: unable to commit a hand-edited kv.json", "err", err)
	}
}

// kvChanged tells subscribers which keys of an agent changed.
func (s *Store) kvChanged(agent string, keys []string) {
	s.remember([]string{kvEventID(agent)})
	s.emit(Event{Kind: EventKVChanged, Agent: agent, Keys: keys})
}

// EventKVChanged is the store event of a change to an agent's key-value namespace.
const EventKVChanged = "kv.changed"

// kvEventID is how kv changes of an agent are remembered among announced ids.
func kvEventID(agent string) string { return "kv:" + agent }

// KVGet returns the value of key in agent's namespace (kv_not_found when it has none).
func (s *Store) KVGet(_ context.Context, agent, key string) (json.RawMessage, error) {
	if err := checkKVAgent(agent); err != nil {
		return nil, err
	}
	if err := checkKVKey(key); err != nil {
		return nil, err
	}
	key = kvKey(key)
	f, err := s.loadKV(agent)
	if err != nil {
		return nil, err
	}
	v, ok := f.entries[key]
	if !ok {
		return nil, codeErr(CodeKVNotFound, map[string]any{"Agent": agent, "Key": key}, "agent %s has no key %q", agent, key)
	}
	return v, nil
}

// KVList pages through agent's keys starting with prefix, in byte order, after cursor.
func (s *Store) KVList(_ context.Context, agent, prefix, cursor string, limit int) (KVPage, error) {
	page := KVPage{Entries: []KVEntry{}}
	if err := checkKVAgent(agent); err != nil {
		return page, err
	}
	if limit <= 0 {
		limit = DefaultKVListLimit
	}
	limit = min(limit, MaxKVListLimit)
	prefix, cursor = kvKey(prefix), kvKey(cursor)
	f, err := s.loadKV(agent)
	if err != nil {
		return page, err
	}
	keys := make([]string, 0, len(f.entries))
	for k := range f.entries {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	page.Total = len(keys)
	start := 0
	if cursor != "" {
		start = sort.SearchStrings(keys, cursor)
		if start < len(keys) && keys[start] == cursor {
			start++
		}
	}
	for i := start; i < len(keys) && len(page.Entries) < limit; i++ {
		page.Entries = append(page.Entries, KVEntry{Key: keys[i], Value: f.entries[keys[i]]})
	}
	if n := start + len(page.Entries); n < len(keys) && len(page.Entries) > 0 {
		page.NextCursor = keys[n-1]
	}
	return page, nil
}

// KVSet stores a value under key in the agent's namespace, under the store's cross-process
// lock so the app, engram mcp and the CLI never lose each other's keys.
func (s *Store) KVSet(ctx context.Context, ch KVChange) (KVSetResult, error) {
	var res KVSetResult
	if err := checkKVAgent(ch.Agent); err != nil {
		return res, err
	}
	if err := s.checkNewAgent(ch.Agent); err != nil {
		return res, err
	}
	v, err := normalizeKVValue(ch.Value)
	if err != nil {
		return res, err
	}
	if err := checkKVEntry(ch.Key, v); err != nil {
		return res, err
	}
	ch.Key = kvKey(ch.Key)
	err = s.withLock(func() error {
		f, err := s.loadKV(ch.Agent)
		if err != nil {
			return err
		}
		old, had := f.entries[ch.Key]
		if had && bytes.Equal(old, v) {
			return nil
		}
		if !had && len(f.entries) >= MaxKVKeys {
			return codeErr(CodeKVTooManyKeys, map[string]any{"Agent": ch.Agent, "Max": MaxKVKeys}, "agent %s already has %d keys", ch.Agent, MaxKVKeys)
		}
		f.entries[ch.Key] = v
		if err := s.saveKVLocked(ch.Agent, f); err != nil {
			return err
		}
		res = KVSetResult{Created: !had, Changed: true}
		s.kvAudit(ctx, OpKVSet, ch)
		s.kvCommit(OpKVSet, ch)
		return nil
	})
	if err == nil && res.Changed {
		s.kvChanged(ch.Agent, []string{ch.Key})
	}
	return res, err
}

// KVDelete removes key from the agent's namespace (kv_not_found when it has none).
func (s *Store) KVDelete(ctx context.Context, ch KVChange) error {
	if err := checkKVAgent(ch.Agent); err != nil {
		return err
	}
	if err := checkKVKey(ch.Key); err != nil {
		return err
	}
	ch.Key = kvKey(ch.Key)
	err := s.withLock(func() error {
		f, err := s.loadKV(ch.Agent)
		if err != nil {
			return err
		}
		if _, ok := f.entries[ch.Key]; !ok {
			return codeErr(CodeKVNotFound, map[string]any{"Agent": ch.Agent, "Key": ch.Key}, "agent %s has no key %q", ch.Agent, ch.Key)
		}
		delete(f.entries, ch.Key)
		if err := s.saveKVLocked(ch.Agent, f); err != nil {
			return err
		}
		s.kvAudit(ctx, OpKVDelete, ch)
		s.kvCommit(OpKVDelete, ch)
		return nil
	})
	if err == nil {
		s.kvChanged(ch.Agent, []string{ch.Key})
	}
	return err
}
