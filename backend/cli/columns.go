package cli

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/width"
)

// displayWidth is how many terminal columns s takes: East Asian wide and fullwidth runes take
// two, so a table with Chinese headers or project folders still lines up.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// printColumns writes rows as aligned columns (two spaces apart); right lists the columns
// aligned to the right (numbers). The first row is the header.
func printColumns(w io.Writer, rows [][]string, right map[int]bool) {
	var widths []int
	for _, row := range rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-displayWidth(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if right[i] {
				b.WriteString(pad + c)
			} else if i < len(row)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		fmt.Fprintln(w, b.String())
	}
}
