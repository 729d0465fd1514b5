package cli

import (
	"bytes"
	"testing"
)

// What the CLI prints for people never carries a control character to the terminal: it shows
// it instead (a memory from before the store refused them, or a hand-placed one).
func TestOutputShowsControlCharacters(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, 中文\n", "plain text, 中文\n"},
		{"a\tb\n", "a\tb\n"},
		{"evil\x1b[31mred\x1b[0m\n", "evil␛[31mred␛[0m\n"},
		{"title \x1b]0;pwned\x07!", "title ␛]0;pwned␇!"},
		{"del\x7f c1\u009b x", "del␡ c1\\u009b x"},
		{"cr\roverwrite", "cr␍overwrite"},
		{"é and ¢ stay", "é and ¢ stay"},
	} {
		var b bytes.Buffer
		n, err := controlSafe(&b).Write([]byte(tc.in))
		if err != nil || n != len(tc.in) || b.String() != tc.want {
			t.Errorf("%q: wrote %q (%d, %v), want %q", tc.in, b.String(), n, err, tc.want)
		}
	}
}
