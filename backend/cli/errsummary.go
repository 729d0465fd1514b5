package cli

import (
	"fmt"
	"io"
	"strings"

	"engram/backend/api"
)

// shownLines is how many line numbers a repeated error names before "…".
const shownLines = 5

// lineErrorGroup is one message shared by several refused lines.
type lineErrorGroup struct {
	code, message string
	lines         []int
	// places name the lines of a converted source (another tool's file, entry or line);
	// empty for the lines of an Engram JSONL file, which are named by number.
	places []string
}

// groupLineErrors folds errors with the same code and message into one group, in the order
// each first appeared: a 10,000-line import that overflows a scope refuses thousands of lines
// for the same reason, and people need that reason once with a count, not 5,000 copies.
func groupLineErrors(r *runner, errs []api.ImportLineError) []lineErrorGroup {
	var out []lineErrorGroup
	at := map[string]int{}
	for _, le := range errs {
		k := le.Code + "\x00" + le.Message
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, lineErrorGroup{code: le.Code, message: le.Message})
		}
		out[i].lines = append(out[i].lines, le.Line)
		if o := originOf(le.Args); o != nil {
			out[i].places = append(out[i].places, where(r, le.Line, o))
		}
	}
	return out
}

// printLineErrors prints each refused line, or for a message repeated on several lines one
// summary: the count, the first line numbers and the message. A line of another tool's
// source is named by its file and entry or line, never by the converted JSONL's number,
// which the person never saw ("line 3" for mem0's entry 5).
func printLineErrors(r *runner, w io.Writer, errs []api.ImportLineError) {
	for _, g := range groupLineErrors(r, errs) {
		switch {
		case g.lines[0] == 0:
			// A note of a folder the import left out: its message names the file.
			fmt.Fprintln(w, g.message)
		case len(g.places) == len(g.lines) && len(g.lines) == 1:
			fmt.Fprintln(w, r.t("cli.import_where.message", map[string]any{"Where": g.places[0], "Message": g.message}))
		case len(g.places) == len(g.lines):
			list := strings.Join(g.places[:min(len(g.places), shownLines)], "; ")
			if len(g.places) > shownLines {
				list += "; …"
			}
			fmt.Fprintln(w, r.t("cli.import_where.group", map[string]any{"Count": len(g.lines), "Where": list, "Message": g.message}))
		case len(g.lines) == 1:
			fmt.Fprintln(w, r.t("cli.import_line_error", map[string]any{"Line": g.lines[0], "Message": g.message}))
		default:
			nums := make([]string, 0, shownLines)
			for _, n := range g.lines[:min(len(g.lines), shownLines)] {
				nums = append(nums, fmt.Sprint(n))
			}
			list := strings.Join(nums, ", ")
			if len(g.lines) > shownLines {
				list += ", …"
			}
			fmt.Fprintln(w, r.t("cli.import_summary.lines", map[string]any{"Count": len(g.lines), "Lines": list, "Message": g.message}))
		}
	}
}

// originOf reads the origin the store gave a refused line of a converted source (args
// FromPath, FromEntry, FromLine); nil for a line of an Engram JSONL file.
func originOf(args map[string]any) *api.ImportOrigin {
	path, _ := args["FromPath"].(string)
	if path == "" {
		return nil
	}
	return &api.ImportOrigin{Path: path, Entry: argInt(args["FromEntry"]), Line: argInt(args["FromLine"])}
}

// argInt reads a number argument as Go made it or as JSON decoded it.
func argInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}

// where names line n of an import: "line 12", or where a converted source had it — "mem0.json,
// entry 5", "CLAUDE.md, line 3", "vault/big.md".
func where(r *runner, n int, o *api.ImportOrigin) string {
	switch {
	case o == nil:
		return r.t("cli.import_where.line", map[string]any{"Line": n})
	case o.Entry > 0:
		return r.t("cli.import_where.entry", map[string]any{"Path": o.Path, "Entry": o.Entry})
	case o.Line > 0:
		return r.t("cli.import_where.file_line", map[string]any{"Path": o.Path, "Line": o.Line})
	}
	return r.t("cli.import_where.file", map[string]any{"Path": o.Path})
}

// printImportNotes lists the conflicts (kept as they are) and the lines repeating an earlier
// one (imported once) that an import made or its preview announces, in the same words.
func printImportNotes(r *runner, w io.Writer, conflicts []api.ImportConflict, nConflicts int, repeats []api.ImportConflict, nRepeats int) {
	for _, c := range conflicts {
		args := map[string]any{"Where": where(r, c.Line, c.From), "Slug": c.Slug, "Title": strings.TrimSpace(c.Title)}
		if c.First > 0 {
			args["First"] = where(r, c.First, c.FirstFrom)
			fmt.Fprintln(w, r.t("cli.import_notes.conflict_first", args))
		} else {
			fmt.Fprintln(w, r.t("cli.import_notes.conflict", args))
		}
	}
	if more := nConflicts - len(conflicts); more > 0 {
		fmt.Fprintln(w, r.t("cli.import_notes.more", map[string]any{"Count": more}))
	}
	for _, c := range repeats {
		fmt.Fprintln(w, r.t("cli.import_notes.repeat", map[string]any{"Where": where(r, c.Line, c.From), "Slug": c.Slug,
			"First": where(r, c.First, c.FirstFrom)}))
	}
	if more := nRepeats - len(repeats); more > 0 {
		fmt.Fprintln(w, r.t("cli.import_notes.more", map[string]any{"Count": more}))
	}
}

// leftOut counts what an import or preview left out beside its lines: notes of a folder that
// could not be read and entries of a list that could not be used (line 0, named above).
func leftOut(errs []api.ImportLineError) (files, entries int) {
	for _, e := range errs {
		switch {
		case e.Line > 0:
		case e.Code == api.CodeImportEntrySkipped:
			entries++
		default:
			files++
		}
	}
	return files, entries
}

// printLeftOut says how many files and entries of the source were left out (listed above).
func printLeftOut(r *runner, w io.Writer, errs []api.ImportLineError) {
	files, entries := leftOut(errs)
	if files > 0 {
		fmt.Fprintln(w, r.t("cli.import_report.files_left_out", map[string]any{"Count": files}))
	}
	if entries > 0 {
		fmt.Fprintln(w, r.t("cli.import_report.entries_left_out", map[string]any{"Count": entries}))
	}
}
