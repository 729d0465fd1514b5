// Package wikilink reads the knowledge-graph grammar of memory bodies (DESIGN §8): `[[Name]]`
// mentions an entity (or links a memory by slug or title), `[[Name|label]]` shows a label, a
// list line `- relation_type [[Target]]` relates the memory's subject to Target, and
// `- [[A]] relation_type [[B]]` relates two entities. A trailing `#type` on a relation line
// (`- works_at [[Acme]] #organization`) names the target's entity type. Links inside code
// spans, fenced blocks and indented code are text, not links. It is a leaf: the store indexes
// with it and the graph package resolves names with Norm, so both agree on every name.
package wikilink

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"engram/backend/text"

	"golang.org/x/text/unicode/norm"
)

// MaxName is the longest entity name (in characters) a link may carry; longer links are text.
const MaxName = 120

// MaxRelation is the longest relation type, in characters.
const MaxRelation = 64

// Link is one `[[Target]]` or `[[Target|Label]]`. Heading is an Obsidian heading or block
// reference as written after the name ("#History" of `[[Acme#History]]`, "" when none): it
// names no entity, but a rewrite of the link keeps it, or renaming Acme lost which part of
// the note the link pointed at.
type Link struct {
	Target  string `json:"target"`
	Label   string `json:"label,omitempty"`
	Heading string `json:"heading,omitempty"`
}

// Relation is one relation line. From is empty for `- type [[To]]` (the memory's subject).
// ToType is the `#type` hint of the line, "" when none.
type Relation struct {
	From   string `json:"from,omitempty"`
	Type   string `json:"type"`
	To     string `json:"to"`
	ToType string `json:"to_type,omitempty"`
}

// Parsed is everything the grammar finds in one body. Links holds every link, those of
// relation lines included, in order of appearance.
type Parsed struct {
	Links     []Link     `json:"links"`
	Relations []Relation `json:"relations"`
}

var (
	linkRe = text.Lazy(`\[\[([^\[\]\n]+?)\]\]`)
	// relTok is a relation type: one token of letters, digits, _ - . : (no spaces, so prose
	// like "- I met [[Bob]]" is a mention, not a relation), at most maxRelType runes; a type
	// tail at most maxToType. The lengths are checked after the match: a bounded repeat of a
	// Unicode class compiles to one copy per repeat, and these took 4 MB and a third of every
	// CLI call's start-up.
	relTok = `([\p{L}\p{N}_][\p{L}\p{N}_\-.:]*)`
	// sp is a space inside a relation line: RE2's \s is ASCII only, and a Chinese input method
	// types the ideographic space (U+3000) and pasted text brings no-break spaces, which made
	// "- [[张三]]　认识　[[李四]]" two mentions and no relation.
	sp        = `[\s\p{Zs}]`
	typeTail  = `(?:` + sp + `+#([\p{L}_]+))?[\s\p{Zs}.。;；]*$`
	subjRelRe = text.Lazy(`^` + relTok + sp + `*(\[\[[^\[\]\n]+?\]\])` + typeTail)
	pairRelRe = text.Lazy(`^(\[\[[^\[\]\n]+?\]\])` + sp + `*` + relTok + sp + `*(\[\[[^\[\]\n]+?\]\])` + typeTail)
	listRe    = text.Lazy(`^\s{0,3}[-*+]\s+(.*)$`)
	fenceRe   = text.Lazy("^\\s{0,3}(`{3,}|~{3,})")
	relOnly   = text.Lazy(`^` + relTok + `$`)
	typeOnly  = text.Lazy(`^[\p{L}_]+$`)
)

const (
	maxRelType = MaxRelation
	maxToType  = 32
)

// within reports whether s has at most n runes.
func within(s string, n int) bool { return utf8.RuneCountInString(s) <= n }

// Parse reads body. It never fails: what is not grammar is text.
func Parse(body string) Parsed {
	var p Parsed
	for _, l := range scan(body) {
		if l.code {
			continue
		}
		if rel, ok := lineRelation(l.masked); ok {
			p.Relations = append(p.Relations, rel)
		}
		for _, lm := range linkRe.FindAllStringSubmatch(l.masked, -1) {
			if lk, ok := parseLink(lm[1]); ok {
				p.Links = append(p.Links, lk)
			}
		}
	}
	return p
}

// line is one body line: its text, the text with code spans blanked (same byte offsets) and
// whether it is code (fenced or indented) as a whole.
type line struct {
	text, masked string
	code         bool
}

// scan splits body into lines and marks code the way CommonMark does, near enough: fenced
// blocks (``` or ~~~, closed by a fence as long), indented code after a blank line (not a list
// item's continuation), code spans inside a line.
func scan(body string) []line {
	out, _ := scanFences(body)
	return out
}

// OpenFence is the fence (``` or ~~~ as written) of a fenced code block that body leaves open
// at its end, "" when none: a line appended to such a body is code, not grammar.
func OpenFence(body string) string {
	_, fence := scanFences(body)
	return fence
}

// scanFences is scan, also returning the fence still open at the end of body ("" when none).
func scanFences(body string) ([]line, string) {
	var out []line
	var fence string
	prevBlank, inCode, inItem := true, false, false
	for _, text := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		l := line{text: text, code: true}
		switch m := fenceRe.FindStringSubmatch(text); {
		case fence != "":
			if m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) &&
				strings.TrimSpace(text[strings.Index(text, m[1])+len(m[1]):]) == "" {
				fence = ""
			}
		case m != nil:
			fence = m[1]
		default:
			blank := strings.TrimSpace(text) == ""
			indented := strings.HasPrefix(text, "    ") || strings.HasPrefix(text, "\t")
			if !blank && indented && ((prevBlank && !inItem) || inCode) {
				inCode, prevBlank = true, false
				break
			}
			if !blank {
				inCode = false
				if !indented {
					inItem = listRe.MatchString(text)
				}
			}
			prevBlank = blank
			l.code, l.masked = false, stripCodeSpans(text)
		}
		out = append(out, l)
	}
	return out, fence
}

// lineRelation reads a (masked) line as a relation list item, if it is one.
func lineRelation(masked string) (Relation, bool) {
	m := listRe.FindStringSubmatch(masked)
	if m == nil {
		return Relation{}, false
	}
	return relationLine(strings.TrimSpace(m[1]))
}

// Rewrite calls fn for every link outside code and replaces the link's whole text ("[[…]]")
// with what fn returns when it says so. Everything else is kept byte for byte.
func Rewrite(body string, fn func(l Link) (string, bool)) string {
	ls := scan(body)
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.text
		if l.code {
			continue
		}
		locs := linkRe.FindAllStringSubmatchIndex(l.masked, -1)
		if len(locs) == 0 {
			continue
		}
		var b strings.Builder
		last := 0
		for _, loc := range locs {
			lk, ok := parseLink(l.masked[loc[2]:loc[3]])
			if !ok {
				continue
			}
			rep, change := fn(lk)
			if !change {
				continue
			}
			b.WriteString(l.text[last:loc[0]])
			b.WriteString(rep)
			last = loc[1]
		}
		b.WriteString(l.text[last:])
		parts[i] = b.String()
	}
	return strings.Join(parts, "\n")
}

// DropRelations removes every relation line (outside code) for which drop says true.
func DropRelations(body string, drop func(r Relation) bool) string {
	var kept []string
	for _, l := range scan(body) {
		if !l.code {
			if r, ok := lineRelation(l.masked); ok && drop(r) {
				continue
			}
		}
		kept = append(kept, l.text)
	}
	return strings.Join(kept, "\n")
}

// NameSubject writes subject, as plain text, at the start of every subject-less relation line
// (outside code) for which name says true: "- knows [[Bob]]" becomes "- Carol knows [[Bob]]".
// The line keeps what it said and is no longer a relation (a relation type is one token), so
// deleting the entity a memory's lines are about loses no text. Everything else is kept.
func NameSubject(body, subject string, name func(r Relation) bool) string {
	subject = strings.TrimSpace(subject)
	ls := scan(body)
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.text
		if l.code || subject == "" {
			continue
		}
		r, ok := lineRelation(l.masked)
		if !ok || r.From != "" || !name(r) {
			continue
		}
		if loc := listRe.FindStringSubmatchIndex(l.text); loc != nil {
			parts[i] = l.text[:loc[2]] + subject + " " + l.text[loc[2]:]
		}
	}
	return strings.Join(parts, "\n")
}

// Raw renders a link back as written: "[[Target]]" or "[[Target|Label]]", with its heading
// after the target ("[[Target#Heading|Label]]").
func (l Link) Raw() string {
	if l.Label != "" {
		return "[[" + l.Target + l.Heading + "|" + l.Label + "]]"
	}
	return "[[" + l.Target + l.Heading + "]]"
}

// relationLine reads the text of a list item as a relation, if it is one.
func relationLine(item string) (Relation, bool) {
	if m := pairRelRe.FindStringSubmatch(item); m != nil && within(m[2], maxRelType) && within(m[4], maxToType) {
		a, okA := parseLink(m[1][2 : len(m[1])-2])
		b, okB := parseLink(m[3][2 : len(m[3])-2])
		if !okA || !okB {
			return Relation{}, false
		}
		return Relation{From: a.Target, Type: RelationType(m[2]), To: b.Target, ToType: strings.ToLower(m[4])}, true
	}
	if m := subjRelRe.FindStringSubmatch(item); m != nil && within(m[1], maxRelType) && within(m[3], maxToType) {
		b, ok := parseLink(m[2][2 : len(m[2])-2])
		if !ok {
			return Relation{}, false
		}
		return Relation{Type: RelationType(m[1]), To: b.Target, ToType: strings.ToLower(m[3])}, true
	}
	return Relation{}, false
}

// HeadingAt is where an Obsidian heading or block reference starts in a link's target
// ("Acme#History", "note#^b1", "#Summary"): the first '#' that opens the target or is directly
// followed by a letter, digit or '^'; -1 when there is none. Any other '#' — at the end, or
// before punctuation or a space — belongs to the name: "[[C#]]", "[[F#]]" and "[[C#/.NET]]"
// were read as links to headings of C and F, so C# and C were one entity.
func HeadingAt(target string) int {
	for i := 0; i < len(target); i++ {
		if target[i] != '#' {
			continue
		}
		if i == 0 {
			return 0
		}
		r, _ := utf8.DecodeRuneInString(target[i+1:])
		if r == '^' || unicode.IsLetter(r) || unicode.IsNumber(r) {
			return i
		}
	}
	return -1
}

// parseLink reads the inside of [[…]]: "Target", "Target|Label", "Target#Heading" (HeadingAt
// says where a heading starts; "C#" is a name). A link to a heading of the note itself
// ("[[#Summary]]", "[[#^block]]") names no entity: it was one called "#Summary", which no edit
// could name again.
func parseLink(inner string) (Link, bool) {
	target, label, _ := strings.Cut(inner, "|")
	target = strings.TrimSpace(target)
	heading := ""
	if i := HeadingAt(target); i >= 0 {
		target, heading = target[:i], target[i:]
	}
	target, label = strings.TrimSpace(target), strings.TrimSpace(label)
	if target == "" || utf8.RuneCountInString(target) > MaxName || utf8.RuneCountInString(label) > MaxName {
		return Link{}, false
	}
	if label == target {
		label = ""
	}
	return Link{Target: target, Label: label, Heading: heading}, true
}

// stripCodeSpans blanks `code spans` (a run of backticks closed by a run of the same length),
// so links inside them are not read.
func stripCodeSpans(line string) string {
	if !strings.Contains(line, "`") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		tick := strings.Repeat("`", n)
		end := -1
		for j := i + n; j < len(line); {
			k := strings.Index(line[j:], tick)
			if k < 0 {
				break
			}
			k += j
			m := 0
			for k+m < len(line) && line[k+m] == '`' {
				m++
			}
			if m == n {
				end = k
				break
			}
			j = k + m
		}
		if end < 0 {
			b.WriteString(line[i : i+n])
			i += n
			continue
		}
		b.WriteString(strings.Repeat(" ", end+n-i))
		i = end + n
	}
	return b.String()
}

// RelationType is the canonical spelling of a relation type: trimmed, lower case, width
// folded, spaces and dashes as underscores, at most MaxRelation characters.
func RelationType(s string) string {
	s = strings.ToLower(norm.NFKC.String(strings.TrimSpace(s)))
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return '_'
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > MaxRelation {
		s = string([]rune(s)[:MaxRelation])
	}
	return s
}

// Norm is the key two names are the same entity under: NFKC (full-width Ａｃｍｅ and half-width
// Acme, ideographic spaces), case folded, with punctuation, spaces and most symbols removed (so
// "Open-AI", "open ai" and "OpenAI" meet; "张 三" and "张三" too). Math symbols and combining
// marks stay: "C++" is not "C" (a relation to the one became a relation to the other), and a
// Devanagari vowel sign (a spacing mark) is part of its word. '#' stays too (and the sharp
// sign ♯ reads as '#'), so "C#" and "F#" are not "C" and "F". A name that is nothing but
// punctuation keeps its folded form so it still names something.
func Norm(name string) string {
	folded := strings.ToLower(norm.NFKC.String(strings.TrimSpace(name)))
	out := strings.Map(func(r rune) rune {
		if r == '♯' {
			return '#'
		}
		if r == '#' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) || unicode.Is(unicode.Sm, r) {
			return r
		}
		return -1
	}, folded)
	if out == "" {
		return folded
	}
	return out
}

// Mentions lists the distinct link targets of p (as written, first spelling wins per Norm).
func (p Parsed) Mentions() []Link {
	seen := map[string]bool{}
	var out []Link
	for _, l := range p.Links {
		k := Norm(l.Target)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, l)
	}
	return out
}

// Format renders a relation as a grammar line: "- type [[To]]" from the subject when from is
// "", else "- [[From]] type [[To]]"; toType adds " #type". Names holding ']' '[' '|' or a
// newline cannot be written as links and report false.
func Format(from, typ, to, toType string) (string, bool) {
	typ = RelationType(typ)
	if !ValidName(to) || (from != "" && !ValidName(from)) || !relOnly.MatchString(typ) || !within(typ, maxRelType) {
		return "", false
	}
	line := "- " + typ + " [[" + strings.TrimSpace(to) + "]]"
	if from != "" {
		line = "- [[" + strings.TrimSpace(from) + "]] " + typ + " [[" + strings.TrimSpace(to) + "]]"
	}
	if typeOnly.MatchString(toType) && within(toType, maxToType) {
		line += " #" + strings.ToLower(toType)
	}
	return line, true
}

// ValidName reports whether name can be written inside [[ ]] and read back whole: no ']' '['
// '|' or newline, and no '#' that would be read as a heading (HeadingAt), so "C#" is a name
// and "Acme#History" is not.
func ValidName(name string) bool {
	name = strings.TrimSpace(name)
	return name != "" && utf8.RuneCountInString(name) <= MaxName && !strings.ContainsAny(name, "[]|\n\r") && HeadingAt(name) < 0
}
