package text

// Stem reduces an English word (lower case ASCII) to its Porter stem: "painting" and "painted"
// both become "paint". It follows M. F. Porter's 1980 algorithm, the one SQLite's porter
// tokenizer implements, so stems computed here agree with the stemmed word index. Words that
// are not plain lower-case ASCII, or shorter than three letters, are returned as they are.
func Stem(w string) string {
	if len(w) < 3 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	return string(stemOf([]byte(w)))
}

// stemOf runs the algorithm's five steps over b (which it may change) and returns the stem.
func stemOf(b []byte) []byte {
	p := porter{b: b}
	p.step1a()
	p.step1b()
	p.step1c()
	p.step2()
	p.step3()
	p.step4()
	p.step5()
	return p.b
}

type porter struct{ b []byte }

// cons reports whether b[i] is a consonant: not a vowel, and y only after a vowel.
func (p *porter) cons(i int) bool {
	switch p.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !p.cons(i-1)
	}
	return true
}

// measure counts the VC sequences in b[:n] ([C](VC)^m[V]).
func (p *porter) measure(n int) int {
	m, i := 0, 0
	for i < n && p.cons(i) {
		i++
	}
	for i < n {
		for i < n && !p.cons(i) {
			i++
		}
		if i >= n {
			break
		}
		for i < n && p.cons(i) {
			i++
		}
		m++
	}
	return m
}

func (p *porter) hasVowel(n int) bool {
	for i := 0; i < n; i++ {
		if !p.cons(i) {
			return true
		}
	}
	return false
}

// doubleCons reports whether b[:n] ends in a double consonant.
func (p *porter) doubleCons(n int) bool {
	return n >= 2 && p.b[n-1] == p.b[n-2] && p.cons(n-1)
}

// cvc reports whether b[:n] ends consonant-vowel-consonant with the last not w, x or y.
func (p *porter) cvc(n int) bool {
	if n < 3 || !p.cons(n-1) || p.cons(n-2) || !p.cons(n-3) {
		return false
	}
	c := p.b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

func (p *porter) ends(s string) bool {
	n := len(p.b)
	return n >= len(s) && string(p.b[n-len(s):]) == s
}

// setTo replaces the suffix of length k with s.
func (p *porter) setTo(k int, s string) { p.b = append(p.b[:len(p.b)-k], s...) }

// replaceIf swaps suffix for s when the stem before it has measure > min.
func (p *porter) replaceIf(suffix, s string, min int) bool {
	if !p.ends(suffix) {
		return false
	}
	if p.measure(len(p.b)-len(suffix)) > min {
		p.setTo(len(suffix), s)
	}
	return true
}

// step1a follows SQLite's porter tokenizer, which stems "sses" and "ies" to "ss" and "i"
// only when a letter comes before them: the words "sses" and "ies" (as in "memory(ies)") lose
// their "s" alone, and a stem computed here must equal the index's.
func (p *porter) step1a() {
	switch {
	case p.ends("sses") && len(p.b) > 4:
		p.setTo(4, "ss")
	case p.ends("ies") && len(p.b) > 3:
		p.setTo(3, "i")
	case p.ends("ss"):
	case p.ends("s"):
		p.setTo(1, "")
	}
}

func (p *porter) step1b() {
	if p.ends("eed") {
		if p.measure(len(p.b)-3) > 0 {
			p.setTo(3, "ee")
		}
		return
	}
	cut := 0
	switch {
	case p.ends("ed") && p.hasVowel(len(p.b)-2):
		cut = 2
	case p.ends("ing") && p.hasVowel(len(p.b)-3):
		cut = 3
	default:
		return
	}
	p.setTo(cut, "")
	n := len(p.b)
	switch {
	case p.ends("at"), p.ends("bl"), p.ends("iz"):
		p.b = append(p.b, 'e')
	case p.doubleCons(n) && p.b[n-1] != 'l' && p.b[n-1] != 's' && p.b[n-1] != 'z':
		p.b = p.b[:n-1]
	case p.measure(n) == 1 && p.cvc(n):
		p.b = append(p.b, 'e')
	}
}

func (p *porter) step1c() {
	if p.ends("y") && p.hasVowel(len(p.b)-1) {
		p.b[len(p.b)-1] = 'i'
	}
}

var step2Rules = [][2]string{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
	{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
	{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
	{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

func (p *porter) step2() {
	for _, r := range step2Rules {
		if p.replaceIf(r[0], r[1], 0) {
			return
		}
	}
}

var step3Rules = [][2]string{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func (p *porter) step3() {
	for _, r := range step3Rules {
		if p.replaceIf(r[0], r[1], 0) {
			return
		}
	}
}

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
	"ism", "ate", "iti", "ous", "ive", "ize",
}

func (p *porter) step4() {
	for _, s := range step4Suffixes {
		if !p.ends(s) {
			continue
		}
		n := len(p.b) - len(s)
		if s == "ion" && (n == 0 || (p.b[n-1] != 's' && p.b[n-1] != 't')) {
			return
		}
		if p.measure(n) > 1 {
			p.b = p.b[:n]
		}
		return
	}
}

func (p *porter) step5() {
	n := len(p.b)
	if p.b[n-1] == 'e' {
		m := p.measure(n - 1)
		if m > 1 || (m == 1 && !p.cvc(n-1)) {
			p.b = p.b[:n-1]
		}
	}
	n = len(p.b)
	if p.b[n-1] == 'l' && p.doubleCons(n) && p.measure(n) > 1 {
		p.b = p.b[:n-1]
	}
}
