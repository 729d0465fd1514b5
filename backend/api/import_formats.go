package api

import (
	"strings"

	"engram/backend/coded"
	"engram/backend/importer"
	"engram/backend/memory"
)

// Importers (issue 15): memory.import and memory.importPreview also read what people keep in
// other tools — a mem0 export, Claude Code's CLAUDE.md / MEMORY.md, a basic-memory or Obsidian
// folder, a ChatGPT memory export. The importer converts the source into the same JSONL an
// Engram export holds, so the preview (counts, duplicates, conflicts, quota impact) and the
// import (de-duplicated, never overwriting) are the ones every JSONL import gets.

// Error codes of the importers' api side (the importer's own codes pass through).
const (
	// CodeImportPathDesktopOnly refuses a path from a remote or model caller: the path would
	// be read on this computer, and only the person at it chooses what it reads.
	CodeImportPathDesktopOnly = "import_path_desktop_only"
	// CodeImportPathRequired: a format other than jsonl needs the file or folder to read.
	CodeImportPathRequired = "import_path_required"
	// CodeImportKeepReviewEngramOnly: another tool's memories cannot vouch for their review.
	CodeImportKeepReviewEngramOnly = "import_keep_review_engram_only"
	// CodeImportSkipped is a note of a folder left out of an import (not UTF-8, frontmatter
	// that is not YAML); args {Path, Detail}. The other notes are imported.
	CodeImportSkipped = "import_source_skipped"
	// CodeImportEntrySkipped is an entry of a mem0 or ChatGPT export left out of an import (no
	// text, an unusable agent name, not an object); args {Path, Entry, Detail}. The other
	// entries are imported.
	CodeImportEntrySkipped = "import_entry_skipped"
)

// ImportSource names another tool's memories to import. Format is "" or "jsonl" for the
// JSONL text of the call, else one of importer.Formats (mem0, claude, obsidian, chatgpt) read
// from Path on this computer (desktop window and CLI only). Workdir, when set, is the project
// that project-scoped memories (CLAUDE.md of a folder, Claude Code auto memory, an Obsidian
// folder) go to.
type ImportSource struct {
	Format  string `json:"format,omitempty"`
	Path    string `json:"path,omitempty"`
	Workdir string `json:"workdir,omitempty"`
}

// importJSONL returns the JSONL an import reads: the call's own text, or the source converted,
// with the notes of a folder or the entries of a list it left out (line 0,
// import_source_skipped / import_entry_skipped, first in the errors).
// jsonlWorkdir is the project an Engram JSONL import sends its project lines without a workdir
// to (another tool's converter takes src.Workdir itself).
func (a *API) jsonlWorkdir(src ImportSource) string {
	if src.Format == "" || src.Format == "jsonl" {
		return src.Workdir
	}
	return ""
}

func (a *API) importJSONL(jsonl string, src ImportSource) (string, []ImportLineError, error) {
	if src.Format == "" || src.Format == "jsonl" {
		return jsonl, nil, nil
	}
	if !a.personCaller() {
		return "", nil, a.newError(CodeImportPathDesktopOnly, nil)
	}
	if src.Path == "" {
		return "", nil, a.newError(CodeImportPathRequired, map[string]any{"Format": src.Format})
	}
	recs, skipped, err := importer.ConvertSourced(src.Format, src.Path, importer.Options{Workdir: src.Workdir})
	if err != nil {
		return "", nil, a.fail(err)
	}
	var out []ImportLineError
	for _, sk := range skipped {
		args := map[string]any{}
		if c, ok := coded.As(sk.Err); ok {
			for k, v := range c.ErrorArgs() {
				args[k] = v
			}
		}
		args["Path"] = sk.Path
		code := CodeImportSkipped
		if sk.Entry > 0 {
			code = CodeImportEntrySkipped
		}
		e := a.newError(code, args)
		out = append(out, ImportLineError{Code: code, I18nKey: e.I18nKey, Args: e.Args, Message: e.Message})
	}
	return sourcedJSONL(recs), out, nil
}

// sourcedJSONL is the records' JSONL followed by one comment per record naming where it came
// from (memory.OriginComment): the store then names a refused record by its file and entry or
// line — "mem0.json, entry 5", not "line 3" of a JSONL nobody sees. The comments come last so
// record i stays on line i+1.
func sourcedJSONL(recs []importer.Sourced) string {
	plain := make([]memory.Record, len(recs))
	for i, r := range recs {
		plain[i] = r.Record
	}
	var b strings.Builder
	b.WriteString(importer.JSONL(plain))
	for i, r := range recs {
		b.WriteString(memory.OriginComment(i+1, memory.ImportOrigin{Path: r.Origin.Path, Entry: r.Origin.Entry, Line: r.Origin.Line}))
		b.WriteByte('\n')
	}
	return b.String()
}
