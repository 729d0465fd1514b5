package extraction

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"engram/backend/memory"
	"engram/backend/recall"
)

// Identity memories that state several facts at once: the offline extractor wrote "My name is
// Alice Chen and I live in Paris" as one user-name memory (title "Name: Alice Chen; Based in
// Paris", the place in its body and its lives_in line) before each fact had a memory of its own
// (idFacts). A home holding one is split when one of its facts is next stated. The trigger: a
// correction ("Actually I moved to Berlin") wrote user-location and left "Based in Paris" in
// user-name, so recall served both places. What is done, after the plan's batch applied:
//
//   - a memory stating a fact the run wrote or updated under that fact's own slug is rewritten
//     without it: the fact's part of the title, its sentence, its relation line and its words
//     in the quote go; everything else — a paragraph the person added, the other facts — stays.
//     The rewrite is an update like any a plan makes (never a delete, which a plan may not do
//     to a reviewed memory): it lands unreviewed, so a memory the person had reviewed goes back
//     to their Review queue with the reason, at the version read (an edit of theirs meanwhile
//     is refused, not overwritten), and its earlier version stays in the history.
//   - a text that cannot be cut so (the person reworded it, or the memory is in the person's
//     own words, not the extractor's shape: plainFacts) is not guessed at: it is marked
//     conflicts_with the fact's memory and sent back to review, for the person to settle
//     (recall ranks it below that memory until then).
//   - when the plan replaced such a memory's own fact ("Actually, my name is Alicia"), its other
//     facts that have no memory of their own would go with the old text: each is written apart
//     first, from the person's words the memory quoted (the place stays known).

// quoteLeads open the paragraph in which the offline extractor quotes the person.
var quoteLeads = []struct {
	open string
	zh   bool
}{{"The person said: “", false}, {"原话：“", true}}

// memoryFacts is what an identity memory's own words state by today's rules: the person's
// words it quotes, the index of the quoting paragraph among the body's (-1 for a memory in
// other words: plainFacts), and the identity facts of the words (one per slug, in the order
// said).
type memoryFacts struct {
	m     *memory.Memory
	said  string
	quote int
	zh    bool
	facts []finding
}

// factsOf reads the facts an identity memory's quoted words state; ok is false when its body
// quotes no words the identity rules read. A user memory that quotes none in the extractor's
// shape (written by hand, with engram write, imported) is read in its own words (plainFacts).
func factsOf(m *memory.Memory) (memoryFacts, bool) {
	for i, p := range strings.Split(m.Body, "\n\n") {
		p = strings.TrimSpace(p)
		for _, l := range quoteLeads {
			if !strings.HasPrefix(p, l.open) || !strings.HasSuffix(p, "”") || len(p) < len(l.open)+len("”") {
				continue
			}
			mf := memoryFacts{m: m, said: clip(p[len(l.open):len(p)-len("”")], offlineMaxMessageBytes), quote: i, zh: l.zh}
			return mf.read()
		}
	}
	return plainFacts(m)
}

// plainFacts reads a user memory in the words it is written in — its source quote and its
// body, by the same identity rules ("My name is Alice Chen and I live in Paris."). Its text is
// not the extractor's shape, so it is never cut (without refuses it): one that still states a
// corrected fact is marked conflicting for the person to settle, and a fact of it that the
// plan's replace would lose is written apart from these words.
func plainFacts(m *memory.Memory) (memoryFacts, bool) {
	if m.Type != memory.TypeUser {
		return memoryFacts{}, false
	}
	var texts []string
	for _, p := range append([]string{m.SourceQuote}, strings.Split(m.Body, "\n\n")...) {
		if p = strings.TrimSpace(p); p != "" {
			texts = append(texts, p)
		}
	}
	mf := memoryFacts{m: m, said: clip(strings.Join(texts, "\n\n"), offlineMaxMessageBytes), quote: -1}
	return mf.read()
}

// read fills in the identity facts the memory's words (said) state.
func (mf memoryFacts) read() (memoryFacts, bool) {
	found, _ := analyse(mf.said)
	for _, f := range found {
		if f.kind != "identity" || f.pinned || !slices.Contains(identitySlugs, f.slug) {
			continue
		}
		if j := slices.IndexFunc(mf.facts, func(o finding) bool { return o.slug == f.slug }); j >= 0 {
			mf.facts[j] = f // the later statement of the fact is the one meant
		} else {
			mf.facts = append(mf.facts, f)
		}
	}
	slices.SortStableFunc(mf.facts, func(a, b finding) int { return a.start - b.start })
	return mf, len(mf.facts) > 0
}

// without is the memory's title, body and quote with the facts of drop taken out; ok is false
// when no fact would be left, none would go, the text still states one that should go, or it
// is not in the extractor's shape (the person's own words are never rewritten).
func (mf memoryFacts) without(drop map[string]bool) (title, body, quote string, ok bool) {
	if mf.quote < 0 {
		return "", "", "", false
	}
	var kept, gone []finding
	for _, f := range mf.facts {
		if drop[f.slug] {
			gone = append(gone, f)
		} else {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 || len(gone) == 0 {
		return "", "", "", false
	}
	sep, stop, gap, open := "; ", ".", " … ", quoteLeads[0].open
	if mf.zh {
		sep, stop, gap, open = "；", "。", "……", quoteLeads[1].open
	}
	title = mf.m.Title
	for _, f := range gone {
		for _, part := range titleParts(f.title) {
			title = cutPhrase(title, part, mf.zh)
		}
	}
	if strings.TrimSpace(title) == "" {
		var ts []string
		for _, f := range kept {
			ts = append(ts, f.title)
		}
		title = strings.Join(ts, sep)
	}
	// The kept facts' words, in the order said; words of a fact that goes leave a gap.
	var pieces []string
	from, to := -1, -1
	own := -1 // the piece holding the memory's own fact, for its quote
	for _, f := range mf.facts {
		if drop[f.slug] {
			if from >= 0 {
				pieces, from = append(pieces, trimPunct(mf.said[from:to])), -1
			}
			continue
		}
		if from < 0 {
			from = f.start
		}
		to = f.end
		if f.slug == mf.m.Slug || own < 0 {
			own = len(pieces)
		}
	}
	if from >= 0 {
		pieces = append(pieces, trimPunct(mf.said[from:to]))
	}
	var out []string
	for i, p := range strings.Split(mf.m.Body, "\n\n") {
		switch {
		case i < mf.quote:
			for _, f := range gone {
				for _, part := range titleParts(f.title) {
					if q := cutPhrase(p, withStop(part, stop), mf.zh); q != p {
						p = q
					} else {
						p = cutPhrase(p, part, mf.zh)
					}
				}
			}
		case i == mf.quote:
			p = open + strings.Join(pieces, gap) + "”"
		default:
			p = withoutLines(p, gone)
		}
		if strings.TrimSpace(p) != "" {
			out = append(out, strings.TrimRight(p, " "))
		}
	}
	body = strings.Join(out, "\n\n")
	if own >= 0 && own < len(pieces) {
		if i := strings.Index(mf.said, pieces[own]); i >= 0 {
			quote = quoteAround(mf.said, i, i+len(pieces[own]))
		}
	}
	// What is left must name none of the values that go ("Lives in Paris, France." a person
	// wrote instead of "Based in Paris."): else the text is not the shape this reads, and the
	// person decides.
	check := strings.ToLower(title + "\n" + body)
	for _, f := range gone {
		for _, v := range factValues(f) {
			if strings.Contains(check, strings.ToLower(v)) {
				return "", "", "", false
			}
		}
	}
	if left, ok := factsOf(&memory.Memory{Slug: mf.m.Slug, Body: body}); ok {
		for _, f := range left.facts {
			if drop[f.slug] {
				return "", "", "", false
			}
		}
	}
	return title, body, quote, true
}

// factValues are what a fact says: its relations' entities ("Paris") and the value of each
// part of its title ("Alice Chen" of "Name: Alice Chen"; the part itself when it has no label).
func factValues(f finding) []string {
	var out []string
	for _, r := range f.rels {
		out = append(out, r.Object)
	}
	for _, part := range titleParts(f.title) {
		if i := strings.IndexAny(part, ":："); i >= 0 {
			_, n := utf8.DecodeRuneInString(part[i:])
			part = part[i+n:]
		}
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// titleParts are the parts a fact's title joins ("工作：…；单位：…").
func titleParts(title string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(title, "；", "; "), "; ") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// cutPhrase takes the first phrase out of s with the separator or stop that follows it (the
// one before it, for a last phrase); s unchanged when the phrase is not there.
func cutPhrase(s, phrase string, zh bool) string {
	i := strings.Index(s, phrase)
	if phrase == "" || i < 0 {
		return s
	}
	head, tail := s[:i], strings.TrimLeft(s[i+len(phrase):], " .;,。；，、")
	if strings.TrimSpace(tail) == "" {
		return strings.TrimRight(head, " ;,；，、")
	}
	if head == "" || zh {
		return head + tail
	}
	return strings.TrimRight(head, " ") + " " + tail
}

// relationLines are the body lines the fact's relations were written as (DESIGN §8 grammar).
func relationLines(f finding) []string {
	rendered, _ := renderRelations("", f.rels)
	if rendered == "" {
		return nil
	}
	return strings.Split(rendered, "\n")
}

// withoutLines drops from a paragraph the relation lines of the facts that go (with or
// without the entity kind the line may end with).
func withoutLines(p string, gone []finding) string {
	var drop []string
	for _, f := range gone {
		drop = append(drop, relationLines(f)...)
	}
	var kept []string
	for _, line := range strings.Split(p, "\n") {
		t := strings.TrimSpace(line)
		if !slices.ContainsFunc(drop, func(d string) bool { return t == d || strings.HasPrefix(t, d+" #") }) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// replacedIdentities reads, before the plan's batch, the identity memories the plan replaces
// (offline: a fact stated again) whose words state other facts too: the replace would take
// those with it, so identitySplits writes them apart.
func (s *Service) replacedIdentities(ctx context.Context, vis recall.Visibility, ok []planned) map[string]memoryFacts {
	out := map[string]memoryFacts{}
	for _, p := range ok {
		it := p.item
		if p.action != ActionUpdate || it.Mode != "replace" || it.Scope != memory.ScopeGlobal || !slices.Contains(identitySlugs, it.Slug) {
			continue
		}
		m, err := s.o.Store.GetBySlug(ctx, memory.ScopeGlobal, "", "", it.Slug)
		if err != nil || !vis.Allows(m) {
			continue
		}
		if mf, ok := factsOf(m); ok && len(mf.facts) > 1 {
			out[it.Slug] = mf
		}
	}
	return out
}

// identitySplits are the changes that split the identity memories stating several facts, once
// the run applied its items (see the top of this file): replaced holds the memories the plan
// replaced, as they were; next is the report index of the first change. Each change passes
// the validator as a plan's item does, against the words the memory quoted; one it refuses
// (a slug the person rejected, a full scope) is reported with the run's refusals.
func (s *Service) identitySplits(ctx context.Context, vis recall.Visibility, v validator, applied []AppliedItem, replaced map[string]memoryFacts, next int) ([]planned, []RejectedItem) {
	ctx = context.WithoutCancel(ctx)
	stated := map[string]bool{} // the identity facts the run's items state under their own slugs
	for _, a := range applied {
		if a.Scope == memory.ScopeGlobal && (a.Action == ActionWrite || a.Action == ActionUpdate) && slices.Contains(identitySlugs, a.Slug) {
			stated[a.Slug] = true
		}
	}
	if len(stated) == 0 {
		return nil, nil
	}
	var out []planned
	var refused []RejectedItem
	say := s.splitReasons(ctx)
	add := func(mf memoryFacts, it PlanItem, version string) {
		it.split = true
		sv := v
		sv.userTexts, sv.source, sv.written = []string{mf.said}, mf.m.Source, nil
		ok, bad := sv.validate(Plan{Items: []PlanItem{it}}, nil)
		for _, p := range ok {
			p.index, p.item.ExpectedVersion = next, version
			out = append(out, p)
		}
		for _, r := range bad {
			r.Index = next
			refused = append(refused, r)
		}
		next++
	}
	for _, slug := range identitySlugs {
		if mf, ok := replaced[slug]; ok && stated[slug] {
			for _, f := range mf.facts {
				if f.slug == slug || stated[f.slug] {
					continue
				}
				if _, err := s.o.Store.GetBySlug(ctx, memory.ScopeGlobal, "", "", f.slug); err == nil {
					continue // a memory of its own states it
				}
				if it, ok := f.item(mf.said); ok {
					it.Reasoning, it.ReasonKey, it.ReasonArgs = say(splitApart, []string{slug}), "", nil
					add(mf, it, "")
				}
			}
			continue
		}
		if stated[slug] {
			continue
		}
		m, err := s.o.Store.GetBySlug(ctx, memory.ScopeGlobal, "", "", slug)
		if err != nil || !vis.Allows(m) {
			continue
		}
		mf, ok := factsOf(m)
		drop := map[string]bool{}
		var moved []string
		for _, f := range mf.facts {
			if f.slug != slug && stated[f.slug] {
				drop[f.slug] = true
				moved = append(moved, f.slug)
			}
		}
		if !ok || len(moved) == 0 {
			continue
		}
		it := PlanItem{Action: ActionUpdate, Slug: slug, Scope: string(memory.ScopeGlobal), Mode: "replace"}
		if title, body, quote, cut := mf.without(drop); cut {
			it.Description, it.Body, it.SourceQuote = title, body, quote
			it.Reasoning = say(splitCut, moved)
		} else if slices.ContainsFunc(moved, func(f string) bool { return !slices.Contains(m.ConflictsWith, f) }) {
			it.Mode, it.ConflictsWith = "merge", moved
			it.Reasoning = say(splitConflict, moved)
		} else {
			continue // marked before and left so by the person: theirs to settle
		}
		add(mf, it, m.Version)
	}
	return out, refused
}

// Kinds of split change, each with its reasoning at extraction.split_reason.<kind>.
const (
	splitApart    = "apart"    // a fact written apart from a memory the plan replaced
	splitCut      = "cut"      // a fact's older statement taken out of a memory
	splitConflict = "conflict" // a memory that still states the fact, marked for review
)

// splitReasons returns what writes the reasoning a split change records, which the Review
// queue shows as the memory's reasoning: a stored text (models write that field too, and the
// person edits it), so it is written from the catalog in the person's language of Settings
// when the change is made, never in a language guessed from the quote's script. slugs are the
// memories the reason names. Without a catalog it writes nothing ("", the memory's reasoning
// left as it was).
func (s *Service) splitReasons(ctx context.Context) func(kind string, slugs []string) string {
	say := s.texts(ctx)
	return func(kind string, slugs []string) string {
		return say("extraction.split_reason."+kind, map[string]any{"Slugs": strings.Join(slugs, ", ")})
	}
}
