package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"sort"
	"strings"
	"sync"
)

// The file side of the key-value namespaces: reading and checking kv.json strictly, writing it
// in its canonical form, and a cache that spares re-checking a file whose bytes did not change.

// kvFile is one agent's namespace as read from disk; version is the checksum of the bytes
// read ("" when the file does not exist), re-checked right before a write's rename.
type kvFile struct {
	entries map[string]json.RawMessage
	version string
}

// loadKV reads an agent's kv.json. A file that does not parse or breaks a rule (a hand edit)
// is a kv_file_invalid error naming the file and what is wrong, never a secret.
func (s *Store) loadKV(agent string) (kvFile, error) {
	rel := kvRel(agent)
	if err := s.safeDir(rel, false); err != nil {
		return kvFile{}, err // the agent's folder is a link or a file: never followed
	}
	data, err := readNoFollow(s.abs(rel))
	if errors.Is(err, os.ErrNotExist) {
		return kvFile{entries: map[string]json.RawMessage{}}, nil
	}
	if err != nil {
		return kvFile{}, kvInvalid(rel, err.Error())
	}
	version := Checksum(data)
	if entries, ok := s.kvCache.get(agent, version); ok {
		return kvFile{entries: entries, version: version}, nil
	}
	entries, detail := parseKV(data)
	if detail != "" {
		return kvFile{}, kvInvalid(rel, detail)
	}
	s.kvCache.put(agent, version, entries)
	return kvFile{entries: maps.Clone(entries), version: version}, nil
}

// kvCache maps an agent to its namespace as last read and checked. Entries handed out are
// copies: a writer changes its copy and puts the written result back.
type kvCache struct {
	mu sync.Mutex
	m  map[string]kvFile
}

func (c *kvCache) get(agent, version string) (map[string]json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.m[agent]
	if !ok || f.version != version {
		return nil, false
	}
	return maps.Clone(f.entries), true
}

func (c *kvCache) put(agent, version string, entries map[string]json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]kvFile{}
	}
	c.m[agent] = kvFile{entries: maps.Clone(entries), version: version}
}

func kvInvalid(rel, detail string) error {
	return codeErr(CodeKVFileInvalid, map[string]any{"Path": rel, "Detail": detail},
		"%s cannot be used (%s); it is left as it is and writes to it are refused until it is fixed", rel, detail)
}

// parseKV reads a kv file strictly: one JSON object, no repeated key (the standard decoder
// would keep the last silently), every entry within the rules a write checks.
func parseKV(data []byte) (map[string]json.RawMessage, string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, "not JSON: " + err.Error()
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, "not a JSON object"
	}
	out := map[string]json.RawMessage{}
	for n := 1; dec.More(); n++ {
		tok, err := dec.Token()
		if err != nil {
			return nil, "not JSON: " + err.Error()
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, "not JSON: " + err.Error()
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Sprintf("entry %d repeats a key", n)
		}
		if p := kvKeyProblem(key); p != "" {
			return nil, fmt.Sprintf("entry %d: key %s", n, p)
		}
		v, err := normalizeKVValue(raw)
		if err != nil {
			return nil, fmt.Sprintf("entry %d: %s", n, strings.TrimPrefix(err.Error(), "memory: "))
		}
		if kind, field := kvSecret(key, v); kind != "" {
			return nil, fmt.Sprintf("entry %d: the %s looks like a secret (%s)", n, field, kind)
		}
		out[key] = v
		if len(out) > MaxKVKeys {
			return nil, fmt.Sprintf("more than %d keys", MaxKVKeys)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, "not JSON: " + err.Error()
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, "text after the JSON object"
	}
	return out, ""
}

// renderKV is the canonical form: one key a line in byte order, each value compact JSON, HTML
// left unescaped — readable, and a change shows as a one-line diff. Values are already compact.
func renderKV(entries map[string]json.RawMessage) ([]byte, error) {
	keys := make([]string, 0, len(entries))
	size := 4
	for k, v := range entries {
		keys = append(keys, k)
		size += len(k) + len(v) + 8
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.Grow(size)
	buf.WriteString("{")
	var kb bytes.Buffer
	enc := json.NewEncoder(&kb)
	enc.SetEscapeHTML(false)
	for i, k := range keys {
		kb.Reset()
		if err := enc.Encode(k); err != nil {
			return nil, fmt.Errorf("memory: unable to render kv: %w", err)
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n  ")
		buf.Write(bytes.TrimSuffix(kb.Bytes(), []byte("\n")))
		buf.WriteString(": ")
		buf.Write(entries[k])
	}
	if len(keys) > 0 {
		buf.WriteByte('\n')
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// saveKVLocked writes an agent's namespace atomically; the file must still be what loadKV read
// right before the rename, so a hand edit landing in between is refused, never overwritten.
func (s *Store) saveKVLocked(agent string, f kvFile) error {
	data, err := renderKV(f.entries)
	if err != nil {
		return err
	}
	rel := kvRel(agent)
	written := Checksum(data)
	check := func() error {
		cur, err := readNoFollow(s.abs(rel))
		var v string
		switch {
		case err == nil:
			v = Checksum(cur)
		case !errors.Is(err, os.ErrNotExist):
			return fmt.Errorf("memory: unable to read %s: %w", rel, err)
		}
		if v != f.version {
			return codeErr(CodeKVFileChanged, map[string]any{"Path": rel}, "%s changed on disk while it was being written; nothing was overwritten", rel)
		}
		return nil
	}
	if err := s.writeFile(rel, data, nil, check, false); err != nil {
		return err
	}
	s.kvCache.put(agent, written, f.entries)
	return nil
}

// ParseKV reads a kv.json as the store does (strictly); the history's merge uses it to merge
// two machines' versions key by key. The error is kv_file_invalid naming rel.
func ParseKV(rel string, data []byte) (map[string]json.RawMessage, error) {
	entries, detail := parseKV(data)
	if detail != "" {
		return nil, kvInvalid(rel, detail)
	}
	return entries, nil
}

// RenderKV is a kv.json in its canonical form (one key a line, sorted).
func RenderKV(entries map[string]json.RawMessage) ([]byte, error) { return renderKV(entries) }
