package memory

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// Record is the JSONL form of a memory for import and export: the frontmatter fields plus body.
type Record struct {
	ID             string     `json:"id,omitempty"`
	Slug           string     `json:"slug"`
	Title          string     `json:"title"`
	Scope          Scope      `json:"scope"`
	Workdir        string     `json:"workdir,omitempty"`
	Agent          string     `json:"agent,omitempty"`
	Type           Type       `json:"type"`
	Confidence     Confidence `json:"confidence,omitempty"`
	AutoDowngraded bool       `json:"auto_downgraded,omitempty"`
	Reviewed       *bool      `json:"reviewed,omitempty"`
	SourceQuote    string     `json:"source_quote,omitempty"`
	Reasoning      string     `json:"reasoning,omitempty"`
	Aliases        []string   `json:"aliases,omitempty"`
	Tags           []string   `json:"tags,omitempty"`
	Supersedes     []string   `json:"supersedes,omitempty"`
	ConflictsWith  []string   `json:"conflicts_with,omitempty"`
	Source         *Source    `json:"source,omitempty"`
	Created        *time.Time `json:"created,omitempty"`
	Updated        *time.Time `json:"updated,omitempty"`
	Body           string     `json:"body"`
}

// LineError is a rejected import line.
type LineError struct {
	Line    int            `json:"line"`
	Code    string         `json:"code"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
}

// ImportReport says what an import did; good lines are kept whatever happened to bad ones.
type ImportReport struct {
	Lines    int         `json:"lines"`
	Imported int         `json:"imported"`
	Daily    int         `json:"daily"`
	Errors   []LineError `json:"errors"`
}

// MaxImportLine bounds one JSONL line: a body is at most 8 KiB, so 1 MiB is generous.
const MaxImportLine = 1 << 20

// Import reads JSONL records and writes them in batches. Each line succeeds or fails alone.
func (s *Store) Import(ctx context.Context, r io.Reader) (ImportReport, error) {
	var rep ImportReport
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxImportLine)
	var items []Item
	var lines []int
	flush := func() error {
		if len(items) == 0 {
			return nil
		}
		res, err := s.ApplyBatch(ctx, Batch{Items: items, Actor: ActorImport})
		if err != nil {
			return err
		}
		for i, ir := range res.Results {
			switch {
			case ir.OK && items[i].Op == OpAppendDaily:
				rep.Daily++
			case ir.OK:
				rep.Imported++
			default:
				rep.Errors = append(rep.Errors, LineError{Line: lines[i], Code: ir.Code, Args: ir.Args, Message: ir.Message})
			}
		}
		items, lines = items[:0], lines[:0]
		return nil
	}
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		rep.Lines++
		var rec Record
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			rep.Errors = append(rep.Errors, LineError{Line: n, Code: CodeParseError, Args: map[string]any{"Detail": err.Error()},
				Message: fmt.Sprintf("line %d: invalid JSON: %v", n, err)})
			continue
		}
		items = append(items, rec.item())
		lines = append(lines, n)
		if len(items) == 200 {
			if err := flush(); err != nil {
				return rep, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		rep.Errors = append(rep.Errors, LineError{Line: n + 1, Code: CodeParseError, Args: map[string]any{"Detail": err.Error()},
			Message: fmt.Sprintf("line %d: %v", n+1, err)})
	}
	if err := flush(); err != nil {
		return rep, err
	}
	return rep, nil
}

func (rec Record) item() Item {
	if rec.Type == TypeDaily {
		return Item{Op: OpAppendDaily, ID: rec.ID, Slug: rec.Slug, Text: rec.Body, Created: rec.Created, Updated: rec.Updated}
	}
	title, body, quote, reasoning := rec.Title, rec.Body, rec.SourceQuote, rec.Reasoning
	return Item{Op: OpWrite, ID: rec.ID, Slug: rec.Slug, Scope: rec.Scope, Workdir: rec.Workdir, Agent: rec.Agent,
		Type: rec.Type, Title: &title, Body: &body, Confidence: rec.Confidence, SourceQuote: &quote,
		Reasoning: &reasoning, Aliases: rec.Aliases, Tags: rec.Tags, Supersedes: rec.Supersedes,
		ConflictsWith: rec.ConflictsWith, Source: rec.Source, Reviewed: rec.Reviewed, Created: rec.Created, Updated: rec.Updated,
		AutoDowngraded: rec.AutoDowngraded}
}

// RecordOf converts a memory to its JSONL form.
func RecordOf(m *Memory) Record {
	rev := m.Reviewed
	c, u := m.Created, m.Updated
	rec := Record{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Workdir: m.Workdir, Agent: m.Agent, Type: m.Type,
		Confidence: m.Confidence, AutoDowngraded: m.AutoDowngraded, Reviewed: &rev, SourceQuote: m.SourceQuote,
		Reasoning: m.Reasoning, Aliases: m.Aliases, Tags: m.Tags, Supersedes: m.Supersedes, ConflictsWith: m.ConflictsWith,
		Created: &c, Updated: &u, Body: m.Body}
	if m.Source != (Source{}) {
		src := m.Source
		rec.Source = &src
	}
	return rec
}

// Export writes every live memory matching f as JSONL, oldest first so a re-import keeps order.
func (s *Store) Export(ctx context.Context, w io.Writer, f Filter) (int, error) {
	where, args, err := f.where()
	if err != nil {
		return 0, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+metaColumns+` FROM memory_meta m WHERE `+where+` ORDER BY m.created, m.rid`, args...)
	if err != nil {
		return 0, fmt.Errorf("memory: unable to export: %w", err)
	}
	defer rows.Close()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	n := 0
	for rows.Next() {
		m, _, err := scanMemory(rows)
		if err != nil {
			return n, fmt.Errorf("memory: unable to scan export row: %w", err)
		}
		if err := enc.Encode(RecordOf(m)); err != nil {
			return n, fmt.Errorf("memory: unable to write export: %w", err)
		}
		n++
	}
	return n, rows.Err()
}
