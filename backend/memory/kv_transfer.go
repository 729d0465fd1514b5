package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// KVRecordKind marks a key-value line in a JSONL export. A memory line has no "kind" field, and
// an importer from before key-value namespaces refuses unknown fields, so it reports such a
// line as unreadable instead of taking it for a memory.
const KVRecordKind = "kv"

// KVRecord is the JSONL form of one key of one agent.
type KVRecord struct {
	Kind  string          `json:"kind"`
	Agent string          `json:"agent"`
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// ExportCounts says what an export wrote.
type ExportCounts struct {
	Memories int `json:"memories"`
	KV       int `json:"kv"`
}

// kvAgentsFor lists the agents whose keys an export with f carries: every agent with a kv file
// for an unfiltered export, the named agent (or all) for an agent-scope one, none otherwise.
func (s *Store) kvAgentsFor(f Filter) []string {
	switch {
	case f.Workdir != "" || (f.Scope != "" && f.Scope != ScopeAgent) || f.Type != "" || f.Reviewed != nil || f.Archived:
		return nil
	case f.Agent != "":
		return []string{f.Agent}
	}
	dirs, err := os.ReadDir(filepath.Join(s.root, "agents"))
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range dirs {
		if d.IsDir() && ValidAgent(d.Name()) {
			if _, err := os.Lstat(s.abs(kvRel(d.Name()))); err == nil {
				out = append(out, d.Name())
			}
		}
	}
	sort.Strings(out)
	return out
}

// exportKV writes the keys of the agents f selects, one KVRecord a line. An agent's file that
// cannot be used fails the export (kv_file_invalid) rather than leaving its keys out unsaid.
func (s *Store) exportKV(enc *json.Encoder, f Filter) (int, error) {
	n := 0
	for _, agent := range s.kvAgentsFor(f) {
		if !ValidAgent(agent) {
			continue
		}
		kv, err := s.loadKV(agent)
		if err != nil {
			return n, err
		}
		keys := make([]string, 0, len(kv.entries))
		for k := range kv.entries {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := enc.Encode(KVRecord{Kind: KVRecordKind, Agent: agent, Key: k, Value: kv.entries[k]}); err != nil {
				return n, fmt.Errorf("memory: unable to write export: %w", err)
			}
			n++
		}
	}
	return n, nil
}

// kvLine is a key-value import line waiting for its agent's one write.
type kvLine struct {
	line int
	rec  KVRecord
}

// kvKind returns the "kind" of a JSONL line ("" for a memory line).
func kvKind(line string) string {
	var probe struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal([]byte(line), &probe)
	return probe.Kind
}

// decodeKVLine reads a key-value line strictly.
func decodeKVLine(line string) (KVRecord, error) {
	var rec KVRecord
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	err := dec.Decode(&rec)
	return rec, err
}

// importKV merges key-value lines into the agents' namespaces: a missing key is added, an
// equal one counted as unchanged, and a key holding a different value keeps it — the line is
// reported as kv_conflict, never silently overwritten. One write per agent.
func (s *Store) importKV(ctx context.Context, lines []kvLine, actor string, rep *ImportReport) error {
	byAgent := map[string][]kvLine{}
	var order []string
	for _, l := range lines {
		if _, ok := byAgent[l.rec.Agent]; !ok {
			order = append(order, l.rec.Agent)
		}
		byAgent[l.rec.Agent] = append(byAgent[l.rec.Agent], l)
	}
	refuse := func(l kvLine, err error) {
		e, ok := err.(*Error)
		if !ok {
			e = codeErr(CodeInternal, map[string]any{"Detail": err.Error()}, "%v", err)
		}
		rep.Errors = append(rep.Errors, LineError{Line: l.line, Code: e.Code, Args: e.Args, Message: fmt.Sprintf("line %d: %s", l.line, e.Msg)})
	}
	for _, agent := range order {
		var added []string
		err := s.withLock(func() error {
			ok := byAgent[agent][:0:0]
			for _, l := range byAgent[agent] {
				v, err := normalizeKVValue(l.rec.Value)
				if err == nil {
					err = checkKVEntry(l.rec.Key, v)
				}
				if err == nil {
					err = checkKVAgent(agent)
				}
				if err != nil {
					refuse(l, err)
					continue
				}
				l.rec.Value = v
				ok = append(ok, l)
			}
			if len(ok) == 0 {
				return nil
			}
			f, err := s.loadKV(agent)
			if err != nil {
				for _, l := range ok {
					refuse(l, err)
				}
				return nil
			}
			var fresh []kvLine
			for _, l := range ok {
				old, had := f.entries[l.rec.Key]
				switch {
				case had && bytes.Equal(old, l.rec.Value):
					rep.KVUnchanged++
				case had:
					rep.KVConflicts++
					refuse(l, codeErr(CodeKVConflict, map[string]any{"Agent": agent, "Key": l.rec.Key},
						"key %q of agent %s already holds a different value; the current one was kept", l.rec.Key, agent))
				case len(f.entries) >= MaxKVKeys:
					refuse(l, codeErr(CodeKVTooManyKeys, map[string]any{"Agent": agent, "Max": MaxKVKeys}, "agent %s already has %d keys", agent, MaxKVKeys))
				default:
					f.entries[l.rec.Key] = l.rec.Value
					fresh = append(fresh, l)
				}
			}
			if len(fresh) == 0 {
				return nil
			}
			if err := s.saveKVLocked(agent, f); err != nil {
				for _, l := range fresh {
					refuse(l, err)
				}
				return nil
			}
			for _, l := range fresh {
				s.kvAudit(ctx, OpKVSet, KVChange{Agent: agent, Key: l.rec.Key, Actor: actor})
				added = append(added, l.rec.Key)
			}
			rep.KV += len(fresh)
			return nil
		})
		if err != nil {
			return err
		}
		if len(added) > 0 {
			s.kvChanged(agent, added)
		}
	}
	return nil
}

// ExportCounted is Export reporting memories and keys apart.
func (s *Store) ExportCounted(ctx context.Context, w io.Writer, f Filter) (ExportCounts, error) {
	var c ExportCounts
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	n, err := s.exportMemories(ctx, enc, f)
	c.Memories = n
	if err != nil {
		return c, err
	}
	c.KV, err = s.exportKV(enc, f)
	return c, err
}
