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
}

// groupLineErrors folds errors with the same code and message into one group, in the order
// each first appeared: a 10,000-line import that overflows a scope refuses thousands of lines
// for the same reason, and people need that reason once with a count, not 5,000 copies.
func groupLineErrors(errs []api.ImportLineError) []lineErrorGroup {
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
	}
	return out
}

// printLineErrors prints each refused line, or for a message repeated on several lines one
// summary: the count, the first line numbers and the message.
func printLineErrors(r *runner, w io.Writer, errs []api.ImportLineError) {
	for _, g := range groupLineErrors(errs) {
		if g.lines[0] == 0 {
			// A note of a folder the import left out: its message names the file.
			fmt.Fprintln(w, g.message)
			continue
		}
		if len(g.lines) == 1 {
			fmt.Fprintln(w, r.t("cli.import_line_error", map[string]any{"Line": g.lines[0], "Message": g.message}))
			continue
		}
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
