package extraction

import (
	"context"
	"strings"

	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/text"
)

// identitySlugs are the fixed slugs of facts a person has one of at a time (their name, role,
// work, status, where they live, where they are from), which the offline extractor writes
// under these slugs whatever the wording.
var identitySlugs = []string{"user-name", "user-role", "user-work", "user-status", "user-location", "user-hometown"}

// identityCandidates adds to a run's candidates the identity memories that exist (global, live)
// and that the caller may see, so a planner updates them instead of writing a second one.
//
// The trigger: "I live in Paris", later "Actually I moved to Berlin". The candidate search
// finds memories by the words of the turn, and "Berlin" does not find "Based in Paris", so
// the offline planner wrote user-location again, the store refused it (already_exists) and
// the old fact stayed: the newest statement must win. These few slugs are looked up by name
// (one indexed read each) whatever the turn says. Candidates already listed stay where they
// are; when the list is full, the last text-search ones make room (at most ContextCandidates).
//
// buildContext calls it right after the candidate search:
//
//	cands, err := s.candidates(ctx, vis, last.Content)
//	…
//	in.Candidates = s.identityCandidates(ctx, vis, cands)
func (s *Service) identityCandidates(ctx context.Context, vis recall.Visibility, cands []Candidate) []Candidate {
	have := map[string]bool{}
	for _, c := range cands {
		have[c.Scope+"\x00"+c.Slug] = true
	}
	var found []Candidate
	for _, slug := range identitySlugs {
		if have[string(memory.ScopeGlobal)+"\x00"+slug] {
			continue
		}
		// A failed read (absent, or the store erring) leaves the slug out: the planner then
		// writes, and the store's refusal shows in the run.
		m, err := s.o.Store.GetBySlug(ctx, memory.ScopeGlobal, "", "", slug)
		if err != nil || !vis.Allows(m) {
			continue
		}
		found = append(found, Candidate{Slug: m.Slug, Scope: string(m.Scope), Type: string(m.Type), Title: m.Title, Reviewed: m.Reviewed})
	}
	if len(found) == 0 {
		return cands
	}
	if room := ContextCandidates - len(found); len(cands) > room {
		cands = cands[:max(room, 0)]
	}
	return append(cands, found...)
}

// idFact is one identity fact of a sentence on its way to a finding: the parts of its title
// (more than one when a fact is told in pieces, "工作：…；单位：…") and the words of the
// sentence that state it, [from, to).
type idFact struct {
	finding
	parts    []string
	from, to int
	// weak marks a fact implied by another phrase (the place in "a nurse in Madrid"): a
	// statement of the same fact in the sentence ("… and I live in Oslo") replaces it.
	weak bool
	// cut marks words that continue another phrase ("… as a nurse"), quoted as such.
	cut bool
}

// idFacts gathers the identity facts of one sentence, one per fixed slug (identitySlugs), in
// the order they are stated. The trigger: "My name is Dave and I live in Oslo." was one
// user-name memory whose body also held "Based in Oslo", so "Actually I moved to Berlin."
// (which writes user-location) left Oslo in the home; with one memory per fact, each quoting
// only the words that state it, a correction replaces exactly the fact it corrects.
type idFacts struct {
	s    *sentence
	rule string
	zh   bool
	list []idFact
}

// add records a fact under slug, stated by the sentence's bytes [from, to), and returns it
// so the caller can add its relations; nil when the slug already holds a fact this one does
// not replace (the first statement wins, a statement replaces an implication).
func (x *idFacts) add(slug, part string, from, to int, weak bool) *idFact {
	for i := range x.list {
		if x.list[i].slug != slug {
			continue
		}
		if !x.list[i].weak || weak {
			return nil
		}
		x.list = append(x.list[:i], x.list[i+1:]...)
		break
	}
	x.list = append(x.list, idFact{finding: finding{typ: "user", kind: "identity", slug: slug, rule: x.rule},
		parts: []string{clipRunes(oneLine(part), offlinePhraseRunes)}, from: from, to: max(to, from), weak: weak})
	return &x.list[len(x.list)-1]
}

// lead moves the fact added last to position n, so a phrase's own fact comes before the
// facts of the words after it ("I work at Acme as a nurse": work, then role), the order said.
func (x *idFacts) lead(n int) {
	if last := len(x.list) - 1; n >= 0 && n < last {
		f := x.list[last]
		copy(x.list[n+1:], x.list[n:last])
		x.list[n] = f
	}
}

// more adds a part, stated by [from, to), to the fact under slug, or records it as that fact.
func (x *idFacts) more(slug, part string, from, to int) *idFact {
	if f := x.get(slug); f != nil {
		f.parts = append(f.parts, part)
		f.from, f.to = min(f.from, from), max(f.to, to)
		return f
	}
	return x.add(slug, part, from, to, false)
}

// get is the fact under slug, nil when the sentence states none.
func (x *idFacts) get(slug string) *idFact {
	for i := range x.list {
		if x.list[i].slug == slug {
			return &x.list[i]
		}
	}
	return nil
}

// findings renders the facts: the title joins the parts, the body states each once, ending
// each with one full stop ("Works at Umbrella Corp." must not end in two), then the person's
// words — the whole sentence when it states one fact, else the words from where this fact is
// stated to where the next one is, so no memory quotes another's fact ("My name is Dave", not
// "My name is Dave and I live in Oslo", which a move to Berlin would leave behind).
func (x *idFacts) findings() []finding {
	sep, stop, joiner, lead := "; ", ".", " ", "\n\nThe person said: “"
	if x.zh {
		sep, stop, joiner, lead = "；", "。", "", "\n\n原话：“"
	}
	out := make([]finding, 0, len(x.list))
	for _, it := range x.list {
		f := it.finding
		from, to := 0, len(x.s.orig)
		if len(x.list) > 1 {
			// The words before the first fact belong to it ("Hi, I'm Eve"); each fact's words
			// run to where the next fact's start.
			first := true
			for _, o := range x.list {
				first = first && o.from >= it.from
			}
			if !first {
				from = it.from
			}
			for _, o := range x.list {
				if o.from > it.from && o.from < to {
					to = o.from
				}
			}
		}
		// The words start and end on a word, never on a separator or a joining "and".
		for from < to && strings.ContainsRune(" ,，、;；:：", firstRune(x.s.orig[from:])) {
			from += len(string(firstRune(x.s.orig[from:])))
		}
		said := trimPunct(x.s.orig[from:to])
		for cut := len(x.list) > 1; cut; {
			cut = false
			for _, j := range []string{" and", " but", " so", " also", "而且", "并且"} {
				if strings.HasSuffix(strings.ToLower(said), j) {
					said, cut = trimPunct(said[:len(said)-len(j)]), true
				}
			}
		}
		if said == "" {
			from, said = it.from, trimPunct(x.s.orig[it.from:max(it.to, it.from)])
		}
		if len(x.list) > 1 {
			from += max(strings.Index(x.s.orig[from:], said), 0)
			to = from + len(said)
		}
		said = clipRunes(said, offlinePhraseRunes)
		if it.cut && len(x.list) > 1 {
			said = "…" + said
		}
		var body []string
		for _, p := range it.parts {
			body = append(body, withStop(p, stop))
		}
		f.title = strings.Join(it.parts, sep)
		f.body = strings.Join(body, joiner) + lead + said + "”"
		f.start, f.end = x.s.start+from, x.s.start+to
		out = append(out, f)
	}
	return out
}

// withStop ends a phrase with stop unless it already ends a sentence.
func withStop(p, stop string) string {
	p = strings.TrimRight(p, " ")
	if strings.HasSuffix(p, ".") || strings.HasSuffix(p, "!") || strings.HasSuffix(p, "?") ||
		strings.HasSuffix(p, "。") || strings.HasSuffix(p, "！") || strings.HasSuffix(p, "？") {
		return p
	}
	return p + stop
}

// enCallMe finds "call me" (the English sentences that may name the person as a request).
var enCallMe = text.Lazy(`\bcall me\b`)

// namesPerson reports whether the findings hold the person's name.
func namesPerson(fs []finding) bool {
	for _, f := range fs {
		if f.slug == "user-name" {
			return true
		}
	}
	return false
}

// namingOnly reports whether the words after "call me" / "叫我" end the sentence's one clause:
// no comma, semicolon or "and" joins another statement to the name.
func namingOnly(after string) bool {
	return !strings.ContainsAny(after, ",;，；、") && !strings.Contains(after, " and ") && !strings.Contains(after, "并且")
}
