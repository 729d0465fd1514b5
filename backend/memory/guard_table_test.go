package memory

// The secret table (testdata/secrets.tsv) holds templates, not secrets: every random part is
// generated here at test time and known prefixes are split with {} in the file, so no line of
// the repository looks like a live credential to a secret scanner. This file uses only the
// standard library so the same table can be measured against other detectors.

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// secretCase is one expanded row of the table.
type secretCase struct {
	line   int
	secret bool   // a credential that must be refused
	kind   string // the kind the guard should name (secrets), or what the text is (look-alikes)
	text   string
}

var tableCharsets = map[string]string{
	"hex":    "0123456789abcdef",
	"HEX":    "0123456789ABCDEF",
	"b64":    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	"b64u":   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
	"alnum":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"alpha":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	"upper":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
	"lower":  "abcdefghijklmnopqrstuvwxyz0123456789",
	"b32":    "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
	"crock":  "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
	"bech32": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
	"b58":    "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
	"digits": "0123456789",
}

var tableWords = map[string]string{"": "", "nl": "\n", "tab": "\t", "lb": "{", "rb": "}"}

// expandTemplate fills {charset:N} with N random characters of the charset, {nl} {tab} {lb}
// {rb} with their characters and {} with nothing.
func expandTemplate(tpl string, rng *rand.Rand) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			return b.String(), nil
		}
		b.WriteString(tpl[:i])
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unclosed { in %q", tpl)
		}
		tok := tpl[i+1 : i+j]
		tpl = tpl[i+j+1:]
		if w, ok := tableWords[tok]; ok {
			b.WriteString(w)
			continue
		}
		name, num, ok := strings.Cut(tok, ":")
		cs, known := tableCharsets[name]
		n, err := strconv.Atoi(num)
		if !ok || !known || err != nil || n <= 0 {
			return "", fmt.Errorf("bad placeholder {%s}", tok)
		}
		for k := 0; k < n; k++ {
			b.WriteByte(cs[rng.IntN(len(cs))])
		}
	}
}

// transformText disguises an expanded text the way a model or a paste might: zero-width
// spaces or soft hyphens every few characters, or fullwidth forms of every ASCII character.
func transformText(s, how string) (string, error) {
	sep := ""
	switch how {
	case "-":
		return s, nil
	case "zw":
		sep = "\u200b"
	case "zwj":
		sep = "\u200d"
	case "shy":
		sep = "\u00ad"
	case "vs": // a variation selector, drawn as nothing after a letter
		sep = "\ufe0f"
	case "mn": // a combining mark, zero-width on the letter before it
		sep = "\u0301"
	case "braille": // the blank Braille pattern, drawn as a space-less blank
		sep = "\u2800"
	case "fw":
		var b strings.Builder
		for _, r := range s {
			if r > 0x20 && r < 0x7f {
				r += 0xFEE0
			}
			b.WriteRune(r)
		}
		return b.String(), nil
	default:
		return "", fmt.Errorf("unknown transform %q", how)
	}
	var b strings.Builder
	for i, r := range []rune(s) {
		if i > 0 && i%5 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(r)
	}
	return b.String(), nil
}

// loadSecretTable reads the table: want (secret|clean), kind, transform, template; tab
// separated, # comments. The random parts are seeded by line number, so every run sees the
// same texts.
func loadSecretTable(path string) ([]secretCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []secretCase
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.SplitN(line, "\t", 4)
		if len(cols) != 4 || (cols[0] != "secret" && cols[0] != "clean") {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated columns (secret|clean, kind, transform, template)", path, n)
		}
		rng := rand.New(rand.NewPCG(0x5ec2e7, uint64(n)))
		text, err := expandTemplate(cols[3], rng)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if text, err = transformText(text, cols[2]); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, secretCase{line: n, secret: cols[0] == "secret", kind: cols[1], text: text})
	}
	return out, sc.Err()
}
