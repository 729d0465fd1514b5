package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"engram/backend/memory/format"
)

// Record is the JSONL form of a memory for import and export (format.Record).
type Record = format.Record

// LineError is a rejected import line.
type LineError struct {
	Line    int            `json:"line"`
	Code    string         `json:"code"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
}

// ImportReport says what an import did; good lines are kept whatever happened to bad ones.
type ImportReport struct {
	Lines    int `json:"lines"`
	Imported int `json:"imported"`
	Daily    int `json:"daily"`
	// KV counts keys added to agents' namespaces, KVUnchanged keys that already held the
	// line's value, KVConflicts keys that held another value (kept; each is also an error).
	KV          int         `json:"kv"`
	KVUnchanged int         `json:"kv_unchanged"`
	KVConflicts int         `json:"kv_conflicts"`
	Errors      []LineError `json:"errors"`
}

// MaxImportLine bounds one JSONL line: a body is at most 8 KiB, so 1 MiB is generous.
const MaxImportLine = 1 << 20

// Codes of refused import lines (the per-item codes of a batch pass through as well).
const (
	CodeLineTooLong     = "line_too_long"
	CodeImportSlugPath  = "import_slug_path"
	CodeImportDailyDate = "import_daily_date"
	CodeImportFuture    = "import_daily_future"
)

// ImportOptions tune an import.
type ImportOptions struct {
	// KeepReview keeps each line's reviewed flag and source: only for a person restoring
	// their own Engram export (CLI, desktop). Otherwise a file cannot vouch for itself, so
	// every memory lands unreviewed with source.kind "import".
	KeepReview bool
}

// Import reads JSONL records and writes them in batches, each memory unreviewed.
func (s *Store) Import(ctx context.Context, r io.Reader) (ImportReport, error) {
	return s.ImportWith(ctx, r, ImportOptions{})
}

// ImportWith reads JSONL records and writes them in batches. Each line succeeds or fails alone.
func (s *Store) ImportWith(ctx context.Context, r io.Reader, opts ImportOptions) (ImportReport, error) {
	var rep ImportReport
	lr := newLineReader(r, MaxImportLine)
	var items []Item
	var lines []int
	var kvLines []kvLine
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
	refuse := func(n int, code string, args map[string]any, format string, a ...any) {
		rep.Errors = append(rep.Errors, LineError{Line: n, Code: code, Args: args, Message: fmt.Sprintf("line %d: ", n) + fmt.Sprintf(format, a...)})
	}
	n := 0
	for {
		raw, tooLong, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			refuse(n+1, CodeParseError, map[string]any{"Detail": err.Error()}, "%v", err)
			break
		}
		n++
		if tooLong {
			// Only this line is lost: the reader skipped to its end and goes on.
			rep.Lines++
			refuse(n, CodeLineTooLong, map[string]any{"Line": n, "Max": MaxImportLine}, "longer than %d bytes", MaxImportLine)
			continue
		}
		line := strings.TrimSpace(string(raw))
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		rep.Lines++
		if kind := kvKind(line); kind == KVRecordKind {
			kr, err := decodeKVLine(line)
			if err != nil {
				code, args := lineJSONError(err, line)
				refuse(n, code, args, "invalid JSON: %v", err)
				continue
			}
			kvLines = append(kvLines, kvLine{line: n, rec: kr})
			continue
		}
		var rec Record
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			code, args := lineJSONError(err, line)
			refuse(n, code, args, "invalid JSON: %v", err)
			continue
		}
		if le := s.checkRecord(rec); le != nil {
			le.Line = n
			le.Message = fmt.Sprintf("line %d: %s", n, le.Message)
			rep.Errors = append(rep.Errors, *le)
			continue
		}
		items = append(items, recordItem(rec, opts))
		lines = append(lines, n)
		if len(items) == 200 {
			if err := flush(); err != nil {
				return rep, err
			}
		}
	}
	if err := flush(); err != nil {
		return rep, err
	}
	if err := s.importKV(ctx, kvLines, ActorImport, &rep); err != nil {
		return rep, err
	}
	sort.SliceStable(rep.Errors, func(i, j int) bool { return rep.Errors[i].Line < rep.Errors[j].Line })
	return rep, nil
}

// futureSlack is how far ahead of this machine's date a journal day may be: the export may
// come from a time zone up to 14 hours ahead, where tomorrow has already begun.
const futureSlack = 14 * time.Hour

// checkRecord refuses what the batch would misread: a slug naming a path, and journal days
// that are not a date or lie in the future (the journal is a record of what happened).
func (s *Store) checkRecord(rec Record) *LineError {
	if strings.ContainsAny(rec.Slug, `/\`) || strings.Contains(rec.Slug, "..") {
		return &LineError{Code: CodeImportSlugPath, Args: map[string]any{"Slug": rec.Slug},
			Message: fmt.Sprintf("slug %q is a path", rec.Slug)}
	}
	if rec.Type != TypeDaily {
		return nil
	}
	day, err := time.Parse("2006-01-02", rec.Slug)
	if err != nil || !dateRE.MatchString(rec.Slug) {
		return &LineError{Code: CodeImportDailyDate, Args: map[string]any{"Slug": rec.Slug},
			Message: fmt.Sprintf("journal day %q is not a date (YYYY-MM-DD)", rec.Slug)}
	}
	limit := s.opts.Now().Add(futureSlack)
	latest := JournalDay(limit, s.opts.Location)
	future := rec.Slug > latest
	for _, t := range []*time.Time{rec.Created, rec.Updated} {
		if t != nil && t.After(limit) {
			future = true
		}
	}
	if future {
		return &LineError{Code: CodeImportFuture, Args: map[string]any{"Day": day.Format("2006-01-02"), "Today": JournalDay(s.opts.Now(), s.opts.Location)},
			Message: fmt.Sprintf("journal day %s is in the future", rec.Slug)}
	}
	return nil
}

// lineReader yields lines of at most max bytes; a longer line is skipped to its end and
// reported, so one bad line never hides the lines after it (bufio.Scanner stops for good).
type lineReader struct {
	br  *bufio.Reader
	max int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its newline. tooLong means the line was skipped; err is
// io.EOF with the last line (which may lack a newline) or after it.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	l.buf = l.buf[:0]
	read := false
	for {
		chunk, err := l.br.ReadSlice('\n')
		if len(chunk) > 0 {
			read = true
		}
		// Past max (+2 for "\r\n") the rest of the line is only skipped, never held.
		if !tooLong && len(l.buf)+len(chunk) > l.max+2 {
			tooLong, l.buf = true, l.buf[:0]
		}
		if !tooLong {
			l.buf = append(l.buf, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil || (errors.Is(err, io.EOF) && read):
			if line = trimNewline(l.buf); tooLong || len(line) > l.max {
				return nil, true, nil
			}
			return line, false, nil
		default: // io.EOF with nothing read, or a read failure
			return nil, false, err
		}
	}
}

func trimNewline(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

func recordItem(rec Record, opts ImportOptions) Item {
	if !opts.KeepReview {
		no := false
		rec.Reviewed = &no
		src := Source{}
		if rec.Source != nil {
			src = *rec.Source
		}
		src.Kind = ActorImport
		rec.Source = &src
	}
	if rec.Type == TypeDaily {
		return Item{Op: OpAppendDaily, ID: rec.ID, Slug: rec.Slug, Text: rec.Body, Created: rec.Created, Updated: rec.Updated}
	}
	title, body, quote, reasoning, subject := rec.Title, rec.Body, rec.SourceQuote, rec.Reasoning, rec.Subject
	return Item{Op: OpWrite, ID: rec.ID, Slug: rec.Slug, Scope: rec.Scope, Workdir: rec.Workdir, Agent: rec.Agent,
		Type: rec.Type, Title: &title, Body: &body, Confidence: rec.Confidence, SourceQuote: &quote,
		Reasoning: &reasoning, Aliases: rec.Aliases, Tags: rec.Tags, Supersedes: rec.Supersedes,
		ConflictsWith: rec.ConflictsWith, Subject: &subject, Source: rec.Source, Reviewed: rec.Reviewed, Created: rec.Created, Updated: rec.Updated,
		AutoDowngraded: rec.AutoDowngraded}
}

// RecordOf converts a memory to its JSONL form.
func RecordOf(m *Memory) Record {
	rev := m.Reviewed
	c, u := m.Created, m.Updated
	rec := Record{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Workdir: m.Workdir, Agent: m.Agent, Type: m.Type,
		Confidence: m.Confidence, AutoDowngraded: m.AutoDowngraded, Reviewed: &rev, SourceQuote: m.SourceQuote,
		Reasoning: m.Reasoning, Aliases: m.Aliases, Tags: m.Tags, Supersedes: m.Supersedes, ConflictsWith: m.ConflictsWith,
		Subject: m.Subject, Created: &c, Updated: &u, Body: m.Body}
	if m.Source != (Source{}) {
		src := m.Source
		rec.Source = &src
	}
	return rec
}

// Export writes every live memory matching f as JSONL, oldest first so a re-import keeps order,
// then the keys of the agents' namespaces f covers (KVRecord lines); it returns the memories
// written (ExportCounted counts both).
func (s *Store) Export(ctx context.Context, w io.Writer, f Filter) (int, error) {
	c, err := s.ExportCounted(ctx, w, f)
	return c.Memories, err
}

func (s *Store) exportMemories(ctx context.Context, enc *json.Encoder, f Filter) (int, error) {
	where, args, err := f.where(s.projects)
	if err != nil {
		return 0, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+metaColumns+` FROM memory_meta m WHERE `+where+` ORDER BY m.created, m.rid`, args...)
	if err != nil {
		return 0, fmt.Errorf("memory: unable to export: %w", err)
	}
	defer rows.Close()
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
