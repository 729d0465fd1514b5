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
	Count int `json:"count"`
	// KV counts the key-value lines.
	KV    int    `json:"kv"`
	JSONL string `json:"jsonl"`
	// Folder is set for a Markdown folder export (JSONL is empty then).
	Folder *memory.FolderExport `json:"folder,omitempty"`
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
		return ExportResult{Count: f.Memories, Folder: &f}, nil
	}
	var buf bytes.Buffer
	c, err := s.a.deps.Store.ExportCounted(s.a.ctx, &buf, memory.Filter{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent})
	if err != nil {
		return ExportResult{}, s.a.fail(err)
	}
	return ExportResult{Count: c.Memories, KV: c.KV, JSONL: buf.String()}, nil
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

// ImportResult reports imported lines and each bad line with its translated reason.
type ImportResult struct {
	Lines    int `json:"lines"`
	Imported int `json:"imported"`
	Daily    int `json:"daily"`
	// KV counts keys added to agents' namespaces, KVUnchanged keys already holding the line's
	// value, KVConflicts keys holding another value (kept, and reported in Errors).
	KV          int               `json:"kv"`
	KVUnchanged int               `json:"kv_unchanged"`
	KVConflicts int               `json:"kv_conflicts"`
	Errors      []ImportLineError `json:"errors"`
}

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
	rep, err := s.a.deps.Store.ImportWith(s.a.ctx, strings.NewReader(jsonl), memory.ImportOptions{KeepReview: p.KeepReview})
	if err != nil {
		return ImportResult{}, s.a.fail(err)
	}
	out := ImportResult{Lines: rep.Lines, Imported: rep.Imported, Daily: rep.Daily, KV: rep.KV, KVUnchanged: rep.KVUnchanged,
		KVConflicts: rep.KVConflicts, Errors: append([]ImportLineError{}, skipped...)}
	for _, le := range rep.Errors {
		e := s.a.newError(le.Code, le.Args)
		out.Errors = append(out.Errors, ImportLineError{Line: le.Line, Code: le.Code, I18nKey: e.I18nKey, Args: e.Args, Message: e.Message})
	}
	return out, nil
}
