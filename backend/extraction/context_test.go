package extraction

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"engram/backend/memory"
)

// TestWindow: the last 4 user turns with what followed them, each cut to 2,000 characters and
// all to 12,000, the newest user message always kept.
func TestWindow(t *testing.T) {
	var msgs []Message
	for i := 0; i < 6; i++ {
		msgs = append(msgs, Message{Role: "user", Content: strings.Repeat(string(rune('a'+i)), 5000)},
			Message{Role: "assistant", Content: strings.Repeat("答", 2500)})
	}
	msgs = append(msgs, Message{Role: "user", Content: "the last one"})
	w := window(msgs)
	users, total := 0, 0
	for _, m := range w {
		n := utf8.RuneCountInString(m.Content)
		if n > ContextMessageChars {
			t.Fatalf("a message of %d characters", n)
		}
		total += n
		if m.Role == "user" {
			users++
		}
	}
	if users > ContextUserTurns || total > ContextTotalChars || w[len(w)-1].Content != "the last one" {
		t.Fatalf("%d user turns, %d characters, last %q", users, total, w[len(w)-1].Content)
	}
	// d, e, f and the last are the four newest user turns; d is dropped to fit 12,000.
	// A cut message keeps its head and its tail, the mark between saying how much went.
	if w[0].Role != "assistant" || !strings.HasPrefix(w[1].Content, "eee") || users != 3 || !strings.HasSuffix(w[1].Content, "eee") ||
		!strings.Contains(w[1].Content, "characters left out") {
		t.Fatalf("window starts %s %q…, %d user turns", w[0].Role, w[1].Content[:6], users)
	}
	// At most candidateWords words (longest first) plus at most candidateWords CJK bigrams.
	if got := strings.Join(candidateTerms("Please remember that I prefer PostgreSQL over MySQL for the billing service 我喜欢喝绿茶"), " "); strings.Count(got, " ") > 2*candidateWords-1 ||
		!strings.HasPrefix(got, "postgresql ") || strings.Contains(got, " the ") || !strings.Contains(got, " 绿茶") {
		t.Fatalf("candidate terms %q", got)
	}
}

// TestCandidatesStayInView: the planner is shown global memories and the caller's own
// project and agent notes that match, never another agent's or another project's.
func TestCandidatesStayInView(t *testing.T) {
	g := newGatePlanner()
	f := newFx(t, g)
	wd, other := t.TempDir(), t.TempDir()
	put := func(slug string, scope memory.Scope, workdir, agent string) {
		title, body := "Espresso machine "+slug, "The espresso machine settings and grinder notes."
		res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpWrite, Slug: slug, Scope: scope,
			Workdir: workdir, Agent: agent, Type: memory.TypeReference, Title: &title, Body: &body}}})
		if err != nil || !res.Results[0].OK {
			t.Fatalf("%s: %+v %v", slug, res, err)
		}
	}
	put("espresso-global", memory.ScopeGlobal, "", "")
	put("espresso-mine", memory.ScopeAgent, "", "claude-code")
	put("espresso-theirs", memory.ScopeAgent, "", "codex")
	put("espresso-here", memory.ScopeProject, wd, "")
	put("espresso-there", memory.ScopeProject, other, "")
	req := turn("s1", "How should I set the espresso machine grinder today?")
	req.Workdir = wd
	got, in := plannedCandidates(t, f, g, req)
	if !got["espresso-global"] || !got["espresso-mine"] || !got["espresso-here"] || got["espresso-theirs"] || got["espresso-there"] {
		t.Fatalf("candidates %+v", in.Candidates)
	}
}

// TestPickRare: the rarest terms are searched with; terms no memory holds are dropped; common
// terms join only while the matched memories stay within the budget; two are always kept.
func TestPickRare(t *testing.T) {
	for _, tc := range []struct {
		name  string
		terms []string
		df    []int
		want  string
	}{
		{"rarest first", []string{"common", "rare", "mid"}, []int{dfLimit, 3, 50}, "rare mid"},
		{"absent dropped", []string{"ghost", "rare"}, []int{0, 2}, "rare"},
		{"two even when common", []string{"a1", "b1", "c1"}, []int{dfLimit, dfLimit, dfLimit}, "a1 b1"},
		{"all within budget", []string{"w1", "w2", "w3"}, []int{1, 2, 3}, "w1 w2 w3"},
		{"at most candidateSearch", []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7"}, []int{1, 1, 1, 1, 1, 1, 1}, "t1 t2 t3 t4 t5 t6"},
		{"none", nil, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(pickRare(tc.terms, tc.df), " "); got != tc.want {
				t.Fatalf("pickRare = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCandidateTitledWithCommonWord: a memory titled with a word hundreds of memories hold
// ("Coffee") is still shown to the planner when the turn also holds rarer words — the rare
// words alone fill the search, so the common one is looked up among titles.
func TestCandidateTitledWithCommonWord(t *testing.T) {
	g := newGatePlanner()
	f := newFx(t, g)
	var items []memory.Item
	add := func(slug, title, body string) {
		items = append(items, memory.Item{Op: memory.OpWrite, Slug: slug, Scope: memory.ScopeGlobal,
			Type: memory.TypeReference, Title: &title, Body: &body})
	}
	for i := 0; i < dfLimit+50; i++ {
		add(fmt.Sprintf("cafe-visit-%03d", i), fmt.Sprintf("Visit %d", i), fmt.Sprintf("Had a coffee at place number %d.", i))
	}
	add("grinder-note", "Kitchen gear", "The grinder lives in the left cupboard.")
	add("yesterday-note", "Errands", "Yesterday the parcel came late.")
	add("coffee-habit", "Coffee", "Two cups every morning, black.")
	res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if !r.OK {
			t.Fatalf("%s: %s %s", r.Slug, r.Code, r.Message)
		}
	}
	terms := candidateTerms("My coffee grinder broke yesterday")
	df, err := f.store.WordDocFreq(f.ctx, terms, dfLimit)
	if err != nil {
		t.Fatal(err)
	}
	if picked := pickRare(terms, df); slices.Contains(picked, "coffee") {
		t.Fatalf("the rare words %v took coffee too: this test needs coffee left out of them", picked)
	}
	got, in := plannedCandidates(t, f, g, turn("s1", "My coffee grinder broke yesterday"))
	if !got["coffee-habit"] || !got["grinder-note"] {
		t.Fatalf("candidates %+v: want coffee-habit (titled with the common word) and grinder-note", in.Candidates)
	}
}

// plannedCandidates runs one extraction of req and returns the slugs of the candidates the
// planner was shown (and its whole input).
func plannedCandidates(t *testing.T, f *fx, g *gatePlanner, req Request) (map[string]bool, Input) {
	t.Helper()
	d, err := f.svc.Request(context.Background(), req, false)
	if err != nil {
		t.Fatal(err)
	}
	in := <-g.started
	g.release <- struct{}{}
	f.waitFor(d.ID, ended)
	got := map[string]bool{}
	for _, c := range in.Candidates {
		got[c.Slug] = true
	}
	return got, in
}
