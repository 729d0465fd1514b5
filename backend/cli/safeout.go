package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Output meant for people goes to a terminal, which acts on control characters: a memory's
// title written by a model as "\x1b]0;…\x07" or "\x1b[2J" would retitle or clear the person's
// terminal when `engram list` printed it (and OSC 52 writes the clipboard). The store refuses
// control characters in what is written now (checkControls), but a hand-placed file or an
// index from before may still hold them, so every line the CLI prints for people shows them as
// visible symbols instead: C0 as the Control Pictures block (␛ for ESC), DEL as ␡, C1 as
// \u0085. Tabs and line breaks pass. JSON output escapes them itself (\u001b).

// controlSafe wraps w so that what is written shows control characters instead of sending them.
func controlSafe(w io.Writer) io.Writer { return safeWriter{w} }

type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if !hasControl(p) {
		return s.w.Write(p)
	}
	size := len(p)
	var b strings.Builder
	for len(p) > 0 {
		r, n := utf8.DecodeRune(p)
		switch {
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.Write(p[:n])
		}
		p = p[n:]
	}
	if _, err := io.WriteString(s.w, b.String()); err != nil {
		return 0, err
	}
	return size, nil
}

// hasControl reports whether p holds a byte that may begin a control character other than a
// tab or a line break (0xC2 begins the two-byte C1 controls, and other letters too).
func hasControl(p []byte) bool {
	for _, c := range p {
		if (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f || c == 0xc2 {
			return true
		}
	}
	return false
}
