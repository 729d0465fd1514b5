package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"

	"engram/backend/memory/format"
)

// An import and its preview judge every line with the same code (importScan): each used to
// decide alone, so the preview announced "1 already present" and the import then failed that
// line as already_exists (exit 1), and a repeated line was called a conflict with the store.

// verdict is what an import does with one line.
type verdict int

const (
	vSkip        verdict = iota // a blank line or a comment
	vRefused                    // not imported, with its reason
	vKV                         // a key of an agent's namespace, judged with its agent's other lines
	vNew                        // a memory to write
	vDaily                      // journal text to append to its day
	vPresent                    // already in the store as the line has it: nothing to do
	vConflict                   // the store, or an earlier line, holds other content: kept as it is
	vRepeat                     // an earlier line of the same source said the same: imported once
	vArchiveStep                // not a line: the archive that follows an archived line's write
)

// lineVerdict is one line and its verdict.
type lineVerdict struct {
	line int
	v    verdict
	err  *LineError     // vRefused
	rec  Record         // vNew, vDaily
	kv   KVRecord       // vKV
	m    *Memory        // vNew: the memory as the write would make it
	key  string         // vNew: its scope key
	note ImportConflict // vConflict, vRepeat
}

// ImportOrigin names where a line of a converted source came from (memory.import with
// another tool's format): the file, and the entry of a list or the line of a file (from 1).
// The import's line numbers are those of the converted JSONL, which the person never sees.
type ImportOrigin struct {
	Path  string `json:"path"`
	Entry int    `json:"entry,omitempty"`
	Line  int    `json:"line,omitempty"`
}

// originPrefix starts the comment naming a record line's origin: "// origin 12 {json}". A
// comment is skipped by every Engram import, so the JSONL stays an ordinary export.
const originPrefix = "// origin "

// OriginComment is the comment that names the origin of JSONL line n.
func OriginComment(n int, o ImportOrigin) string {
	b, _ := json.Marshal(o) // three plain fields always encode
	return originPrefix + strconv.Itoa(n) + " " + string(b)
}

// seenLine is the first line of a source that gave a slug, an id or a journal entry.
type seenLine struct {
	line        int
	title, body string
}

// importScan reads an import's lines and judges each against the store as it is now and the
// lines before it.
type importScan struct {
	s       *Store
	lr      *lineReader
	n       int
	first   map[string]seenLine
	origins map[int]ImportOrigin
	workdir string // for project lines that name none (ImportOptions.Workdir)
}

func (s *Store) newImportScan(r io.Reader, workdir string) *importScan {
	return &importScan{s: s, lr: newLineReader(r, MaxImportLine), first: map[string]seenLine{}, origins: map[int]ImportOrigin{},
		workdir: workdir}
}

var utf8BOM = []byte("\ufeff")

// next reads and judges the next line. done is set with the last line (io.EOF, or a read
// failure reported on the line it stopped at); err is a failure of the store or the context.
func (sc *importScan) next(ctx context.Context) (j lineVerdict, done bool, err error) {
	if err := ctx.Err(); err != nil {
		return lineVerdict{}, true, err
	}
	raw, tooLong, rerr := sc.lr.next()
	if errors.Is(rerr, io.EOF) {
		return lineVerdict{v: vSkip}, true, nil
	}
	if rerr != nil {
		return refusedLine(sc.n+1, CodeParseError, map[string]any{"Detail": rerr.Error()}, "%v", rerr), true, nil
	}
	sc.n++
	n := sc.n
	if tooLong {
		// Only this line is lost: the reader skipped to its end and goes on.
		return refusedLine(n, CodeLineTooLong, map[string]any{"Line": n, "Max": MaxImportLine}, "longer than %d bytes", MaxImportLine), false, nil
	}
	if n == 1 {
		// A file saved "UTF-8 with BOM" (Notepad) starts with U+FEFF: not part of the record.
		raw = bytes.TrimPrefix(raw, utf8BOM)
	}
	line := strings.TrimSpace(string(raw))
	if strings.HasPrefix(line, originPrefix) {
		sc.readOrigin(line)
	}
	if line == "" || strings.HasPrefix(line, "//") {
		return lineVerdict{line: n, v: vSkip}, false, nil
	}
	if !utf8.ValidString(line) {
		// The JSON decoder would turn the bad bytes into U+FFFD and import the damage unsaid.
		return refusedLine(n, CodeLineNotUTF8, map[string]any{"Offset": badUTF8Offset(raw)}, "not UTF-8 text"), false, nil
	}
	if kvKind(line) == KVRecordKind {
		kr, err := decodeKVLine(line)
		if err != nil {
			code, args := lineJSONError(err, line)
			return refusedLine(n, code, args, "invalid JSON: %v", err), false, nil
		}
		return lineVerdict{line: n, v: vKV, kv: kr}, false, nil
	}
	var rec Record
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		code, args := lineJSONError(err, line)
		return refusedLine(n, code, args, "invalid JSON: %v", err), false, nil
	}
	if rec.Scope == ScopeProject && strings.TrimSpace(rec.Workdir) == "" {
		rec.Workdir = sc.workdir
		if rec.Workdir == "" && rec.Project == "" {
			return refusedLine(n, CodeImportNoProject, nil, "a project line names neither workdir nor project"), false, nil
		}
	}
	if le := sc.s.checkRecord(rec); le != nil {
		le.Line = n
		return lineVerdict{line: n, v: vRefused, err: le}, false, nil
	}
	if rec.Type == TypeDaily {
		j, err = sc.judgeDaily(ctx, n, rec)
	} else {
		j, err = sc.judgeMemory(ctx, n, rec)
	}
	return j, false, err
}

func refusedLine(n int, code string, args map[string]any, msgf string, a ...any) lineVerdict {
	return lineVerdict{line: n, v: vRefused, err: &LineError{Line: n, Code: code, Args: args, Message: fmt.Sprintf(msgf, a...)}}
}

// refusedErr turns a store error into a refused line (an internal failure keeps its text).
func refusedErr(n int, err error) lineVerdict {
	le := LineError{Line: n, Code: CodeOf(err), Message: strings.TrimPrefix(err.Error(), "memory: ")}
	var ce *Error
	if errors.As(err, &ce) {
		le.Args = ce.Args
	} else {
		le.Args = map[string]any{"Detail": err.Error()}
	}
	return lineVerdict{line: n, v: vRefused, err: &le}
}

// badUTF8Offset is the 1-based byte offset of the first byte that is not UTF-8.
func badUTF8Offset(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i + 1
		}
		i += size
	}
	return 0
}

// readOrigin keeps the origin a comment gives for a line; a malformed one is only a comment.
func (sc *importScan) readOrigin(line string) {
	num, js, ok := strings.Cut(strings.TrimPrefix(line, originPrefix), " ")
	n, err := strconv.Atoi(num)
	var o ImportOrigin
	if ok && err == nil && n > 0 && json.Unmarshal([]byte(js), &o) == nil && o.Path != "" {
		sc.origins[n] = o
	}
}

// judgeMemory checks a memory line as the write would (opWrite) and classifies it.
func (sc *importScan) judgeMemory(ctx context.Context, n int, rec Record) (lineVerdict, error) {
	s := sc.s
	if rec.Slug == "" {
		// opWrite takes a missing slug from the title; the preview must see the same slug.
		title := strings.TrimSpace(rec.Title)
		if title == "" {
			return refusedErr(n, codeErr(CodeMissingTitle, nil, "title is required")), nil
		}
		rec.Slug = format.SlugFromTitle(title)
	}
	m, key, err := s.previewMemory(rec)
	if err != nil {
		return refusedErr(n, err), nil
	}
	if rec.ID != "" {
		u, err := ulid.ParseStrict(rec.ID)
		if err != nil {
			return refusedLine(n, CodeImportBadID, map[string]any{"ID": clip(rec.ID, 80)}, "id %q is not a ULID", clip(rec.ID, 80)), nil
		}
		// Crockford base32 ignores case: "01arz…" is the memory "01ARZ…" (the id Engram
		// writes), not a new one beside it under the same ULID.
		rec.ID = u.String()
	}
	note := ImportConflict{Line: n, Slug: m.Slug, Scope: m.Scope, Title: m.Title}
	slugKey := "slug:" + string(m.Scope) + "/" + key + "/" + m.Slug
	if rec.Archived {
		// An archived copy and a live memory may share a slug (archived, then used again).
		slugKey = "archived-" + slugKey
	}
	first, seen := sc.first[slugKey]
	if !seen && rec.ID != "" {
		first, seen = sc.first["id:"+rec.ID]
	}
	if seen {
		note.First, note.Title = first.line, first.title
		if first.title == m.Title && first.body == m.Body {
			return lineVerdict{line: n, v: vRepeat, note: note}, nil
		}
		return lineVerdict{line: n, v: vConflict, note: note}, nil
	}
	have, err := existingFor(ctx, s.db, m, key, rec.ID)
	if err != nil {
		return lineVerdict{}, err
	}
	if have == nil {
		// A line imported before Chinese was kept in slugs made from titles sits under its old
		// slug ("memory-<hash>"): the same title and text there is already present, not new.
		if legacy := format.LegacySlugFromTitle(m.Title); legacy != "" {
			if old, err := getBySlug(ctx, s.db, m.Scope, key, legacy); err == nil && sameContent(old, m) {
				have = old
			} else if err != nil && !errors.Is(err, ErrNotFound) {
				return lineVerdict{}, err
			}
		}
	}
	j := lineVerdict{line: n, v: vNew, rec: rec, m: m, key: key}
	switch {
	case have != nil && sameContent(have, m):
		j = lineVerdict{line: n, v: vPresent, note: note}
	case have != nil:
		note.ID, note.Title = have.ID, have.Title
		j = lineVerdict{line: n, v: vConflict, note: note}
	default:
		if rej, err := s.rejected(ctx, s.db, m.Scope, key, m.Slug); err != nil {
			return lineVerdict{}, err
		} else if rej {
			return refusedErr(n, codeErr(CodeRejectedSlug, map[string]any{"Slug": m.Slug}, "slug %s was rejected by the user in the last 7 days", m.Slug)), nil
		}
		// A file the index does not hold (a hand edit that does not parse) keeps the write out.
		if err := s.pathFree(ctx, s.db, relPath(m.Scope, key, m.Type, m.Slug), m.Slug); err != nil {
			return refusedErr(n, err), nil
		}
	}
	if j.v == vConflict {
		// Not kept: a later line naming the same memory is judged against Engram's version,
		// not reported as a conflict with this one ("the first is kept") when it matches it.
		return j, nil
	}
	sc.first[slugKey] = seenLine{line: n, title: m.Title, body: m.Body}
	if rec.ID != "" {
		sc.first["id:"+rec.ID] = seenLine{line: n, title: m.Title, body: m.Body}
	}
	return j, nil
}

// existingFor is the store's memory a write of m would collide with: the one with its id,
// else the live one with its slug in its scope; nil when there is none.
func existingFor(ctx context.Context, x execer, m *Memory, key, id string) (*Memory, error) {
	if id != "" {
		if got, err := getByID(ctx, x, id); err == nil {
			return got, nil
		} else if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	got, err := getBySlug(ctx, x, m.Scope, key, m.Slug)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return got, err
}

// sameContent: the store already holds what the line says (title and text).
func sameContent(have, m *Memory) bool {
	return have.Title == m.Title && strings.TrimSpace(have.Body) == m.Body
}

// judgeDaily checks a journal line as append_daily would and classifies it: text the day
// already holds is present (the append would change nothing).
func (sc *importScan) judgeDaily(ctx context.Context, n int, rec Record) (lineVerdict, error) {
	text := strings.TrimSpace(rec.Body)
	if text == "" {
		return refusedErr(n, codeErr(CodeEmptyDaily, nil, "journal entry is empty")), nil
	}
	if kind, field := scanFields(textField{"text", text}); kind != "" {
		return refusedErr(n, secretErr(kind, field)), nil
	}
	if hasControl(text) {
		return refusedErr(n, controlErr("text")), nil
	}
	note := ImportConflict{Line: n, Slug: rec.Slug, Scope: ScopeGlobal, Title: rec.Slug}
	k := "day:" + rec.Slug + "\x00" + text
	if first, ok := sc.first[k]; ok {
		note.First = first.line
		return lineVerdict{line: n, v: vRepeat, note: note}, nil
	}
	day, err := getDaily(ctx, sc.s.db, rec.Slug)
	switch {
	case err == nil && strings.Contains(day.Body, text):
		sc.first[k] = seenLine{line: n}
		return lineVerdict{line: n, v: vPresent, note: note}, nil
	case err == nil:
	case !errors.Is(err, ErrNotFound):
		return lineVerdict{}, err
	default:
		if err := sc.s.pathFree(ctx, sc.s.db, relPath(ScopeGlobal, "", TypeDaily, rec.Slug), rec.Slug); err != nil {
			return refusedErr(n, err), nil
		}
	}
	sc.first[k] = seenLine{line: n}
	return lineVerdict{line: n, v: vDaily, rec: rec}, nil
}

// origin is where line n came from; nil for a line of an Engram JSONL file.
func (sc *importScan) origin(n int) *ImportOrigin {
	if o, ok := sc.origins[n]; ok && n > 0 {
		return &o
	}
	return nil
}

// placeError gives a refused line the words people know it by: its line, or for a converted
// source the file and entry or line (args FromPath, FromEntry, FromLine, which the CLI names).
func (sc *importScan) placeError(le *LineError) {
	o := sc.origin(le.Line)
	if o == nil {
		le.Message = fmt.Sprintf("line %d: %s", le.Line, le.Message)
		return
	}
	args := make(map[string]any, len(le.Args)+3)
	for k, v := range le.Args {
		args[k] = v
	}
	args["FromPath"] = o.Path
	where := o.Path
	switch {
	case o.Entry > 0:
		args["FromEntry"] = o.Entry
		where = fmt.Sprintf("%s, entry %d", o.Path, o.Entry)
	case o.Line > 0:
		args["FromLine"] = o.Line
		where = fmt.Sprintf("%s, line %d", o.Path, o.Line)
	}
	le.Args = args
	le.Message = where + ": " + le.Message
}

// placeNotes fills the origins of conflict and repeat notes.
func (sc *importScan) placeNotes(notes []ImportConflict) {
	for i := range notes {
		notes[i].From = sc.origin(notes[i].Line)
		notes[i].FirstFrom = sc.origin(notes[i].First)
	}
}

// addNote keeps the first MaxPreviewLines notes (the counts beside them are complete).
func addNote(notes []ImportConflict, c ImportConflict) []ImportConflict {
	if len(notes) < MaxPreviewLines {
		notes = append(notes, c)
	}
	return notes
}
