package organizer

// Candidate pairs for the near-duplicate tiers. Comparing every pair of a group is quadratic,
// and a group is not bounded by the quota: reconcile picks up hand-placed files, and 5,000 of
// them are 12.5 million comparisons. Every tier needs a large overlap, so two texts can only
// match when they share one of a few of their rarest features, and an inverted index over
// those finds every pair that can — prefix filtering, exact for the tiers' thresholds, not a
// sample. Features are ordered rarest first within the group (held by the fewest texts, then
// by id), one order for every text; a text's prefix is the start of its features in it.
//
//   - exact: equal normalised texts are indexed by that text.
//   - containment: Compare requires the shorter text to have MinContainedTokens tokens or more
//     and every one of its words in the longer, so the longer holds the shorter's rarest word:
//     each text with enough tokens is paired with every text holding its rarest word.
//   - Jaccard ≥ t over word sets A and B: |A∩B| ≥ t·|A∪B| ≥ ⌈t·max(|A|,|B|)⌉ = α, and (the
//     classic prefix filter) two sets sharing α words share one among the first |A| − α + 1
//     of A and the first |B| − α + 1 of B: if none, take A's prefix to end no later in the
//     order than B's; a shared word up to that end is in both prefixes, so every shared word
//     lies in A's last α − 1. The prefix indexed is A's first |A| − ⌈t·|A|⌉ + 1 words, no
//     shorter.
//   - cosine ≥ c: Cosine is the dot product of the texts' combined vectors z = (√0.4·words,
//     √0.3·bigrams, √0.3·trigrams), of norm at most 1. A text's prefix is its shortest start
//     whose rest has norm below c. If a and b share no feature in both prefixes, take a's prefix
//     to end no later than b's: every shared feature lies in a's rest, so the dot product is at
//     most |rest of a|·|z b| < c.
//
// Both thresholds are lowered by filterMargin, so no rounding can drop a pair at a threshold.
// Compare still decides every pair found. What the index saves is the pairs that share no
// rare feature: nearly all of them in a store of varied notes, few in one that says a few
// common words over and over (there every feature is common, and every pair is compared).

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sort"
)

// filterMargin lowers the thresholds the candidate prefixes are cut for, past float rounding.
const filterMargin = 1e-9

// pairIndex finds the candidate pairs of a group of texts (nearPairs).
type pairIndex struct {
	df map[int32]int32
	// rare is each text's rarest word, -1 when it has too few tokens to be contained.
	rare []int32
	// prefix is each text's Jaccard and cosine prefix features (nil: too few tokens).
	prefix [][]int32
	byNorm map[string][]int32
	// holders lists the texts holding a word that is some text's rarest; rareOf the texts
	// whose rarest word it is; byPrefix the texts holding a feature in their prefix. Each
	// list is in text order.
	holders, rareOf, byPrefix map[int32][]int32
}

// nearPairs calls fn once for every pair i < j of texts that can be near-duplicates: every
// pair Compare links by a tier is among them.
func nearPairs(ctx context.Context, texts []*Text, fn func(i, j int)) error {
	x := newPairIndex(texts)
	seen := make([]int, len(texts))
	for i := range seen {
		seen[i] = -1
	}
	visit := func(i int, list []int32) {
		for _, j := range list[sort.Search(len(list), func(k int) bool { return int(list[k]) > i }):] {
			if seen[j] != i {
				seen[j] = i
				fn(i, int(j))
			}
		}
	}
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if t.Norm == "" {
			continue
		}
		visit(i, x.byNorm[t.Norm])
		if x.rare[i] >= 0 {
			visit(i, x.holders[x.rare[i]])
		}
		for _, id := range t.set {
			visit(i, x.rareOf[id])
		}
		for _, f := range x.prefix[i] {
			visit(i, x.byPrefix[f])
		}
	}
	return nil
}

func newPairIndex(texts []*Text) *pairIndex {
	x := &pairIndex{df: map[int32]int32{}, rare: make([]int32, len(texts)), prefix: make([][]int32, len(texts)),
		byNorm: map[string][]int32{}, holders: map[int32][]int32{}, rareOf: map[int32][]int32{}, byPrefix: map[int32][]int32{}}
	for _, t := range texts {
		for _, id := range t.set {
			x.df[id]++
		}
		for _, fs := range [][]feature{t.bigram, t.chars} {
			for _, f := range fs {
				x.df[f.id]++
			}
		}
	}
	for i, t := range texts {
		x.rare[i] = -1
		if t.Norm == "" {
			continue
		}
		x.byNorm[t.Norm] = append(x.byNorm[t.Norm], int32(i))
		if len(t.Tokens) >= MinContainedTokens {
			rarest := x.key(t.set[0])
			for _, id := range t.set[1:] {
				rarest = min(rarest, x.key(id))
			}
			x.rare[i] = int32(uint32(rarest))
			x.rareOf[x.rare[i]] = append(x.rareOf[x.rare[i]], int32(i))
		}
		if len(t.Tokens) >= MinFuzzyTokens {
			x.prefix[i] = x.prefixOf(t)
			for _, f := range x.prefix[i] {
				x.byPrefix[f] = append(x.byPrefix[f], int32(i))
			}
		}
	}
	for i, t := range texts {
		for _, id := range t.set {
			if _, ok := x.rareOf[id]; ok {
				x.holders[id] = append(x.holders[id], int32(i))
			}
		}
	}
	return x
}

// key orders features rarest first: held by fewer texts of the group, then the smaller id
// (ids are not negative); its low 32 bits are the id.
func (x *pairIndex) key(id int32) uint64 { return uint64(x.df[id])<<32 | uint64(uint32(id)) }

// prefixOf is t's Jaccard prefix (its first |A| − ⌈t·|A|⌉ + 1 words) and its cosine prefix
// (the shortest start of its combined vector whose rest has norm below the threshold), in one
// list: a pair sharing a feature of either kind is a candidate.
func (x *pairIndex) prefixOf(t *Text) []int32 {
	words := make([]uint64, len(t.set))
	for k, id := range t.set {
		words[k] = x.key(id)
	}
	slices.Sort(words)
	alpha := int(math.Ceil((JaccardThreshold - filterMargin) * float64(len(words))))
	n := len(words) - alpha + 1
	out := make([]int32, n, n+16)
	for k := range out {
		out[k] = int32(uint32(words[k]))
	}

	type weighted struct {
		key  uint64
		mass float64 // the feature's share of |z|²
	}
	z := make([]weighted, 0, len(t.words)+len(t.bigram)+len(t.chars))
	for _, space := range []struct {
		fs []feature
		w  float64
	}{{t.words, weightWords}, {t.bigram, weightBigrams}, {t.chars, weightChars}} {
		for _, f := range space.fs {
			z = append(z, weighted{x.key(f.id), space.w * f.w * f.w})
		}
	}
	slices.SortFunc(z, func(a, b weighted) int { return cmp.Compare(a.key, b.key) })
	limit := (CosineThreshold - filterMargin) * (CosineThreshold - filterMargin)
	k, rest := len(z), 0.0
	for k > 0 && rest+z[k-1].mass < limit {
		rest += z[k-1].mass
		k--
	}
	for _, f := range z[:k] {
		// Only a word can be in both prefixes, and the Jaccard prefix is short.
		if id := int32(uint32(f.key)); !slices.Contains(out[:n], id) {
			out = append(out, id)
		}
	}
	return out
}
