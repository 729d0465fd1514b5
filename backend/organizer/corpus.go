package organizer

import "engram/backend/memory"

// Corpus is the memories a run read, each body analysed once: the texts structural
// clustering and the offline planner compare, by memory id, and the store's vocabulary
// (Rarity) their guards weigh words by. It is built whole before any comparison, so every
// weight counts every memory. Not safe for concurrent use.
type Corpus struct {
	an     *Analyzer
	rarity *Rarity
	texts  map[string]*Text
}

// NewCorpus analyses the bodies of entries and counts their content words.
func NewCorpus(entries []*memory.Memory) *Corpus {
	c := &Corpus{rarity: NewRarity(), texts: make(map[string]*Text, len(entries))}
	c.an = NewAnalyzerOver(c.rarity)
	for _, m := range entries {
		t := c.an.Analyze(m.Body)
		c.rarity.addUnits(t.content)
		c.texts[m.ID] = t
	}
	return c
}

// Text is m's analysed body. A memory the corpus was not built over is analysed now, its
// words weighed by the corpus's count, which it does not join.
func (c *Corpus) Text(m *memory.Memory) *Text {
	t, ok := c.texts[m.ID]
	if !ok {
		t = c.an.Analyze(m.Body)
		c.texts[m.ID] = t
	}
	return t
}
