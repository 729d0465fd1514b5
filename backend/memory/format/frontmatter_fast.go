package format

import (
	"bytes"
	"time"
	"unicode"
	"unicode/utf8"
)

// readHeaderFast reads a header written the way RenderFile writes one — `key: value` lines of
// plain scalars, lists as `  - item` lines, source as `  key: value` lines — without the YAML
// decoder, which was a fifth of the CPU the readers of a reindex spend on a file. It answers
// only when it is sure to read what yaml.v3 reads: any other form (quotes, block scalars,
// flow collections, comments, anchors, tags, an unknown or repeated key, a value YAML could
// take for null or a number, a character YAML treats apart) returns false, and ParseFile
// asks yaml.v3. TestHeaderFastAgreesWithYAML and FuzzFile hold the two to the same result.
func readHeaderFast(head []byte, h *Header) bool {
	seen := map[string]bool{}
	lines := bytes.Split(head, []byte("\n"))
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 || !plainKey(line[:colon]) {
			return false
		}
		key := string(line[:colon])
		if seen[key] {
			return false
		}
		seen[key] = true
		rest := line[colon+1:]
		if len(rest) == 0 {
			// A list or the source map: its lines follow, indented by two.
			var items [][]byte
			for i+1 < len(lines) && bytes.HasPrefix(lines[i+1], []byte("  ")) {
				i++
				items = append(items, lines[i][2:])
			}
			if len(items) == 0 || !readBlock(key, items, h) {
				return false
			}
			continue
		}
		if rest[0] != ' ' {
			return false
		}
		v, ok := plainScalar(rest[1:])
		if !ok || !setField(key, v, h) {
			return false
		}
	}
	return true
}

// plainKey: lower-case letters and underscores, as every key of Header and Source.
func plainKey(k []byte) bool {
	for _, c := range k {
		if (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// plainScalar returns v when YAML reads it as a plain scalar meaning exactly its text, and
// false for anything that may mean more or less.
func plainScalar(v []byte) (string, bool) {
	if len(v) == 0 || bytes.IndexByte([]byte("-?:,[]{}#&*!|>'\"%@` \t"), v[0]) >= 0 {
		return "", false
	}
	if c := v[len(v)-1]; c == ' ' || c == ':' {
		return "", false
	}
	if bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) {
		return "", false
	}
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7F {
				return "", false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(v[i:])
		// C1 controls (NEL is a YAML line break), the line and paragraph separators, the byte
		// order mark and anything not printable go to the decoder.
		if r == utf8.RuneError || r <= 0x9F || r == 0x2028 || r == 0x2029 || r == 0xFEFF || !unicode.IsGraphic(r) {
			return "", false
		}
		i += n
	}
	s := string(v)
	switch s {
	case "~", "null", "Null", "NULL":
		return "", false
	}
	return s, true
}

// setField sets a top-level scalar field; false for a key or value it does not take.
func setField(key, v string, h *Header) bool {
	if p := textField(key, h); p != nil {
		*p = v
		return true
	}
	switch key {
	case "auto_downgraded", "reviewed":
		if v != "true" && v != "false" {
			return false
		}
		if key == "reviewed" {
			h.Reviewed = v == "true"
		} else {
			h.AutoDowngraded = v == "true"
		}
	case "created", "updated":
		t, ok := utcSecond(v)
		if !ok {
			return false
		}
		if key == "created" {
			h.Created = t
		} else {
			h.Updated = t
		}
	default:
		return false
	}
	return true
}

// textField is the header's text field under key, or nil.
func textField(key string, h *Header) *string {
	switch key {
	case "id":
		return &h.ID
	case "slug":
		return &h.Slug
	case "title":
		return &h.Title
	case "scope":
		return (*string)(&h.Scope)
	case "workdir":
		return &h.Workdir
	case "agent":
		return &h.Agent
	case "type":
		return (*string)(&h.Type)
	case "confidence":
		return (*string)(&h.Confidence)
	case "source_quote":
		return &h.SourceQuote
	case "reasoning":
		return &h.Reasoning
	case "subject":
		return &h.Subject
	}
	return nil
}

// utcSecond reads the one time form RenderFile writes, 2006-01-02T15:04:05Z.
func utcSecond(v string) (time.Time, bool) {
	if len(v) != 20 || v[4] != '-' || v[7] != '-' || v[10] != 'T' || v[13] != ':' || v[16] != ':' || v[19] != 'Z' {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// readBlock reads a list's `- item` lines or the source map's `key: value` lines.
func readBlock(key string, items [][]byte, h *Header) bool {
	var list *[]string
	switch key {
	case "aliases":
		list = &h.Aliases
	case "tags":
		list = &h.Tags
	case "supersedes":
		list = &h.Supersedes
	case "conflicts_with":
		list = &h.ConflictsWith
	case "source":
		return readSource(items, h)
	default:
		return false
	}
	for _, it := range items {
		if !bytes.HasPrefix(it, []byte("- ")) {
			return false
		}
		v, ok := plainScalar(it[2:])
		if !ok {
			return false
		}
		*list = append(*list, v)
	}
	return true
}

func readSource(items [][]byte, h *Header) bool {
	s := &Source{}
	seen := map[string]bool{}
	for _, it := range items {
		colon := bytes.IndexByte(it, ':')
		if colon <= 0 || !plainKey(it[:colon]) || len(it) < colon+2 || it[colon+1] != ' ' {
			return false
		}
		key := string(it[:colon])
		if seen[key] {
			return false
		}
		seen[key] = true
		v, ok := plainScalar(it[colon+2:])
		if !ok {
			return false
		}
		switch key {
		case "kind":
			s.Kind = v
		case "agent":
			s.Agent = v
		case "session":
			s.Session = v
		case "model":
			s.Model = v
		case "turn":
			n, ok := smallDecimal(v)
			if !ok {
				return false
			}
			s.Turn = n
		default:
			return false
		}
	}
	h.Source = s
	return true
}

// smallDecimal reads 0 or a decimal without a leading zero (YAML may read 010 as octal) that
// fits an int with room to spare.
func smallDecimal(v string) (int, bool) {
	if v == "" || len(v) > 15 || v[0] == '0' && len(v) > 1 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
		n = n*10 + int(v[i]-'0')
	}
	return n, true
}
