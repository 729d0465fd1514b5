// Package importer turns what people already keep elsewhere — a mem0 export, Claude Code's
// CLAUDE.md / MEMORY.md files, a basic-memory or Obsidian folder, a ChatGPT memory export —
// into the JSONL records Engram's own import reads (format.Record). It only reads and
// converts: the api feeds its records to the store's preview and import, so de-duplication,
// conflicts, quota and the refusal of bad fields are decided in one place for every format.
// Every source is outside input: sizes are bounded, nothing outside the chosen folder is read,
// and a file that cannot be parsed is an error (nothing is half-imported); a folder's note or a
// list's entry that cannot be used is left out and named (ConvertAll), never dropped unsaid.
package importer

import (
	"bytes"
	"encoding/json"
	"engram/backend/coded"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"engram/backend/memory/format"
)

// Formats the importer reads.
const (
	FormatMem0     = "mem0"
	FormatClaude   = "claude"
	FormatObsidian = "obsidian"
	FormatChatGPT  = "chatgpt"
)

// Formats lists them in the order help shows.
var Formats = []string{FormatClaude, FormatMem0, FormatObsidian, FormatChatGPT}

// Limits on a source: a file larger than MaxFileBytes or a folder holding more than MaxFiles
// Markdown files (or MaxTotalBytes in all) is refused whole, before anything is converted.
const (
	MaxFileBytes  = 16 << 20
	MaxFiles      = 20000
	MaxTotalBytes = 256 << 20
)

// Codes of the errors a source can raise (translated as error.<code>).
const (
	CodeUnknownFormat = "import_unknown_format"
	CodeSourceRead    = "import_source_unreadable"
	CodeSourceInvalid = "import_source_invalid"
	CodeSourceTooBig  = "import_source_too_big"
	CodeSymlinkOut    = "import_symlink_outside"
	CodeNoProject     = "import_project_unknown"
	CodeSourceEmpty   = "import_source_empty"
)

// Error is a coded failure of a whole source.
type Error struct {
	Code string
	Args map[string]any
	msg  string
}

func (e *Error) Error() string             { return "importer: " + e.msg }
func (e *Error) ErrorCode() string         { return e.Code }
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func fail(code string, args map[string]any, msgf string, a ...any) error {
	return &Error{Code: code, Args: args, msg: fmt.Sprintf(msgf, a...)}
}

// Options tune a conversion.
type Options struct {
	// Workdir places project memories in this project (absolute) instead of the folder their
	// file is in; an Obsidian folder imported with it becomes that project's memories.
	Workdir string
	// UserHome is the person's home folder: ~/.claude/CLAUDE.md is global, not a project.
	// Empty means os.UserHomeDir.
	UserHome string
	// skip, set by ConvertAll, takes a folder's note (entry 0) or an entry of a list (entry
	// n ≥ 1, counted from 1) that failed with err and reports whether the conversion goes on
	// without it.
	skip func(file string, entry int, err error) bool
}

// Convert reads the source at path in the format named source and returns its records, in a stable order so
// a second import of the same source yields the same slugs (and is reported as duplicates).
// A note of a folder that cannot be read fails the whole conversion (see ConvertAll).
func Convert(source, path string, opts Options) ([]format.Record, error) {
	recs, skipped, err := ConvertAll(source, path, opts)
	if err == nil && len(skipped) > 0 {
		return nil, skipped[0].Err
	}
	return recs, err
}

// Skipped is a note of a folder, or an entry of an export's list, that was left out of a
// conversion, and why (an *Error). Entry counts the list's entries from 1; 0 for a note.
type Skipped struct {
	Path  string
	Entry int
	Err   error
}

// Origin names where a record came from: its file, and the entry of a list or the line of a
// file it starts at (from 1; both 0 when the whole file is the record, as an Obsidian note).
// The import names a refused record by it: the JSONL line numbers mean nothing to people.
type Origin struct {
	Path  string
	Entry int
	Line  int
}

// Sourced is a converted record and where it came from.
type Sourced struct {
	Record format.Record
	Origin Origin
}

// ConvertAll is Convert that leaves out the notes of a folder it cannot read — a file that is
// not UTF-8, or whose frontmatter is not YAML (an Obsidian template's `date: {{date}}`), or
// that holds no text — and the entries of a mem0 or ChatGPT list it cannot use (no text, an
// agent name Engram cannot hold, an entry that is not an object), and says which, so one such
// note or entry does not keep hundreds of others out. A file that cannot be read or parsed as
// a whole still fails whole.
func ConvertAll(source, path string, opts Options) ([]format.Record, []Skipped, error) {
	got, skipped, err := ConvertSourced(source, path, opts)
	recs := make([]format.Record, len(got))
	for i, g := range got {
		recs[i] = g.Record
	}
	if err != nil {
		recs = nil
	}
	return recs, skipped, err
}

// ConvertSourced is ConvertAll keeping each record's origin.
func ConvertSourced(source, path string, opts Options) ([]Sourced, []Skipped, error) {
	var skipped []Skipped
	opts.skip = func(file string, entry int, err error) bool {
		var ie *Error
		if !errors.As(err, &ie) || ie.Code != CodeSourceInvalid && ie.Code != CodeSourceRead {
			return false
		}
		skipped = append(skipped, Skipped{Path: file, Entry: entry, Err: err})
		return true
	}
	recs, err := convert(source, path, opts)
	if err != nil && len(skipped) > 0 && isEmpty(err) {
		// Every note was left out: the reason is theirs, not "holds no memories".
		return nil, nil, skipped[0].Err
	}
	return recs, skipped, err
}

func isEmpty(err error) bool {
	var ie *Error
	return errors.As(err, &ie) && ie.Code == CodeSourceEmpty
}

func convert(source, path string, opts Options) ([]Sourced, error) {
	if opts.UserHome == "" {
		opts.UserHome, _ = os.UserHomeDir()
	}
	if opts.Workdir != "" && !filepath.IsAbs(opts.Workdir) {
		return nil, fail("invalid_workdir", map[string]any{"Workdir": opts.Workdir}, "workdir %q must be an absolute path", opts.Workdir)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fail(CodeSourceRead, coded.Reason(map[string]any{"Path": path}, err), "unable to read %s: %v", path, err)
	}
	var recs []Sourced
	switch source {
	case FormatMem0:
		recs, err = convertMem0(abs, opts)
	case FormatClaude:
		recs, err = convertClaude(abs, opts)
	case FormatObsidian:
		recs, err = convertObsidian(abs, opts)
	case FormatChatGPT:
		recs, err = convertChatGPT(abs, opts)
	default:
		return nil, fail(CodeUnknownFormat, map[string]any{"Format": source, "Formats": strings.Join(Formats, ", ")}, "unknown format %q", source)
	}
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fail(CodeSourceEmpty, map[string]any{"Path": path, "Format": source}, "%s holds no %s memories", path, source)
	}
	uniqueSlugs(recs)
	return recs, nil
}

// JSONL encodes records as the JSONL the store's import reads.
func JSONL(recs []format.Record) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range recs {
		_ = enc.Encode(r) // a Record always encodes
	}
	return b.String()
}

// readFile reads one source file, refusing one over MaxFileBytes without reading it all.
func readFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fail(CodeSourceRead, coded.Reason(map[string]any{"Path": path}, err), "unable to read %s: %v", path, err)
	}
	if st.IsDir() {
		return nil, fail(CodeSourceRead, map[string]any{"Path": path, "Detail": "a folder, not a file", "DetailKey": "detail.folder_not_file"}, "%s is a folder", path)
	}
	if st.Size() > MaxFileBytes {
		return nil, fail(CodeSourceTooBig, map[string]any{"Path": path, "Max": MaxFileBytes}, "%s is larger than %d bytes", path, MaxFileBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fail(CodeSourceRead, coded.Reason(map[string]any{"Path": path}, err), "unable to read %s: %v", path, err)
	}
	if !utf8.Valid(b) {
		return nil, fail(CodeSourceInvalid, map[string]any{"Path": path, "Detail": "not UTF-8 text", "DetailKey": "detail.not_utf8"}, "%s is not UTF-8 text", path)
	}
	return b, nil
}

// invalid is a source that does not have the format's shape.
func invalid(path, detail string) error {
	return fail(CodeSourceInvalid, map[string]any{"Path": path, "Detail": detail}, "%s: %s", path, detail)
}

// invalidKey is invalid with the reason's catalog key (detail.*) and its arguments, so the
// message reads in the person's language.
func invalidKey(path, detail, key string, extra map[string]any) error {
	args := map[string]any{"Path": path, "Detail": detail, "DetailKey": key}
	for k, v := range extra {
		args[k] = v
	}
	return fail(CodeSourceInvalid, args, "%s: %s", path, detail)
}

// badEntry is entry n (from 1) of a list that cannot be used: it fails the conversion unless
// the caller leaves it out (ConvertAll), which it reports. The detail's key is detail.<key>.
func badEntry(opts Options, path string, n int, detail, key string, extra map[string]any) error {
	args := map[string]any{"Entry": n}
	for k, v := range extra {
		args[k] = v
	}
	err := invalidKey(path, fmt.Sprintf("entry %d: %s", n, detail), key, args)
	if opts.skip != nil && opts.skip(path, n, err) {
		return nil
	}
	return err
}

// titleOf makes a one-line title of at most MaxTitleChars from text: its first line, cut at a
// word boundary with an ellipsis when longer.
func titleOf(text string) string {
	line := strings.TrimSpace(text)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	line = strings.Join(strings.Fields(line), " ")
	max := format.MaxTitleChars
	if utf8.RuneCountInString(line) <= max {
		return line
	}
	r := []rune(line)[:max-1]
	if i := strings.LastIndexByte(string(r), ' '); i > max/2 {
		return strings.TrimSpace(string(r)[:i]) + "…"
	}
	return string(r) + "…"
}

// uniqueSlugs gives records sharing a slug in one scope instance a suffix from a hash of their
// text, so two different memories with the same title both import (the same text twice stays
// the same slug: the store reports it as a duplicate).
func uniqueSlugs(recs []Sourced) {
	seen := map[string]string{}
	for i := range recs {
		r := &recs[i].Record
		key := string(r.Scope) + "|" + r.Workdir + "|" + r.Agent + "|" + r.Slug
		if body, ok := seen[key]; ok && body != r.Body {
			// Cut at a character: a Chinese permalink cut at a byte left no UTF-8, no slug.
			r.Slug = format.CutSlug(r.Slug, 54) + "-" + format.ShortHash(r.Body)
			key = string(r.Scope) + "|" + r.Workdir + "|" + r.Agent + "|" + r.Slug
		}
		seen[key] = r.Body
	}
}

// tagOf turns a heading or category into a tag (lowercase, dashes, ≤ 64 chars), "" if none.
func tagOf(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	t := b.String()
	if utf8.RuneCountInString(t) > 64 {
		t = string([]rune(t)[:64])
	}
	return strings.Trim(t, "-")
}

// addTag appends t once, keeping at most 32 tags (the store's limit).
func addTag(tags []string, t string) []string {
	if t == "" || len(tags) >= 32 {
		return tags
	}
	for _, have := range tags {
		if have == t {
			return tags
		}
	}
	return append(tags, t)
}

// parseTime reads the timestamps the sources write (RFC 3339 with or without zone, Python's
// str() of a datetime — a space for the T, with or without zone —, a date, or Unix seconds or
// milliseconds as a JSON number); nil when it cannot.
func parseTime(v any) *time.Time {
	var t time.Time
	switch x := v.(type) {
	case string:
		x = strings.TrimSpace(x)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
			if p, err := time.Parse(layout, x); err == nil {
				t = p
				break
			}
		}
	case float64:
		if x >= 1e11 && x < 1e14 {
			t = time.UnixMilli(int64(x)) // milliseconds (JavaScript's Date.now(), many exports' created_at)
		} else if x > 0 && x < 1e11 {
			sec := int64(x)
			t = time.Unix(sec, int64((x-float64(sec))*1e9))
		}
	case time.Time:
		t = x
	}
	if t.IsZero() || t.Year() < 1970 || t.After(time.Now().Add(48*time.Hour)) {
		return nil
	}
	t = t.UTC()
	return &t
}

// fileTime is a file's modification time, the only date a Markdown file without frontmatter has.
func fileTime(path string) *time.Time {
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return parseTime(st.ModTime())
}
