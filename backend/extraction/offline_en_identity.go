package extraction

import (
	"strings"

	"engram/backend/text"
)

// English identity rules: who the person is. Each fact — name, role, work, status, where they
// are based, where they are from — becomes its own memory under a fixed slug (idFacts), and
// each name (of the person, an employer, a place) is cut where the name ends (enEntityEnd).
var (
	enName     = text.Lazy(`(?:\b(?:my name is|my name's|call me|i'm|i am|i’m)|^name(?:'s| is))\s+(\pL)`)
	enRoleNoun = `(?:engineer|developer|dev|designer|teacher|analyst|manager|lead|founder|co-founder|student|scientist|researcher|architect|consultant|illustrator|writer|doctor|nurse|lawyer|accountant|chef|freelancer|programmer|administrator|admin|sre|cto|ceo|artist|photographer|editor|translator|marketer|recruiter|intern|professor|owner|maintainer|tester|pm)`
	enRole     = text.Lazy(`\b(?:i'm|i am|i’m|i work as|i'm working as|i am working as)\s+(?:(?:just|only|basically|actually|currently|now|still)\s+)?(?:a|an|the)\s+((?:[a-z-]+\s+){0,4}?` + enRoleNoun + `)\b`)
	enApposite = text.Lazy(`^,\s*(?:a|an|the)?\s*((?:[a-z-]+\s+){0,4}?` + enRoleNoun + `)\b`)
	enOrgNoun  = `(?:company|agency|studio|shop|startup|business|team|store|restaurant|cafe|café|lab|firm|consultancy|bank|hospital|school|university|college|fintech|bakery|clinic|nonprofit|charity|factory|hotel|institute)`
	enWork     = text.Lazy(`\bi (work at|work for|run|own|founded|co-founded|manage)\s+((?:a|an|the)\s+)?((?:[a-z0-9&.'-]+\s+){0,4}?` + enOrgNoun + `)s?\b`)
	enWorkAt   = text.Lazy(`\bi (?:(?:now|currently|still|also) )?work ((?:at|for)\s+(?:the\s+)?)(\pL)`)
	enPlace    = text.Lazy(`\b(?:we (?:now |currently |still )?live in|we're in|we are in|we're based in|we (?:just |recently )?moved to|i (?:now |currently |still )?live in|i'm (?:now |currently )?living in|i am (?:now |currently )?living in|i'm (?:now |currently )?based in|i am (?:now |currently )?based in|based in|i (?:just |recently |finally )?(?:moved|relocated) to|i(?:'ve|’ve| have) (?:just |recently |finally )?(?:moved|relocated) to)\s+(\pL)`)
	enHometown = text.Lazy(`\b(?:i'm|i am|i’m) (?:originally )?from\s+(\pL)|\bi grew up in\s+(\pL)`)
	enStatus   = text.Lazy(`\bi(?:'m| am|’m) (?:now )?(retired|semi-retired|unemployed|between jobs|self-employed|on parental leave|on sabbatical|a stay-at-home (?:mom|dad|parent))\b`)
	enTeach    = text.Lazy(`\bi (?:teach|lecture in|lecture on)\s+((?:[a-z][a-z-]*)(?:\s[a-z-]+){0,3}?)(?:\s+(?:at|in)\s|[,.;!]|$)`)
	enTeachNot = text.Lazy(`^(?:myself|yourself|themselves|them|him|her|it|my |our |the kids|kids)`)

	// enIDNegated, before an identity phrase in its clause, denies it: "I'm not based in Paris
	// anymore" states no place.
	enIDNegated = text.Lazy(`\b(?:not|no longer|never|don't|don’t|dont|do not|didn't|didn’t|doesn't|doesn’t|isn't|wasn't|aren't|won't|no more)\b`)
	// enTailMark starts what follows an identity phrase: a role (" as a nurse"), work (" at
	// Acme", " for Siemens"), a place (" in Zurich").
	enTailMark = text.Lazy(`\s(as|at|for|in)\s+`)
	enAsRole   = text.Lazy(`^(?:a|an|the)\s+|^(?:[a-z-]+\s+){0,3}?` + enRoleNoun + `\b`)
	enStudent  = text.Lazy(`\b(?:student|phd|undergrad|undergraduate|postdoc|pupil)\b`)
	// enJoiner ends an identity phrase's words where another thought joins the clause.
	enJoiner = text.Lazy(`\s(?:and|or|but|with|who|where|which|that|while|because|since|when|so|though|although|unless|if)\b`)
)

// enFunctionWords never belong to a name, even capitalised ("ACME AS A NURSE").
var enFunctionWords = map[string]bool{"as": true, "in": true, "at": true, "and": true, "but": true, "with": true,
	"for": true, "from": true, "since": true, "because": true, "when": true, "where": true, "who": true, "that": true,
	"which": true, "on": true, "of": true, "to": true, "or": true, "so": true, "i": true, "i'm": true, "i’m": true,
	"the": true, "a": true, "an": true, "now": true, "then": true, "by": true, "near": true, "until": true,
	"while": true, "if": true, "though": true, "although": true, "after": true, "before": true, "is": true,
	"am": true, "are": true, "was": true, "we": true, "my": true, "our": true, "too": true, "here": true,
	"there": true, "anymore": true, "currently": true, "still": true, "also": true, "last": true, "next": true}

// enNameParticles join two capitalised words of one name: "Bank of America", "Rio de Janeiro".
var enNameParticles = map[string]bool{"of": true, "de": true, "da": true, "del": true, "della": true, "di": true,
	"van": true, "von": true, "der": true, "den": true, "du": true, "la": true, "le": true, "y": true, "&": true}

// enCalendar are capitalised words that name a time, not a place or employer ("a nurse in May").
var enCalendar = map[string]bool{"january": true, "february": true, "march": true, "april": true, "may": true,
	"june": true, "july": true, "august": true, "september": true, "october": true, "november": true,
	"december": true, "monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true, "christmas": true, "easter": true}

// enIdentityRule reads who the person is: each fact it finds is one finding under its slug
// (none when the sentence states no identity fact).
func enIdentityRule(s *sentence, ps *profile) []finding {
	l := s.lower
	x := &idFacts{s: s, rule: "en.identity"}
	for _, m := range enName.FindAllStringSubmatchIndex(l, -1) {
		if e, ok := enNameEnd(s, m); ok {
			x.add("user-name", "Name: "+trimPunct(s.orig[m[2]:e]), m[0], e, false)
			if am := enApposite.FindStringSubmatchIndex(l[e:]); am != nil {
				x.role(ps, e+am[2], e+am[3], e, true)
			}
			break
		}
	}
	if m := enStated(enRole, l); m != nil {
		x.role(ps, m[2], m[3], m[0], false)
	}
	if m := enStated(enWorkAt, l); m != nil && capitalised(s, m[4]) {
		if e := enEntityEnd(s, m[4], 5); e > m[4] {
			n := len(x.list)
			own := x.tail(ps, e, clauseEnd(l, e), true)
			if f := x.add("user-work", "Works "+l[m[2]:m[4]]+trimPunct(s.orig[m[4]:own]), m[0], own, false); f != nil {
				f.rel("works_at", s.orig[m[4]:e])
				x.lead(n)
			}
		}
	} else if m := enStated(enWork, l); m != nil {
		n := len(x.list)
		own := x.tail(ps, m[1], clauseEnd(l, m[1]), false)
		verb := map[string]string{"work at": "Works at", "work for": "Works for", "run": "Runs", "own": "Owns",
			"founded": "Founded", "co-founded": "Co-founded", "manage": "Manages"}[l[m[2]:m[3]]]
		if x.add("user-work", verb+" "+trimPunct(s.orig[m[3]:own]), m[0], own, false) != nil {
			x.lead(n)
		}
	}
	if m := enStated(enTeach, l); m != nil && !enTeachNot.MatchString(l[m[2]:]) {
		n := len(x.list)
		own := x.tail(ps, m[3], clauseEnd(l, m[3]), false)
		what := trimPunct(s.orig[m[0]+2 : own])
		if x.add("user-role", capFirst(thirdPerson("I "+what)), m[0], own, false) != nil {
			ps.add(SignalRole, extendRole(s, m[0]+2, m[3]), s.orig)
			x.lead(n)
		}
	}
	if m := enStated(enStatus, l); m != nil {
		x.add("user-status", "Status: "+s.orig[m[2]:m[3]], m[0], m[1], false)
	}
	if m := enStated(enPlace, l); m != nil && capitalised(s, m[2]) {
		// "Berlin last month", "Berlin now", "Paris and I work …": the place's name alone.
		if e := enEntityEnd(s, m[2], 4); e > m[2] {
			if f := x.add("user-location", "Based in "+trimPunct(s.orig[m[2]:e]), m[0], e, false); f != nil {
				f.rel("lives_in", s.orig[m[2]:e])
			}
		}
	}
	if m := enStated(enHometown, l); m != nil {
		a := m[2]
		if a < 0 {
			a = m[4]
		}
		if e := enEntityEnd(s, a, 4); e > a && capitalised(s, a) && !enNationality(strings.ToLower(s.orig[a:e])) {
			if f := x.add("user-hometown", "From "+trimPunct(s.orig[a:e]), m[0], e, false); f != nil {
				f.rel("from", s.orig[a:e])
			}
		}
	}
	if len(x.list) == 0 {
		return nil
	}
	enIndustry(l, s.orig, ps)
	return x.findings()
}

// enNameEnd checks a name after "my name is", "call me", "I'm" (match m of enName) and returns
// where it ends: capitalised, not a common word or a nationality, and after a bare "I'm" only
// when the clause ends there ("I'm Ana.", "I'm Ana and …", not "I'm Happy to help").
func enNameEnd(s *sentence, m []int) (int, bool) {
	a := m[2]
	if !capitalised(s, a) || enDenied(s.lower, m[0]) {
		return 0, false
	}
	e := enEntityEnd(s, a, 4)
	if e <= a {
		return 0, false
	}
	name := s.orig[a:e]
	first := strings.ToLower(strings.Fields(name)[0])
	lead := s.lower[m[0]:a]
	after := strings.TrimSpace(s.lower[e:])
	explicit := strings.Contains(lead, "name") || strings.HasPrefix(lead, "call me")
	endsOK := after == "" || strings.ContainsAny(after[:1], ",.!;") || strings.HasPrefix(after, "and ") ||
		strings.HasPrefix(after, "from ") || strings.HasPrefix(after, "here") || enNameChatTail(after)
	ok := !nameStop[first] && (explicit || endsOK) && !enNationality(first) && strings.ToUpper(name) != name
	return e, ok
}

// enNameChatTail reports the words chat puts after a name given in passing ("I'm Sam by the
// way", "I'm Priya btw"): the clause ends with the name all the same.
func enNameChatTail(after string) bool {
	for _, t := range []string{"by the way", "btw", "fyi", "lol", "haha", "nice to meet you", "pleased to meet you"} {
		if after == t || strings.HasPrefix(after, t+" ") || strings.HasPrefix(after, t+",") || strings.HasPrefix(after, t+".") || strings.HasPrefix(after, t+"!") {
			return true
		}
	}
	return false
}

// role records the role s.orig[a:b] and what follows it in its clause ("a designer at Figma":
// designer, then work at Figma); from is where the words stating it start, cut when they
// continue another phrase ("I'm Eve, a designer").
func (x *idFacts) role(ps *profile, a, b, from int, cut bool) {
	n := len(x.list)
	own := max(x.tail(ps, b, clauseEnd(x.s.lower, b), false), b)
	if f := x.add("user-role", "Role: "+trimPunct(x.s.orig[a:own]), from, own, false); f != nil {
		f.cut = cut
		ps.add(SignalRole, extendRole(x.s, a, b), x.s.orig)
		x.lead(n)
	}
}

// tail reads the words after an identity phrase, from offset from to the clause end, and
// returns where the phrase's own words end. The trigger: "I work at Acme as a nurse." was
// titled "Works at Acme as" and the role lost; "I work at Google in Zurich." related the
// person to "Google in". What follows a phrase may state more facts, each recorded as its
// own: " as a nurse" (the role), " at Acme", " for Siemens" (work at a named employer), and
// after an employer's name (org: the phrase ends with one) " in Zurich", where they are based
// (implied: a place the sentence states replaces it). After a role "in …" is as often a field
// or a department ("a PhD student in Machine Learning", "a manager in Sales") as a place, so it
// stays in the role's words. The phrase's own words end at the first marker, or where another
// thought joins ("and", "who").
func (x *idFacts) tail(ps *profile, from, end int, org bool) int {
	s, l := x.s, x.s.lower
	if from >= end {
		return from
	}
	if j := enJoiner.FindStringIndex(l[from:end]); j != nil {
		end = from + j[0]
	}
	type mark struct {
		kind          string // role | work | place
		at, val, stop int    // the marker word, the value, where the value ends
		org           int    // the end of an employer's capitalised name, else -1
	}
	var marks []mark
	for _, m := range enTailMark.FindAllStringSubmatchIndex(l[from:end], -1) {
		k := mark{at: from + m[2], val: from + m[1], stop: end, org: -1}
		switch word := l[k.at : from+m[3]]; word {
		case "as": // "as a nurse", "as head nurse"; not "as well", "as usual"
			if a := enAsRole.FindStringIndex(l[k.val:end]); a != nil {
				k.kind = "role"
				if strings.HasSuffix(l[k.val:k.val+a[1]], " ") {
					k.val += a[1]
				}
			}
		case "at", "for": // an employer's name; not "for 6 years", "at night", and "at a fintech"
			// stays in the words of the role it describes
			if e := enEntityEnd(s, k.val, 5); e > k.val && !enCalendar[l[k.val:e]] && (word == "at" || !isTool(l[k.val:e])) {
				k.kind, k.org = "work", e
			}
		case "in": // where a named employer is: "at Google in Zurich"; not "in May", "in Python"
			if e := enEntityEnd(s, k.val, 4); org && e > k.val && !enCalendar[l[k.val:e]] && !isTool(l[k.val:e]) && !nameStop[l[k.val:e]] {
				k.kind, k.stop = "place", e
			}
		}
		if k.kind == "" {
			continue
		}
		org = k.kind == "work" && k.org > 0
		if n := len(marks); n > 0 && marks[n-1].kind != "place" {
			marks[n-1].stop = k.at
		}
		marks = append(marks, k)
	}
	for _, k := range marks {
		val := trimPunct(s.orig[k.val:k.stop])
		if val == "" {
			continue
		}
		var f *idFact
		switch k.kind {
		case "role":
			if f = x.add("user-role", "Role: "+val, k.at, k.stop, false); f != nil {
				ps.add(SignalRole, val, s.orig)
			}
		case "work":
			// A student's "at MIT" is where they study (the role is in the clause before).
			verb, rel := "Works ", "works_at"
			clause := l[:k.at]
			if i := strings.LastIndexAny(clause[:from], ",;"); i >= 0 {
				clause = clause[i+1:]
			}
			if enStudent.MatchString(clause) {
				verb, rel = "Studies ", "studies_at"
			}
			if f = x.add("user-work", verb+l[k.at:k.val]+trimPunct(s.orig[k.val:k.stop]), k.at, k.stop, false); f != nil && k.org > 0 {
				f.rel(rel, s.orig[k.val:k.org])
			}
		case "place":
			if f = x.add("user-location", "Based in "+val, k.at, k.stop, true); f != nil {
				f.rel("lives_in", val)
			}
		}
		if f != nil {
			f.cut = true
		}
	}
	if len(marks) > 0 {
		return marks[0].at
	}
	return end
}

// enStated returns the first match of re in l that no negation in its own clause denies.
func enStated(re *text.Regexp, l string) []int {
	for _, m := range re.FindAllStringSubmatchIndex(l, -1) {
		if !enDenied(l, m[0]) {
			return m
		}
	}
	return nil
}

// enDenied reports a negation between the start of the clause holding offset at and at.
func enDenied(l string, at int) bool {
	start := 0
	for _, sep := range []string{",", ";", ":", " but ", " and "} {
		if i := strings.LastIndex(l[:at], sep); i >= 0 && i+len(sep) > start {
			start = i + len(sep)
		}
	}
	return start <= at && enIDNegated.MatchString(l[start:at])
}

// enEntityEnd returns where the name that starts at offset a of the sentence ends: its
// capitalised words, at most max, two of them possibly joined by a particle or "&" ("Bank of
// America", "Procter & Gamble"). It stops before a function word even when capitalised, a
// lower-case word, a word with digits and punctuation, and leaves a word's trailing full stop
// out ("Umbrella Corp." is "Umbrella Corp"); a when nothing there is a name.
func enEntityEnd(s *sentence, a, max int) int {
	mask, end, words := s.mask, a, 0
	for i := a; i < len(mask) && words < max; {
		j := i
		for j < len(mask) && !strings.ContainsRune(" \t\n,;:!?()\"“”", rune(mask[j])) {
			j++
		}
		w := strings.TrimRight(mask[i:j], ".")
		lw := strings.ToLower(w)
		if words > 0 && enNameParticles[lw] && j < len(mask) && mask[j] == ' ' {
			// A particle belongs to the name only between two of its words.
			if k := j + 1; capitalised(s, k) && !enFunctionWords[strings.ToLower(enWordAt(mask, k))] {
				i = k
				continue
			}
			break
		}
		if w == "" || !capitalised(s, i) || enFunctionWords[lw] || strings.ContainsAny(w, "0123456789") {
			break
		}
		end, words = i+len(w), words+1
		if len(w) == j-i-1 && abbreviationAt(mask, j-1) && j < len(mask) && mask[j] == ' ' {
			end = j // "Dr. Lee", "John F. Kennedy": the stop is the word's, the name goes on
		} else if len(w) < j-i || j >= len(mask) || mask[j] != ' ' {
			break // a full stop or punctuation ends the name
		}
		i = j + 1
	}
	return end
}

// enWordAt is the word starting at offset i of s, up to a space or punctuation.
func enWordAt(s string, i int) string {
	j := i
	for j < len(s) && !strings.ContainsRune(" \t\n,;:!?.()\"“”", rune(s[j])) {
		j++
	}
	return s[i:j]
}

var enIndustries = []struct {
	re       *text.Regexp
	industry string
}{
	{text.Lazy(`\bfintechs?\b`), "fintech"}, {text.Lazy(`\bbanks?\b`), "banking"}, {text.Lazy(`\bhospitals?\b`), "healthcare"}, {text.Lazy(`\bclinics?\b`), "healthcare"},
	{text.Lazy(`\bweb agenc(?:y|ies)\b`), "web agency"}, {text.Lazy(`\bagenc(?:y|ies)\b`), "agency"}, {text.Lazy(`\bgames?\b`), "games"}, {text.Lazy(`\bschools?\b`), "education"},
	{text.Lazy(`\buniversit(?:y|ies)\b`), "education"}, {text.Lazy(`\be-commerce\b`), "e-commerce"}, {text.Lazy(`\becommerce\b`), "e-commerce"},
	{text.Lazy(`\binsurance\b`), "insurance"}, {text.Lazy(`\bstartups?\b`), "startup"}, {text.Lazy(`\brestaurants?\b`), "hospitality"},
}

func enIndustry(l, orig string, ps *profile) {
	for _, in := range enIndustries {
		if in.re.MatchString(l) {
			ps.add(SignalIndustry, in.industry, orig)
			return
		}
	}
}
