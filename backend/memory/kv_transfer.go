package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

// ExportCounts says what an export wrote. Problems are the agents' key files it could not
// read: their keys are not in the export, and each says which file and why.
type ExportCounts struct {
	// Memories counts every memory line, journal days included; Daily those days.
	Memories int             `json:"memories"`
	Daily    int             `json:"daily"`
	KV       int             `json:"kv"`
	Problems []ExportProblem `json:"problems,omitempty"`
}

// ExportProblem is a file an export left out: its code (kv_file_invalid), arguments (Path,
// Detail) and English message.
type ExportProblem struct {
	Code    string         `json:"code"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
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
// cannot be used (a hand edit with a repeated key) is left out and reported: it used to fail
// the whole export, which then wrote nothing at all for one bad agent file.
func (s *Store) exportKV(enc *json.Encoder, f Filter) (int, []ExportProblem, error) {
	n := 0
	var problems []ExportProblem
	for _, agent := range s.kvAgentsFor(f) {
		if !ValidAgent(agent) {
			continue
		}
		kv, err := s.loadKV(agent)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				return n, problems, err
			}
			problems = append(problems, ExportProblem{Code: e.Code, Args: e.Args, Message: e.Msg})
			continue
		}
		keys := make([]string, 0, len(kv.entries))
		for k := range kv.entries {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := enc.Encode(KVRecord{Kind: KVRecordKind, Agent: agent, Key: k, Value: kv.entries[k]}); err != nil {
				return n, problems, fmt.Errorf("memory: unable to write export: %w", err)
			}
			n++
		}
	}
	return n, problems, nil
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

// kvByAgent groups key-value lines by agent, agents in the order they first appear.
func kvByAgent(lines []kvLine) (map[string][]kvLine, []string) {
	by := map[string][]kvLine{}
	var order []string
	for _, l := range lines {
		if _, ok := by[l.rec.Agent]; !ok {
			order = append(order, l.rec.Agent)
		}
		by[l.rec.Agent] = append(by[l.rec.Agent], l)
	}
	return by, order
}

// kvLineError is a refused key-value line (an internal failure keeps its text).
func kvLineError(l kvLine, err error) LineError {
	e, ok := err.(*Error)
	if !ok {
		e = codeErr(CodeInternal, map[string]any{"Detail": err.Error()}, "%v", err)
	}
	return LineError{Line: l.line, Code: e.Code, Args: e.Args, Message: e.Msg}
}

// kvTally is what one agent's lines do to its namespace.
type kvTally struct {
	fresh              []kvLine // keys to add
	unchanged, clashes int
	refused            []LineError // lines refused, and keys kept at another value (kv_conflict)
}

// judgeKV decides one agent's lines against its namespace, for the import and its preview
// alike: a line breaking a rule, a secret or an agent name Engram cannot hold is refused; a
// missing key is added (to entries, so a later line sees it), an equal one is unchanged, and
// a key holding a different value keeps it — kv_conflict, never silently overwritten. load
// reads the namespace; a file that cannot be used refuses every line that reached it.
func judgeKV(agent string, lines []kvLine, load func() (kvFile, error)) (kvTally, kvFile) {
	var t kvTally
	ok := lines[:0:0]
	for _, l := range lines {
		v, err := normalizeKVValue(l.rec.Value)
		if err == nil {
			err = checkKVEntry(l.rec.Key, v)
		}
		if err == nil {
			err = checkKVAgent(agent)
		}
		if err != nil {
			t.refused = append(t.refused, kvLineError(l, err))
			continue
		}
		l.rec.Value, l.rec.Key = v, kvKey(l.rec.Key)
		ok = append(ok, l)
	}
	if len(ok) == 0 {
		return t, kvFile{}
	}
	f, err := load()
	if err != nil {
		for _, l := range ok {
			t.refused = append(t.refused, kvLineError(l, err))
		}
		return t, kvFile{}
	}
	for _, l := range ok {
		old, had := f.entries[l.rec.Key]
		switch {
		case had && bytes.Equal(old, l.rec.Value):
			t.unchanged++
		case had:
			t.clashes++
			t.refused = append(t.refused, kvLineError(l, codeErr(CodeKVConflict, map[string]any{"Agent": agent, "Key": l.rec.Key},
				"key %q of agent %s already holds a different value; the current one was kept", l.rec.Key, agent)))
		case len(f.entries) >= MaxKVKeys:
			t.refused = append(t.refused, kvLineError(l, codeErr(CodeKVTooManyKeys, map[string]any{"Agent": agent, "Max": MaxKVKeys}, "agent %s already has %d keys", agent, MaxKVKeys)))
		default:
			f.entries[l.rec.Key] = l.rec.Value
			t.fresh = append(t.fresh, l)
		}
	}
	return t, f
}

// importKV merges key-value lines into the agents' namespaces (judgeKV), one write per agent.
func (s *Store) importKV(ctx context.Context, lines []kvLine, actor string, rep *ImportReport) error {
	byAgent, order := kvByAgent(lines)
	for _, agent := range order {
		var added []string
		err := s.withLock(func() error {
			t, f := judgeKV(agent, byAgent[agent], func() (kvFile, error) { return s.loadKV(agent) })
			rep.Errors = append(rep.Errors, t.refused...)
			rep.KVUnchanged += t.unchanged
			rep.KVConflicts += t.clashes
			if len(t.fresh) == 0 {
				return nil
			}
			if err := s.saveKVLocked(agent, f); err != nil {
				for _, l := range t.fresh {
					rep.Errors = append(rep.Errors, kvLineError(l, err))
				}
				return nil
			}
			for _, l := range t.fresh {
				s.kvAudit(ctx, OpKVSet, KVChange{Agent: agent, Key: l.rec.Key, Actor: actor})
				added = append(added, l.rec.Key)
			}
			rep.KV += len(t.fresh)
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

// previewKV judges key-value lines as importKV will, writing nothing: the preview counted every
// kv line as a key and the import then refused a secret, a bad agent and a changed key.
func (s *Store) previewKV(lines []kvLine, p *ImportPreview) error {
	byAgent, order := kvByAgent(lines)
	for _, agent := range order {
		t, _ := judgeKV(agent, byAgent[agent], func() (kvFile, error) { return s.loadKV(agent) })
		for _, le := range t.refused {
			if le.Code != CodeKVConflict {
				p.Invalid++
			}
			p.Errors = append(p.Errors, le)
		}
		p.KV += len(t.fresh)
		p.KVUnchanged += t.unchanged
		p.KVConflicts += t.clashes
	}
	return nil
}

// ExportCounted is Export reporting memories and keys apart. An agent's key file it cannot
// read is left out and the rest still written: c.Problems lists every such file and err is
// the first (kv_file_invalid), so a caller that only checks err still learns the export is
// not whole, and one that reads c keeps everything that could be written.
func (s *Store) ExportCounted(ctx context.Context, w io.Writer, f Filter) (ExportCounts, error) {
	var c ExportCounts
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	n, err := s.exportMemories(ctx, enc, f, &c.Daily)
	c.Memories = n
	if err != nil {
		return c, err
	}
	c.KV, c.Problems, err = s.exportKV(enc, f)
	if err == nil && len(c.Problems) > 0 {
		pr := c.Problems[0]
		err = codeErr(pr.Code, pr.Args, "%s", pr.Message)
	}
	return c, err
}
