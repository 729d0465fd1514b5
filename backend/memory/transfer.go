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
// Its counts are the preview's (ImportPreview), line for line.
type ImportReport struct {
	Lines    int `json:"lines"`
	Imported int `json:"imported"`
	Daily    int `json:"daily"`
	// Duplicates were already in the store as the line has them (memories and journal text):
	// skipped. Conflicts name a memory the store or an earlier line holds with other content:
	// left out, the first version kept. Repeated lines said word for word what an earlier line
	// said: imported once. None of them is a failure; ConflictLines and RepeatLines list the
	// first MaxPreviewLines.
	Duplicates    int              `json:"duplicates"`
	Conflicts     int              `json:"conflicts"`
	Repeated      int              `json:"repeated"`
	ConflictLines []ImportConflict `json:"conflict_lines"`
	RepeatLines   []ImportConflict `json:"repeat_lines"`
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
	// Workdir is the project a project line that names no workdir goes to (`engram import
	// --workdir DIR`): such lines were refused for their empty folder though DIR was given.
	Workdir string
}

// Import reads JSONL records and writes them in batches, each memory unreviewed.
func (s *Store) Import(ctx context.Context, r io.Reader) (ImportReport, error) {
	return s.ImportWith(ctx, r, ImportOptions{})
}

// ImportWith reads JSONL records and writes them in batches. Each line succeeds or fails alone;
// a line the store already holds, or that collides with the store or an earlier line, is
// counted as such and writes nothing (a second import of the same file writes nothing).
func (s *Store) ImportWith(ctx context.Context, r io.Reader, opts ImportOptions) (ImportReport, error) {
	rep := ImportReport{ConflictLines: []ImportConflict{}, RepeatLines: []ImportConflict{}}
	sc := s.newImportScan(r, opts.Workdir)
	var items []Item
	var pending []lineVerdict
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
			if pending[i].v == vArchiveStep {
				// The write before it succeeded or was already counted (a failed write leaves
				// nothing to archive: one error for the line is enough).
				if !ir.OK && res.Results[i-1].OK {
					rep.Errors = append(rep.Errors, LineError{Line: pending[i].line, Code: ir.Code, Args: ir.Args, Message: ir.Message})
				}
				continue
			}
			if err := s.settle(ctx, &rep, pending[i], ir); err != nil {
				return err
			}
		}
		items, pending = items[:0], pending[:0]
		return nil
	}
	for {
		j, done, err := sc.next(ctx)
		if err != nil {
			return rep, err
		}
		if j.v != vSkip {
			rep.Lines++
		}
		switch j.v {
		case vRefused:
			rep.Errors = append(rep.Errors, *j.err)
		case vKV:
			kvLines = append(kvLines, kvLine{line: j.line, rec: j.kv})
		case vPresent:
			rep.Duplicates++
		case vConflict:
			rep.Conflicts++
			rep.ConflictLines = addNote(rep.ConflictLines, j.note)
		case vRepeat:
			rep.Repeated++
			rep.RepeatLines = addNote(rep.RepeatLines, j.note)
		case vNew, vDaily:
			items = append(items, recordItem(j.rec, opts))
			pending = append(pending, j)
			if j.rec.Archived && j.v == vNew {
				// Written, then archived in the same batch, before a live line of its slug.
				items = append(items, Item{Op: OpArchive, Scope: j.m.Scope, Workdir: j.rec.Workdir, Agent: j.rec.Agent, Slug: j.m.Slug})
				pending = append(pending, lineVerdict{line: j.line, v: vArchiveStep})
			}
			if len(items) >= 200 {
				if err := flush(); err != nil {
					return rep, err
				}
			}
		}
		if done {
			break
		}
	}
	if err := flush(); err != nil {
		return rep, err
	}
	if err := s.importKV(ctx, kvLines, ActorImport, &rep); err != nil {
		return rep, err
	}
	for i := range rep.Errors {
		sc.placeError(&rep.Errors[i])
	}
	sort.SliceStable(rep.Errors, func(i, j int) bool { return rep.Errors[i].Line < rep.Errors[j].Line })
	sc.placeNotes(rep.ConflictLines)
	sc.placeNotes(rep.RepeatLines)
	return rep, nil
}

// settle counts one written line. A memory another process wrote after the line was judged
// (already_exists) is counted as present or a conflict, as a later import would judge it.
func (s *Store) settle(ctx context.Context, rep *ImportReport, j lineVerdict, ir ItemResult) error {
	switch {
	case ir.OK && j.v == vDaily:
		rep.Daily++
		return nil
	case ir.OK:
		rep.Imported++
		return nil
	case ir.Code == CodeAlreadyExists && j.m != nil:
		have, err := existingFor(ctx, s.db, j.m, j.key, j.rec.ID)
		if err != nil {
			return err
		}
		if have != nil {
			if sameContent(have, j.m) {
				rep.Duplicates++
			} else {
				rep.Conflicts++
				rep.ConflictLines = addNote(rep.ConflictLines, ImportConflict{Line: j.line, Slug: j.m.Slug, ID: have.ID, Title: have.Title, Scope: j.m.Scope})
			}
			return nil
		}
	}
	rep.Errors = append(rep.Errors, LineError{Line: j.line, Code: ir.Code, Args: ir.Args, Message: ir.Message})
	return nil
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
		// The source goes along: a day restored with --keep-review keeps its own (a person's
		// journal is source.kind user), else it is the import's like every imported line.
		return Item{Op: OpAppendDaily, ID: rec.ID, Slug: rec.Slug, Text: rec.Body, Source: rec.Source, Created: rec.Created, Updated: rec.Updated}
	}
	title, body, quote, reasoning, subject := rec.Title, rec.Body, rec.SourceQuote, rec.Reasoning, rec.Subject
	return Item{Op: OpWrite, ID: rec.ID, Slug: rec.Slug, Scope: rec.Scope, Workdir: rec.Workdir, Agent: rec.Agent, ProjectKey: rec.Project,
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
		Subject: m.Subject, Created: &c, Updated: &u, Archived: m.Archived, Body: m.Body}
	if m.Source != (Source{}) {
		src := m.Source
		rec.Source = &src
	}
	if m.Scope == ScopeProject && m.Workdir == "" {
		rec.Project = m.ScopeKey() // its folder unknown here: the key alone says where it lives
	}
	return rec
}

// Export writes every memory matching f as JSONL — the archived ones first (marked
// "archived"), then the live ones, each oldest first so a re-import keeps order and a slug
// archived and then used again comes back as both — then the keys of the agents' namespaces f
// covers (KVRecord lines); it returns the memories written (ExportCounted counts both).
// Archived journal days stay out: a day imported is appended to the live journal.
func (s *Store) Export(ctx context.Context, w io.Writer, f Filter) (int, error) {
	c, err := s.ExportCounted(ctx, w, f)
	return c.Memories, err
}

// exportMemories writes the memory lines and counts them, the journal days among them in daily.
func (s *Store) exportMemories(ctx context.Context, enc *json.Encoder, f Filter, daily *int) (int, error) {
	archived := f
	archived.Archived = true
	n, err := s.exportRows(ctx, enc, archived, "m.type <> 'daily'", daily)
	if err != nil {
		return n, err
	}
	f.Archived = false
	live, err := s.exportRows(ctx, enc, f, "1", daily)
	return n + live, err
}

// exportRows writes the memories matching f and the extra condition, oldest first, adding the
// journal days among them to daily.
func (s *Store) exportRows(ctx context.Context, enc *json.Encoder, f Filter, extra string, daily *int) (int, error) {
	where, args, err := f.where(s.projects)
	if err != nil {
		return 0, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+metaColumns+` FROM memory_meta m WHERE (`+where+`) AND `+extra+` ORDER BY m.created, m.rid`, args...)
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
		if m.Type == TypeDaily {
			*daily++
		}
	}
	return n, rows.Err()
}
