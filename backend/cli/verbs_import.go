package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"engram/backend/api"
)

// importCmd is `engram import [--from FORMAT] [--workdir DIR] [--dry-run] [--keep-review] PATH`.
// Without --from it reads an Engram JSONL file; with it, another tool's memories (mem0,
// claude, obsidian, chatgpt), converted by the api. --dry-run prints the preview — counts,
// duplicates, conflicts, quota impact — and writes nothing.
func (r *runner) importCmd(_ context.Context, args []string) error {
	var keepReview, dryRun bool
	var from, workdir string
	pos, err := r.flags("import", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&keepReview, "keep-review", false, "keep reviewed and source as in the file (restoring your own Engram export)")
		fs.BoolVar(&dryRun, "dry-run", false, "show what the import would do, write nothing")
		fs.StringVar(&from, "from", "", "read another tool's memories: mem0, claude, obsidian or chatgpt")
		fs.StringVar(&workdir, "workdir", "", "the project that project memories go to")
	})
	if err != nil {
		return err
	}
	if err := r.need("import", "FILE.jsonl | --from FORMAT PATH", pos, 1); err != nil {
		return err
	}
	src := api.ImportSource{Format: from}
	var jsonl string
	if from == "" || from == "jsonl" {
		data, err := r.env.ReadFile(pos[0])
		if err != nil {
			return fmt.Errorf("%s", r.t("cli.read_file_failed", r.reason(map[string]any{"Path": pos[0]}, err)))
		}
		jsonl = string(data)
	} else if src.Path, err = filepath.Abs(pos[0]); err != nil {
		return err
	}
	if workdir != "" {
		if src.Workdir, err = filepath.Abs(workdir); err != nil {
			return err
		}
	}
	if dryRun {
		res, err := r.api.Memory.ImportPreview(api.ImportPreviewParams{JSONL: jsonl, ImportSource: src})
		if err != nil {
			return err
		}
		return printImportPreview(r, res, sourceUnit(from))
	}
	res, err := r.api.Memory.Import(api.ImportParams{JSONL: jsonl, KeepReview: keepReview, ImportSource: src})
	if err != nil {
		return err
	}
	return printImportResult(r, res, sourceUnit(from))
}

// sourceUnit is what an import's counts count: lines of an Engram JSONL file, entries of
// another tool's source (a vault's notes, a mem0 or ChatGPT export's memories) — "Preview of
// 2 lines" read wrong of two Obsidian notes.
func sourceUnit(from string) string {
	if from == "" || from == "jsonl" {
		return "count.lines"
	}
	return "count.entries"
}

// codeKVConflict is the store's code for a key kept at its other value (memory.CodeKVConflict):
// listed with the errors, counted apart from refused lines.
const codeKVConflict = "kv_conflict"

// printImportResult shows what an import did in the preview's words: the refused lines (on
// stderr), the counts, then the conflicts and repeats. A line already present, a conflict
// (the first version kept) or a repeat is no failure: a second import of the same source
// exits 0. A refused line, a key kept at its other value (kv_conflict, listed with the
// errors), or a note or entry of the source left out exits 1 — good lines are kept either way.
func printImportResult(r *runner, res api.ImportResult, unit string) error {
	refused := 0
	for _, e := range res.Errors {
		if e.Line > 0 && e.Code != codeKVConflict {
			refused++
		}
	}
	r.out(res, func(w io.Writer) {
		printLineErrors(r, r.env.Stderr, res.Errors)
		fmt.Fprintln(w, r.t("cli.import_report.done", map[string]any{"Imported": res.Imported, "Daily": res.Daily, "Lines": res.Lines, "Unit": unit,
			"Duplicates": res.Duplicates, "Repeated": res.Repeated, "Conflicts": res.Conflicts, "Refused": refused}))
		if res.KV+res.KVUnchanged+res.KVConflicts > 0 {
			fmt.Fprintln(w, r.t("cli.kv.import_done", map[string]any{"Added": res.KV, "Unchanged": res.KVUnchanged, "Conflicts": res.KVConflicts}))
		}
		printLeftOut(r, w, res.Errors)
		printImportNotes(r, w, res.ConflictLines, res.Conflicts, res.RepeatLines, res.Repeated)
	})
	if len(res.Errors) > 0 {
		return errSilent // the exit code tells scripts something was not imported
	}
	return nil
}

// printImportPreview shows what an import would do, summarised as the import summarises what
// it did (printImportResult): the refused lines, the quota of each scope that would grow, the
// conflicts and repeats, the counts. Nothing was written.
func printImportPreview(r *runner, res api.ImportPreviewResult, unit string) error {
	r.out(res, func(w io.Writer) {
		printLineErrors(r, r.env.Stderr, res.Errors)
		fmt.Fprintln(w, r.t("cli.import_preview.counts", map[string]any{"Lines": res.Lines, "Unit": unit, "New": res.New,
			"Duplicates": res.Duplicates, "Repeated": res.Repeated, "Conflicts": res.Conflicts, "Invalid": res.Invalid,
			"OverQuota": res.OverQuota}))
		if res.Daily > 0 {
			fmt.Fprintln(w, r.t("cli.import_preview.daily", map[string]any{"Daily": res.Daily}))
		}
		if res.KV+res.KVUnchanged+res.KVConflicts > 0 {
			fmt.Fprintln(w, r.t("cli.import_preview.kv", map[string]any{"Added": res.KV, "Unchanged": res.KVUnchanged, "Conflicts": res.KVConflicts}))
		}
		printLeftOut(r, w, res.Errors)
		for _, sc := range res.Scopes {
			name := scopeName(r, string(sc.Scope), sc.Workdir, sc.Key, sc.Agent)
			fmt.Fprintln(w, r.t("cli.import_preview.scope", map[string]any{"Scope": name, "Used": sc.Used, "After": sc.After,
				"Limit": sc.Limit, "Refused": sc.Refused, "Level": r.t("quota.level."+sc.Level, nil)}))
		}
		printImportNotes(r, w, res.ConflictLines, res.Conflicts, res.RepeatLines, res.Repeated)
		fmt.Fprintln(w, r.t("cli.import_preview.nothing_written", nil))
	})
	if len(res.Errors) > 0 {
		return errSilent // as the import itself would: a script checking first learns it is not whole
	}
	return nil
}
