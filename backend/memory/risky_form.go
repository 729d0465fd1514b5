package memory

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// riskForm is the text the risk patterns read a second time: what scanForm makes of it
// (invisible characters removed, fullwidth and other compatibility forms folded), Cyrillic
// and Greek letters that look like Latin ones read as those, underscores as spaces and every
// run of white space (line breaks too) as one space. An injection written to pass a reader's
// eye but not the patterns ("іgnore" with a Cyrillic і, "ｉｇｎｏｒｅ", "ignore\nall previous
// instructions", ignore_all_previous_instructions, HTML character references) reads as what it
// says. The form is only searched, never stored.
func riskForm(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c == '_' || c == '&' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f' {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s) // "&#105;gnore", which a model reading the Markdown reads as "ignore"
	}
	s = scanForm(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if r == '_' || unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		if l, ok := lookAlike[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lookAlike maps the Cyrillic and Greek letters drawn like a Latin letter to that letter.
var lookAlike = func() map[rune]rune {
	m := map[rune]rune{}
	for _, p := range []string{
		"аa", "еe", "оo", "рp", "сc", "уy", "хx", "іi", "јj", "ѕs", "һh", "ԁd", "ԛq", "ԝw", "ӏl", "ɡg",
		"АA", "ВB", "ЕE", "КK", "МM", "НH", "ОO", "РP", "СC", "ТT", "ХX", "ІI", "ЈJ", "ЅS", "ԚQ", "ԜW",
		"αa", "εe", "ιi", "κk", "νv", "οo", "ρp", "τt", "υu", "χx",
		"ΑA", "ΒB", "ΕE", "ΖZ", "ΗH", "ΙI", "ΚK", "ΜM", "ΝN", "ΟO", "ΡP", "ΤT", "ΥY", "ΧX",
	} {
		rs := []rune(p)
		m[rs[0]] = rs[1]
	}
	return m
}()

// RiskOfMemory is RiskOf over every field of m an agent is shown beside its body: the title,
// the aliases and the tags (an alias holds 120 characters, enough for "ignore all previous
// instructions"; before, only the title and the body were read).
func RiskOfMemory(m *Memory) *Risk {
	if m == nil {
		return nil
	}
	texts := make([]string, 0, 2+len(m.Aliases)+len(m.Tags))
	texts = append(append(append(texts, m.Title, m.Body), m.Aliases...), m.Tags...)
	return RiskOf(texts...)
}
