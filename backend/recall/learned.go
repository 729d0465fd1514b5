package recall

import (
	"math"
	"sort"
	"strings"

	"engram/backend/memory"
)

// The learned correction: a linear model over what ranking already knows of a candidate (what
// each path gave it, its cosine, the factors rank.go applies, its length) whose exponent
// multiplies the hand-shaped score. Its weights (Tuning.Learned) are fit by pairwise logistic
// regression on the LoCoMo dev conversations (backend/bench/locomo_learn.go re-fits them and
// cross-validates the fit); all zero, the ranking is the hand-shaped one exactly.

// Paths whose contribution a candidate keeps apart, before their weight.
const (
	partWords = iota
	partExpansion
	partTrigram
	partVector
	partContext
	partSurface
	numParts
)

var pathIndex = map[string]int{"words": partWords, "expansion": partExpansion, "trigram": partTrigram, "vector": partVector}

// Features of the learned correction, in the order of Tuning.Learned.
const (
	FeatWords         = iota // the word path's blend of normalised score and reciprocal rank
	FeatExpansion            // the expansion path's
	FeatTrigram              // the trigram path's
	FeatVector               // the vector path's (the cosine blended with its rank)
	FeatContext              // relevance passed from neighbouring turns, over the best relevance
	FeatSurface              // share of the query's keywords (by IDF) found verbatim
	FeatCosine               // cosine to the query
	FeatRelevance            // fused relevance over the best candidate's
	FeatSession              // its session's share of the relevance, over the best session's
	FeatQuestion             // the memory is itself a question
	FeatTemporal             // the memory says when
	FeatTemporalAsked        // … and the query asks when
	FeatSubject              // the query names one of its tags or aliases
	FeatDate                 // it is from around an absolute date the query names
	FeatLength               // log(1 + words)
	FeatPaths                // how many paths found it
	FeatVectorWhen           // the vector path's, for questions asking when
	FeatContextWhen          // the context's, for questions asking when
	FeatDigits               // the memory holds a digit
	FeatHandRank             // 1/(1 + its rank by the hand-shaped score)
	FeatNearTop              // it is within two turns of the hand-shaped best, in its session
	FeatSurfaceRel           // its verbatim keyword share over the best candidate\'s
	NumFeatures
)

// learnedOn reports whether any learned weight is set.
func (t Tuning) learnedOn() bool {
	for _, w := range t.Learned {
		if w != 0 {
			return true
		}
	}
	return false
}

// rankFacts are the per-candidate facts rank.go computes for its factors, kept for features.
type rankFacts struct {
	question, temporal, subject, date bool
	session                           float64
}

// applyLearned multiplies the score of every evidence candidate by the learned factor and
// hands the rows to Options.Features when set.
func (s *Service) applyLearned(a Analysis, cands map[int64]*cand, maxRel float64) {
	list := make([]*cand, 0, len(cands))
	maxSurf := 0.0
	for _, c := range cands {
		if c.evidence && c.score > 0 {
			list = append(list, c)
			maxSurf = math.Max(maxSurf, c.part[partSurface])
		}
	}
	if len(list) == 0 {
		return
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].rid < list[j].rid
	})
	top := list[0].m.Source
	var rows []FeatureRow
	if s.opts.Features != nil {
		rows = make([]FeatureRow, 0, len(list))
	}
	for r, c := range list {
		var x [NumFeatures]float64
		features(c, a, c.facts, maxRel, &x)
		x[FeatHandRank] = 1 / float64(1+r)
		if src := c.m.Source; r > 0 && top.Session != "" && src.Session == top.Session && abs(src.Turn-top.Turn) <= 2 {
			x[FeatNearTop] = 1
		}
		if maxSurf > 0 {
			x[FeatSurfaceRel] = c.part[partSurface] / maxSurf
		}
		if rows != nil {
			rows = append(rows, FeatureRow{Memory: c.m, Hand: c.score, X: x})
		}
		c.score *= learnedFactor(&s.t.Learned, &x)
	}
	if s.opts.Features != nil {
		s.opts.Features(rows)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// features fills x for candidate c; maxRel is the best fused relevance before the session lift.
func features(c *cand, a Analysis, f rankFacts, maxRel float64, x *[NumFeatures]float64) {
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	ctx := 0.0
	rel := 0.0
	if maxRel > 0 {
		ctx = c.part[partContext] / maxRel
		rel = c.relFused / maxRel
	}
	when := b(a.TimeQuestion)
	x[FeatWords] = c.part[partWords]
	x[FeatExpansion] = c.part[partExpansion]
	x[FeatTrigram] = c.part[partTrigram]
	x[FeatVector] = c.part[partVector]
	x[FeatContext] = ctx
	x[FeatSurface] = c.part[partSurface]
	x[FeatCosine] = c.vecCos
	x[FeatRelevance] = rel
	x[FeatSession] = f.session
	x[FeatQuestion] = b(f.question)
	x[FeatTemporal] = b(f.temporal)
	x[FeatTemporalAsked] = b(f.temporal && a.TimeQuestion)
	x[FeatSubject] = b(f.subject)
	x[FeatDate] = b(f.date)
	x[FeatLength] = math.Log1p(float64(wordCount(c.m)))
	x[FeatPaths] = float64(len(c.via))
	x[FeatVectorWhen] = when * c.part[partVector]
	x[FeatContextWhen] = when * ctx
	x[FeatDigits] = b(strings.ContainsAny(c.m.Body, "0123456789"))
}

// wordCount counts the space-separated words of m's body without allocating.
func wordCount(m *memory.Memory) int {
	n, in := 0, false
	for i := 0; i < len(m.Body); i++ {
		sp := m.Body[i] == ' ' || m.Body[i] == '\n' || m.Body[i] == '\t'
		if !sp && !in {
			n++
		}
		in = !sp
	}
	return n
}

// learnedFactor is e^(w·x).
func learnedFactor(w *[NumFeatures]float64, x *[NumFeatures]float64) float64 {
	s := 0.0
	for i := range x {
		s += w[i] * x[i]
	}
	return math.Exp(s)
}

// FeatureRow is one ranked candidate as the learned correction sees it (Options.Features).
type FeatureRow struct {
	Memory *memory.Memory
	// Hand is the hand-shaped score; the final one is Hand·e^(Learned·X).
	Hand float64
	X    [NumFeatures]float64
}
