package extraction

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the offline extractor. The controller already trims turns (DESIGN §6); these
// bound the work again so a hostile or giant message cannot make a run slow.
const (
	offlineMaxMessageBytes = 4096
	offlineMaxSentences    = 48
	offlineMaxItems        = 8
	offlineMaxQuoteBytes   = 80 // ≤ 80 characters whichever way they are counted
	offlineMaxTitleRunes   = 110
	offlineModel           = "offline"
)

// NoopNoProject is the offline planner's noop reason when the turn's only facts were notes for
// "this project" and the turn has no project folder: such a note is not written, and never
// moved to global, where it would reach every other project's agents.
const NoopNoProject = "no-project-folder"

// Offline is the rule-based planner used when no LLM is configured: English and Chinese
// patterns for identity, preferences, feedback, explicit "remember" requests, tools and
// experiences, plus profile signals. It reads the person's newest message and the earlier
// turns of the window that no run planned yet (Input.Planned), never invents a fact, and
// every item quotes the message it comes from verbatim. Deterministic and free of I/O.
type Offline struct{}

// NewOffline returns the offline planner.
func NewOffline() Planner { return Offline{} }

// finding is one fact a rule recognised in the person's message, before it becomes a plan item.
type finding struct {
	typ     string // user | feedback | project | reference | experience
	kind    string // a short ascii word that names the rule family, part of the slug
	slug    string // a fixed slug for facts a person has only one of (name, location)
	slugKey string // text the slug is derived from when slug is empty
	title   string
	body    string
	// start and end delimit, in bytes of the message, the words the quote is cut around.
	start, end int
	high       bool // an explicit "remember" request
	pinned     bool // the person tied it to this project
	rule       string
	// rels are the knowledge-graph edges the words state (DESIGN §8), from the person.
	rels []Relation
}

// rel adds a relation from the memory's subject (the person) once.
func (f *finding) rel(relation, object string) {
	object = trimPunct(object)
	if object == "" {
		return
	}
	for _, r := range f.rels {
		if r.Relation == relation && r.Object == object {
			return
		}
	}
	f.rels = append(f.rels, Relation{Relation: relation, Object: object})
}

// Plan proposes writes for the facts the person's newest message states.
func (Offline) Plan(ctx context.Context, in Input) (Outcome, error) {
	out := Outcome{Model: offlineModel, Plan: Plan{Status: PlanNoop}}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	msg, ok := newestUserMessage(in)
	// Transports deliver JSON, always valid UTF-8; anything else cannot be quoted faithfully.
	if !ok || !utf8.ValidString(msg) {
		return out, nil
	}
	msg = clipMessage(msg, offlineMaxMessageBytes)
	findings, signals := analyse(msg)
	if f, ok := answeredName(previousAssistant(in), msg); ok {
		findings = append([]finding{f}, findings...)
	}
	type said struct {
		msg      string
		findings []finding
	}
	// The newest message first, then earlier turns of the window no run has planned yet (a
	// turn the interval gate skipped, several turns a hook delivered at once).
	sources := []said{{msg, findings}}
	for _, older := range unplannedEarlier(in) {
		f, sig := analyse(older)
		sources = append(sources, said{older, f})
		signals = append(signals, sig...)
	}
	projectOK := in.ProjectPinned || strings.TrimSpace(in.Request.Workdir) != ""
	// A slug the person rejected is proposed all the same: the validator refuses it by name
	// (rejected-slug-no-override), so the run says what it left out and why. Skipped here,
	// the turn read as "nothing worth remembering".
	skip := map[string]bool{}
	for _, s := range in.WrittenThisTurn {
		skip[s] = true
	}
	existing := map[string]bool{}
	for _, c := range in.Candidates {
		existing[c.Scope+"\x00"+c.Slug] = true
	}
	noProject := false
	var from []int // the source of each item
	for si, src := range sources {
		for _, f := range src.findings {
			if f.pinned && !projectOK {
				noProject = true
				continue
			}
			it, ok := f.item(src.msg)
			if !ok || skip[it.Slug] {
				continue
			}
			if !existing[it.Scope+"\x00"+it.Slug] && it.legacySlug != "" && existing[it.Scope+"\x00"+it.legacySlug] {
				it.Slug = it.legacySlug // an older build's slug of the fact (resolveLegacySlugs)
			}
			if existing[it.Scope+"\x00"+it.Slug] {
				it.Action, it.Mode = ActionUpdate, "replace"
			}
			if i := slugAt(out.Plan.Items, it.Slug); i >= 0 {
				// A fact a person has one of, stated again later in the same message ("I live in
				// Paris. Actually no, I moved to Berlin."), is the correction: it replaces the
				// earlier statement. An older turn's statement never replaces a newer one.
				if f.slug != "" && from[i] == si {
					out.Plan.Items[i] = it
				}
				continue
			}
			if len(out.Plan.Items) == offlineMaxItems {
				continue
			}
			out.Plan.Items = append(out.Plan.Items, it)
			from = append(from, si)
		}
	}
	out.Plan.Profile = signals
	if len(out.Plan.Items) > 0 {
		out.Plan.Status = PlanUpdated
	} else if noProject {
		out.NoopReason = NoopNoProject
	}
	return out, nil
}

// unplannedEarlier lists the person's messages before the newest one in the compact
// context's turns that no earlier run planned, newest first.
func unplannedEarlier(in Input) []string {
	planned := map[string]bool{}
	for _, h := range in.Planned {
		planned[h] = true
	}
	var users []string
	for _, m := range in.Turns {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	var out []string
	for i := len(users) - 2; i >= 0; i-- {
		t := users[i]
		if strings.TrimSpace(t) == "" || !utf8.ValidString(t) || planned[ContentHash(t)] {
			continue
		}
		out = append(out, clipMessage(t, offlineMaxMessageBytes))
	}
	return out
}

// newestUserMessage picks the person's latest words: from the compact context's turns when the
// controller built them, else from the request.
func newestUserMessage(in Input) (string, bool) {
	for _, msgs := range [][]Message{in.Turns, in.Request.Messages} {
		for i := len(msgs) - 1; i >= 0; i-- {
			if msgs[i].Role == "user" {
				// A blank newest message states nothing; older ones had their own run.
				return msgs[i].Content, strings.TrimSpace(msgs[i].Content) != ""
			}
		}
	}
	return "", false
}

// previousAssistant is the assistant message just before the person's newest one, if any.
func previousAssistant(in Input) string {
	msgs := in.Request.Messages
	i := len(msgs) - 1
	for i >= 0 && msgs[i].Role != "user" {
		i--
	}
	for i--; i >= 0; i-- {
		if msgs[i].Role == "assistant" {
			return clipMessage(msgs[i].Content, offlineMaxMessageBytes)
		}
		if msgs[i].Role == "user" {
			return ""
		}
	}
	return ""
}

// slugAt is the index of the item with slug, -1 when there is none.
func slugAt(items []PlanItem, slug string) int {
	for i, it := range items {
		if it.Slug == slug {
			return i
		}
	}
	return -1
}

// item renders a finding as a write; ok is false when nothing usable is left (an empty quote).
// A finding pinned to the project is written there (the caller drops it without a project).
func (f finding) item(msg string) (PlanItem, bool) {
	quote := quoteAround(msg, f.start, f.end)
	if len(quote) < 2 {
		return PlanItem{}, false
	}
	typ, scope := f.typ, "global"
	if f.pinned {
		scope = "project"
		if typ == "user" || typ == "reference" {
			typ = "project"
		}
	}
	conf := "medium"
	if f.high {
		conf = "high"
	}
	slug, legacy := f.slug, ""
	if slug == "" {
		slug, legacy = makeSlug(typ, f.kind, f.slugKey), legacySlug(typ, f.kind, f.slugKey)
	} else if typ != f.typ {
		slug, legacy = makeSlug(typ, f.kind, f.slug), legacySlug(typ, f.kind, f.slug)
	}
	return PlanItem{
		Action:      ActionWrite,
		Slug:        slug,
		legacySlug:  legacy,
		Scope:       scope,
		Type:        typ,
		Description: clipRunes(oneLine(f.title), offlineMaxTitleRunes),
		Body:        f.body,
		Confidence:  conf,
		SourceQuote: quote,
		ReasonKey:   reasonOfflineRule,
		ReasonArgs:  map[string]any{"Rule": f.rule},
		Relations:   f.rels,
	}, true
}

// asciiWords lower-cases the Latin letters and digits of s into at most n words, dropping
// filler words that make slugs long without telling facts apart.
func asciiWords(s string, n int) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		w := b.String()
		b.Reset()
		if w == "" || slugStop[w] || len(words) == n {
			return
		}
		if len(w) > 20 {
			w = w[:20]
		}
		words = append(words, w)
	}
	prev := ' '
	for i, r := range s {
		switch {
		case (r == '\'' || r == '’') && (prev == 'n' || prev == 'N') && negContraction(s[i+utf8.RuneLen(r):]):
			// "don't", "can't", "isn't": the negation stays in the word ("dont"), so "Don't use
			// semicolons" never gets a slug that reads "use-semicolons".
			b.WriteByte('t')
		case (r == 't' || r == 'T') && (prev == '\'' || prev == '’') && strings.HasSuffix(b.String(), "nt"):
			// the t of "n't", already written
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		default:
			flush()
		}
		prev = r
	}
	flush()
	return words
}

// negContraction reports whether rest (after "n'") is the t that ends a word.
func negContraction(rest string) bool {
	if !strings.HasPrefix(rest, "t") && !strings.HasPrefix(rest, "T") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest[1:])
	return len(rest) == 1 || !unicode.IsLetter(r)
}

var slugStop = map[string]bool{"a": true, "an": true, "the": true, "i": true, "m": true, "s": true,
	"t": true, "to": true, "of": true, "my": true, "me": true, "is": true, "are": true, "and": true,
	"in": true, "on": true, "for": true, "that": true, "this": true, "with": true, "please": true,
	"it": true, "be": true, "am": true, "ve": true, "ll": true, "d": true, "re": true, "doesn": true,
	"don": true, "can": true, "has": true, "isn": true,
	"does": true, "really": true, "prefers": true, "likes": true, "loves": true, "uses": true,
	"mostly": true, "mainly": true, "usually": true, "so": true, "we": true, "our": true, "you": true,
	"your": true, "stand": true, "like": true, "what": true, "was": true, "but": true}

// normaliseKey folds case and drops punctuation and spaces so trivially different wordings of
// one fact hash alike.
func normaliseKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == ' ' || r == '\t' || isPunct(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// clipMessage bounds a message the offline rules read to n bytes: its head and its tail, apart
// as paragraphs, each cut on a rune boundary (at a line break near the cut when there is one).
// The trigger: a pasted 200-line log followed by "Remember that I prefer kebab-case for URL
// paths." was cut to its first 4 KiB, and the request at its end was never read. The words the
// rules quote are the person's, verbatim, from either part.
func clipMessage(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := clip(s, n/4)
	if i := strings.LastIndexByte(head, '\n'); i > len(head)/2 {
		head = head[:i]
	}
	t := len(s) - (n - len(head) - 2)
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	tail := s[t:]
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < len(tail)/2 {
		tail = tail[i+1:]
	}
	return head + "\n\n" + tail
}

// clipRunes shortens s to n runes at a word boundary when there is one, marking the cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)[:n]
	cut := string(rs)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:，；：") + "…"
}
