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
		return kvFile{}, kvInvalid(rel, readFault(err))
	}
	version := Checksum(data)
	if entries, ok := s.kvCache.get(agent, version); ok {
		return kvFile{entries: entries, version: version}, nil
	}
	entries, f := parseKV(data)
	if f != nil {
		return kvFile{}, kvInvalid(rel, *f)
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

// kvInvalid is the kv_file_invalid error: Path and Detail (English), and DetailKey with the
// fault's arguments, which api translates Detail from.
func kvInvalid(rel string, f fault) error {
	args := map[string]any{"Path": rel, "Detail": f.text}
	if f.key != "" {
		for k, v := range f.args {
			args[k] = v
		}
		args["DetailKey"] = f.key
	}
	return codeErr(CodeKVFileInvalid, args,
		"%s cannot be used (%s); it is left as it is and writes to it are refused until it is fixed", rel, f.text)
}

// kvSyntaxFault is a kv.json the JSON decoder stopped in: at a line when the decoder says
// where, cut short when the text ends inside the JSON.
func kvSyntaxFault(data []byte, err error) *fault {
	var se *json.SyntaxError
	var f fault
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		f = newFault("detail.kv_json_cut", nil, "not JSON: %v", err)
	case errors.As(err, &se) && se.Offset > 0 && se.Offset <= int64(len(data)):
		line := 1 + bytes.Count(data[:se.Offset], []byte("\n"))
		f = newFault("detail.kv_not_json_line", map[string]any{"Line": line}, "not JSON: %v", err)
	default:
		f = newFault("detail.kv_not_json", nil, "not JSON: %v", err)
	}
	return &f
}

// kvEntryFault is entry n's value refused by normalizeKVValue.
func kvEntryFault(n int, err error) *fault {
	text := fmt.Sprintf("entry %d: %s", n, strings.TrimPrefix(err.Error(), "memory: "))
	var e *Error
	errors.As(err, &e)
	switch {
	case e != nil && e.Code == CodeKVValueTooLarge:
		return &fault{text: text, key: "detail.kv_value_too_large", args: map[string]any{"Entry": n, "Size": e.Args["Size"], "Max": e.Args["Max"]}}
	case e != nil && e.Args["DetailKey"] == "detail.value_missing":
		return &fault{text: text, key: "detail.kv_value_missing", args: map[string]any{"Entry": n}}
	}
	return &fault{text: text, key: "detail.kv_value_not_json", args: map[string]any{"Entry": n}}
}

// kvKeyFault is entry n's key refused by kvKeyProblem: its fault, said of that entry.
func kvKeyFault(n int, p *fault) *fault {
	args := map[string]any{"Entry": n}
	for k, v := range p.args {
		args[k] = v
	}
	return &fault{text: fmt.Sprintf("entry %d: key %s", n, p.text), key: p.key, args: args}
}

// parseKV reads a kv file strictly: one JSON object, no repeated key (the standard decoder
// would keep the last silently), every entry within the rules a write checks.
func parseKV(data []byte) (map[string]json.RawMessage, *fault) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, kvSyntaxFault(data, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		f := newFault("detail.kv_not_object", nil, "not a JSON object")
		return nil, &f
	}
	out := map[string]json.RawMessage{}
	for n := 1; dec.More(); n++ {
		tok, err := dec.Token()
		if err != nil {
			return nil, kvSyntaxFault(data, err)
		}
		key, _ := tok.(string)
		key = kvKey(key) // two spellings of one key in a hand-edited file repeat it
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, kvSyntaxFault(data, err)
		}
		if _, dup := out[key]; dup {
			f := newFault("detail.kv_repeated_key", map[string]any{"Entry": n}, "entry %d repeats a key", n)
			return nil, &f
		}
		if p := kvKeyProblem(key); p != nil {
			return nil, kvKeyFault(n, p)
		}
		v, err := normalizeKVValue(raw)
		if err != nil {
			return nil, kvEntryFault(n, err)
		}
		if kind, field := kvSecret(key, v); kind != "" {
			key := "detail.kv_secret_value"
			if field == "key" {
				key = "detail.kv_secret_key"
			}
			f := newFault(key, map[string]any{"Entry": n, "Kind": kind}, "entry %d: the %s looks like a secret (%s)", n, field, kind)
			return nil, &f
		}
		out[key] = v
		if len(out) > MaxKVKeys {
			f := newFault("detail.kv_too_many_keys", map[string]any{"Max": MaxKVKeys}, "more than %d keys", MaxKVKeys)
			return nil, &f
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, kvSyntaxFault(data, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		f := newFault("detail.kv_text_after", nil, "text after the JSON object")
		return nil, &f
	}
	return out, nil
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
	entries, f := parseKV(data)
	if f != nil {
		return nil, kvInvalid(rel, *f)
	}
	return entries, nil
}

// RenderKV is a kv.json in its canonical form (one key a line, sorted).
func RenderKV(entries map[string]json.RawMessage) ([]byte, error) { return renderKV(entries) }
