package recall

import (
	"time"
)

// Tuning holds the ranking constants. They were set on the LoCoMo dev conversations (see
// backend/bench) and are exposed for benchmarks and tests, not as user settings.
type Tuning struct {
	// Depth is how many rows each path contributes.
	Depth int
	// ColumnWeights are the BM25 weights of the title, body and aliases columns.
	ColumnWeights [3]float64
	// Path weights in the fusion.
	WWords, WCJK, WExpansion, WTrigram, WTrigramCode, WSubstring, WVector float64
	// WSurface weighs the share of the query's keywords (by IDF) found verbatim in a candidate:
	// exact forms and substrings, which the stemmed word index does not tell apart.
	WSurface float64
	// RRFK is the reciprocal-rank constant; ScoreShare blends each path's max-normalised score
	// into its reciprocal-rank contribution (0 = pure RRF, 1 = pure normalised score).
	RRFK, ScoreShare float64
	// Fwd and FwdQuestion are the shares of a turn's relevance passed to the next turn of the
	// same session (FwdQuestion when the turn is a question); Back to the previous one.
	Fwd, FwdQuestion, Back float64
	// Session scales the boost of memories from the sessions that hold most of the relevance.
	Session float64
	// QuestionPenalty multiplies memories that are themselves questions.
	QuestionPenalty float64
	// TimeBoost favours memories that say when, for "when" questions.
	TimeBoost float64
	// WFacet is the weight of the facet path (user memories that state what an identity or
	// preference question asks); FacetBoost multiplies those memories so they come first.
	// Neither is tuned on LoCoMo, which has no user memories: identity_test.go holds them.
	WFacet, FacetBoost float64
	// WGraph is the weight of the graph hop (memories one relation away from an entity the
	// query names). Not tuned on LoCoMo, whose conversations hold no links: graph_test.go.
	WGraph float64
	// SubjectBoost favours memories tagged with (or aliased to) a name the query mentions.
	SubjectBoost float64
	// DateBoost favours memories from around an absolute date the query names: written from
	// DateLead before the period it names to DateSlack after it.
	DateBoost           float64
	DateLead, DateSlack time.Duration
	// VecFloor is the cosine a vector-only candidate needs to count as evidence.
	VecFloor float64
	// MinRelative drops hits scoring below this share of the best hit.
	MinRelative float64
	// WordBudget bounds the memories the BM25 word query may touch: keywords are added rarest
	// first, and the most common ones are left out once the budget (the larger of WordBudget and
	// the index size divided by WordBudgetShare) is spent.
	WordBudget, WordBudgetShare int
	// Keep is how many fused candidates are loaded and ranked; ContextTop how many of the best
	// pass relevance to their neighbouring turns; TrigramBelow runs the trigram path only when
	// the word path found fewer rows (or for code queries), as substrings then matter.
	Keep, ContextTop, TrigramBelow int
}

// DefaultTuning is the ranking used by Engram and its benchmark.
func DefaultTuning() Tuning {
	return Tuning{
		Depth:         100,
		ColumnWeights: [3]float64{3, 1, 2},
		WWords:        1, WCJK: 0.6, WExpansion: 0.3, WTrigram: 0.15, WTrigramCode: 0.6, WSubstring: 0.5, WVector: 0.25,
		WSurface: 0.5,
		RRFK:     60, ScoreShare: 0.9,
		Fwd: 0.4, FwdQuestion: 0.9, Back: 0.3,
		Session:         0.2,
		QuestionPenalty: 0.7,
		TimeBoost:       0.6,
		SubjectBoost:    2.0,
		WFacet:          0.5,
		FacetBoost:      4,
		WGraph:          0.5,
		DateBoost:       2.0,
		DateLead:        0,
		DateSlack:       8 * 24 * time.Hour,
		VecFloor:        0.25,
		MinRelative:     0.02,
		WordBudget:      3000,
		WordBudgetShare: 20,
		Keep:            150,
		ContextTop:      40,
		TrigramBelow:    10,
	}
}
