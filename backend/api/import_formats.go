package api

import (
	"engram/backend/importer"
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

// importJSONL returns the JSONL an import reads: the call's own text, or the source converted.
func (a *API) importJSONL(jsonl string, src ImportSource) (string, error) {
	if src.Format == "" || src.Format == "jsonl" {
		return jsonl, nil
	}
	if !a.personCaller() {
		return "", a.newError(CodeImportPathDesktopOnly, nil)
	}
	if src.Path == "" {
		return "", a.newError(CodeImportPathRequired, map[string]any{"Format": src.Format})
	}
	recs, err := importer.Convert(src.Format, src.Path, importer.Options{Workdir: src.Workdir})
	if err != nil {
		return "", a.fail(err)
	}
	return importer.JSONL(recs), nil
}
