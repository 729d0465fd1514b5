package api

import (
	"bytes"
	"strings"

	"engram/backend/memory"
)

// ExportParams filter an export. Markdown, when set, is a folder (absolute, new or empty,
// outside the home) that receives the memories as Markdown files instead of JSONL; only the
// desktop window and the CLI may name one.
type ExportParams struct {
	Scope    memory.Scope `json:"scope,omitempty"`
	Workdir  string       `json:"workdir,omitempty"`
	Agent    string       `json:"agent,omitempty"`
	Markdown string       `json:"markdown,omitempty"`
}

// ExportResult is JSONL text, one memory a line, then one line per key of the agents'
// key-value namespaces the filter covers ({"kind":"kv",…}).
type ExportResult struct {
	// Count is every memory line, journal days included; Daily counts those days.
	Count int `json:"count"`
	Daily int `json:"daily"`
	// KV counts the key-value lines.
	KV    int    `json:"kv"`
	JSONL string `json:"jsonl"`
	// Folder is set for a Markdown folder export (JSONL is empty then).
	Folder *memory.FolderExport `json:"folder,omitempty"`
	// Problems are the agents' key files the export could not read, translated: their keys
	// are not in JSONL, everything else is. One bad kv.json used to fail the whole export.
	Problems []ExportProblem `json:"problems,omitempty"`
}

// ExportProblem is one file an export left out, with its translated reason (which names it).
type ExportProblem struct {
	Code    string         `json:"code"`
	I18nKey string         `json:"i18n_key"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
}

// Export returns every live memory as JSONL.
func (s *MemoryService) Export(p ExportParams) (ExportResult, error) {
	if err := s.a.Wait(); err != nil {
		return ExportResult{}, err
	}
	if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return ExportResult{}, err
	}
	if p.Markdown != "" {
		if !s.a.personCaller() {
			return ExportResult{}, s.a.newError(CodeExportFolderRemote, nil)
		}
		f, err := s.a.deps.Store.ExportFolder(s.a.ctx, p.Markdown, memory.Filter{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent})
		if err != nil {
			return ExportResult{}, s.a.fail(err)
		}
		return ExportResult{Count: f.Memories + f.Daily, Daily: f.Daily, Folder: &f}, nil
	}
	var buf bytes.Buffer
	c, err := s.a.deps.Store.ExportCounted(s.a.ctx, &buf, memory.Filter{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent})
	if err != nil && len(c.Problems) == 0 {
		return ExportResult{}, s.a.fail(err)
	}
	out := ExportResult{Count: c.Memories, Daily: c.Daily, KV: c.KV, JSONL: buf.String()}
	for _, pr := range c.Problems {
		e := s.a.newError(pr.Code, pr.Args)
		out.Problems = append(out.Problems, ExportProblem{Code: pr.Code, I18nKey: e.I18nKey, Args: e.Args, Message: e.Message})
	}
	return out, nil
}

// ImportParams carry JSONL text. KeepReview keeps each line's reviewed flag and source
// (a person restoring their own export); only the desktop window and the CLI may ask.
// Format other than "" / "jsonl" imports another tool's memories from Path instead (see
// ImportSource).
type ImportParams struct {
	JSONL      string `json:"jsonl"`
	KeepReview bool   `json:"keep_review,omitempty"`
	ImportSource
}

// ImportResult reports imported lines and each bad line with its translated reason; its
// counts are the preview's (memory.ImportPreview), line for line.
type ImportResult struct {
	Lines    int `json:"lines"`
	Imported int `json:"imported"`
	Daily    int `json:"daily"`
	// Duplicates were already in the store (skipped), Conflicts collided with a memory the
	// store or an earlier line holds with other content (kept as it is), Repeated said again
	// what an earlier line said (imported once): none is an error. ConflictLines and
	// RepeatLines list the first 50.
	Duplicates    int                     `json:"duplicates"`
	Conflicts     int                     `json:"conflicts"`
	Repeated      int                     `json:"repeated"`
	ConflictLines []memory.ImportConflict `json:"conflict_lines"`
	RepeatLines   []memory.ImportConflict `json:"repeat_lines"`
	// KV counts keys added to agents' namespaces, KVUnchanged keys already holding the line's
	// value, KVConflicts keys holding another value (kept, and reported in Errors).
	KV          int               `json:"kv"`
	KVUnchanged int               `json:"kv_unchanged"`
	KVConflicts int               `json:"kv_conflicts"`
	Errors      []ImportLineError `json:"errors"`
}

// ImportConflict is a line colliding with the store or an earlier line, or repeating one;
// ImportOrigin where a converted source's line came from. Aliases, so transports name them
// without importing the store.
type (
	ImportConflict = memory.ImportConflict
	ImportOrigin   = memory.ImportOrigin
)

// ImportLineError is one rejected line.
type ImportLineError struct {
	Line    int            `json:"line"`
	Code    string         `json:"code"`
	I18nKey string         `json:"i18n_key"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
}

// Import writes JSONL memories; good lines are kept whatever happens to bad ones.
func (s *MemoryService) Import(p ImportParams) (ImportResult, error) {
	if err := s.a.Wait(); err != nil {
		return ImportResult{}, err
	}
	if p.KeepReview && !s.a.personCaller() {
		return ImportResult{}, s.a.newError(CodeKeepReviewDesktopOnly, nil)
	}
	jsonl, skipped, err := s.a.importJSONL(p.JSONL, p.ImportSource)
	if err != nil {
		return ImportResult{}, err
	}
	if p.KeepReview && jsonl != p.JSONL {
		return ImportResult{}, s.a.newError(CodeImportKeepReviewEngramOnly, nil)
	}
	rep, err := s.a.deps.Store.ImportWith(s.a.ctx, strings.NewReader(jsonl), memory.ImportOptions{KeepReview: p.KeepReview,
		Workdir: s.a.jsonlWorkdir(p.ImportSource)})
	if err != nil {
		return ImportResult{}, s.a.fail(err)
	}
	out := ImportResult{Lines: rep.Lines, Imported: rep.Imported, Daily: rep.Daily, Duplicates: rep.Duplicates,
		Conflicts: rep.Conflicts, Repeated: rep.Repeated, ConflictLines: rep.ConflictLines, RepeatLines: rep.RepeatLines,
		KV: rep.KV, KVUnchanged: rep.KVUnchanged, KVConflicts: rep.KVConflicts, Errors: append([]ImportLineError{}, skipped...)}
	for _, le := range rep.Errors {
		e := s.a.newError(le.Code, le.Args)
		out.Errors = append(out.Errors, ImportLineError{Line: le.Line, Code: le.Code, I18nKey: e.I18nKey, Args: e.Args, Message: e.Message})
	}
	return out, nil
}
