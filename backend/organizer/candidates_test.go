package organizer

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// plantedPair is a near-duplicate syntheticStore put in on purpose: bodies a and b, and how b
// was made from a.
type plantedPair struct {
	a, b int
	kind string
}

// syntheticStore generates n bodies as a store of one type holds them: sentences of common
// words around a few of a long tail of rarer ones (pseudo-words, the common ones far more
// often), and every tenth memory said again — word for word, inside a longer note, with a word
// more, reordered, or about another thing (a rare word swapped: a guarded match). planted lists
// those pairs.
func syntheticStore(n int) ([]string, []plantedPair) {
	common := strings.Fields("the user prefers uses project for and with in on to of every new team work code when " +
		"always review build test deploy service data file config run before after should keep write read")
	seed := uint32(12345)
	rnd := func(k int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % k
	}
	syllables := strings.Fields("ka ve ro mi tu sa ne lo bi gu fa da pe zo ri hu ma to ki lu")
	vocab := make([]string, 4000)
	for i := range vocab {
		var w strings.Builder
		for s := 0; s < 2+i%3; s++ {
			w.WriteString(syllables[rnd(len(syllables))])
		}
		vocab[i] = fmt.Sprintf("%s%c", w.String(), 'a'+rune(i%26))
	}
	word := func() string {
		if rnd(2) == 0 {
			return common[rnd(len(common))]
		}
		u := float64(rnd(1<<20)) / (1 << 20)
		return vocab[int(float64(len(vocab))*u*u*u)]
	}
	sentence := func(k int) []string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = word()
		}
		return ws
	}
	var bodies []string
	var planted []plantedPair
	for len(bodies) < n {
		ws := sentence(12 + rnd(16))
		body := strings.Join(ws, " ") + "."
		bodies = append(bodies, body)
		if len(bodies)%10 != 1 || len(bodies) == n {
			continue
		}
		a := len(bodies) - 1
		var other, kind string
		switch len(bodies) / 10 % 5 {
		case 0:
			kind, other = "exact", strings.ToUpper(body[:1])+body[1:len(body)-1]+"!"
		case 1:
			kind, other = "contained", body+" "+strings.Join(sentence(8), " ")+"."
		case 2:
			kind = "word more"
			more := append(append(append([]string{}, ws[:len(ws)/2]...), "also"), ws[len(ws)/2:]...)
			other = strings.Join(more, " ")
		case 3:
			kind = "reordered"
			re := append([]string{}, ws...)
			for i := len(re) - 1; i > 0; i-- {
				j := rnd(i + 1)
				re[i], re[j] = re[j], re[i]
			}
			other = strings.Join(re, " ")
		default:
			kind = "rare word swapped"
			sw := append([]string{}, ws...)
			sw[len(sw)/2] = vocab[len(vocab)-1-rnd(500)]
			other = strings.Join(sw, " ")
		}
		bodies = append(bodies, other)
		planted = append(planted, plantedPair{a: a, b: len(bodies) - 1, kind: kind})
	}
	return bodies, planted
}

// syntheticEntries is syntheticStore as memories of one scope instance and type.
func syntheticEntries(bodies []string) []*memory.Memory {
	entries := make([]*memory.Memory, len(bodies))
	for i, b := range bodies {
		entries[i] = &memory.Memory{ID: fmt.Sprintf("%05d", i), Slug: fmt.Sprintf("m-%05d", i), Scope: memory.ScopeGlobal,
			Type: memory.TypeUser, Body: b, Created: baseTime.Add(time.Duration(i) * time.Second)}
	}
	return entries
}

// analysed is bodies as memories (syntheticEntries), analysed as one corpus.
func analysed(bodies []string) ([]*memory.Memory, *Corpus, []*Text) {
	entries := syntheticEntries(bodies)
	c := NewCorpus(entries)
	texts := make([]*Text, len(entries))
	for i, m := range entries {
		texts[i] = c.Text(m)
	}
	return entries, c, texts
}

// TestNearPairsFindPlantedDuplicates: in one group of 3,000 memories, every planted pair that
// Compare links is linked and clustered together, though only a small share of the 4.5
// million pairs is compared.
func TestNearPairsFindPlantedDuplicates(t *testing.T) {
	bodies, planted := syntheticStore(3000)
	entries, all, texts := analysed(bodies)
	compared := 0
	if err := nearPairs(context.Background(), texts, func(i, j int) { compared++ }); err != nil {
		t.Fatal(err)
	}
	if all := len(texts) * (len(texts) - 1) / 2; compared > all/50 {
		t.Errorf("%d pairs of %d compared, want at most 2%%", compared, all)
	}
	links, err := nearLinks(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	found := map[[2]int]link{}
	for _, l := range links {
		found[[2]int{l.i, l.j}] = l
	}
	clusters, err := StructuralClusterer{Corpus: all}.Groups(context.Background(), ScopeInstance{Scope: memory.ScopeGlobal},
		entries, MaxClusterSize)
	if err != nil {
		t.Fatal(err)
	}
	clusterOf := map[string]string{}
	for _, c := range clusters {
		for _, m := range c.Entries {
			clusterOf[m.ID] = c.Key
		}
	}
	matched := map[string]int{}
	for _, p := range planted {
		m := compare(texts[p.a], texts[p.b])
		if m.Tier == TierNone {
			continue
		}
		matched[p.kind]++
		l, ok := found[[2]int{p.a, p.b}]
		if !ok || l.class != linkClass(m) || l.score != m.Score {
			t.Errorf("%s pair %d/%d (%s %.3f): link %+v found %v", p.kind, p.a, p.b, m.Tier, m.Score, l, ok)
		}
		if a, b := clusterOf[entries[p.a].ID], clusterOf[entries[p.b].ID]; a != b {
			t.Errorf("%s pair %d/%d is split between clusters %s and %s", p.kind, p.a, p.b, a, b)
		}
	}
	for _, kind := range []string{"exact", "contained", "word more", "reordered", "rare word swapped"} {
		if matched[kind] < 50 {
			t.Errorf("%d %s pairs match, want at least 50: the store plants too few", matched[kind], kind)
		}
	}
}

// TestNearPairsMissNoLink: on stores dense with matches (a few words in every combination,
// one-noun preference sentences, the regression set) the index links exactly the pairs that
// comparing every pair links.
func TestNearPairsMissNoLink(t *testing.T) {
	few := strings.Fields("go uses user prefers tabs the dark mode")
	seed := uint32(99)
	var dense []string
	for i := 0; i < 400; i++ {
		var ws []string
		seed = seed*1664525 + 1013904223
		for j := 0; j < 3+int(seed>>28)%5; j++ {
			seed = seed*1664525 + 1013904223
			ws = append(ws, few[seed>>29])
		}
		dense = append(dense, strings.Join(ws, " "))
	}
	var prefs, regression []string
	for _, m := range preferenceStore() {
		prefs = append(prefs, m.body)
	}
	set := loadNearDuplicates(t)
	regression = append(regression, set.Background...)
	for _, p := range set.Duplicates {
		regression = append(regression, p.A, p.B)
	}
	for _, p := range set.Distinct {
		regression = append(regression, p.A, p.B)
	}
	synthetic, _ := syntheticStore(400)
	for name, bodies := range map[string][]string{"dense": dense, "preferences": prefs, "regression": regression, "synthetic": synthetic} {
		_, _, texts := analysed(bodies)
		want := 0
		for i := range texts {
			for j := i + 1; j < len(texts); j++ {
				if compare(texts[i], texts[j]).Tier != TierNone {
					want++
				}
			}
		}
		links, err := nearLinks(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		// Every link the index makes is a match Compare finds, so equal counts are equal sets.
		if len(links) != want || want == 0 {
			t.Errorf("%s: %d links, comparing every pair finds %d", name, len(links), want)
		}
	}
}

// BenchmarkCluster measures structural clustering of one scope instance of n entries of one
// type, their analysis included.
func BenchmarkCluster(b *testing.B) {
	for _, n := range []int{500, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			bodies, _ := syntheticStore(n)
			entries := syntheticEntries(bodies)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := (StructuralClusterer{Corpus: NewCorpus(entries)}).Groups(context.Background(), ScopeInstance{Scope: memory.ScopeGlobal},
					entries, MaxClusterSize); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
