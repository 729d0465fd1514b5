package organizer

import (
	"context"
	"sort"

	"engram/backend/memory"
)

// OfflinePlanner finds near-duplicates by tiers (containment, cosine, Jaccard) and proposes
// merge_into with the preserved evidence, mark_review for low-confidence unreviewed entries
// older than the review age, and keep for the rest. It never crosses scope instances nor
// memory types (a model's topic cluster, or a small scope's one cluster, mixes types). The
// similarity of wording alone never makes a merge a run applies by itself: a fuzzy match whose
// texts differ in a number, a negation, a word of meaning ("before" / "after"), a swapped
// content word or words rare in the store (PlanInput.Corpus), and a containment whose longer
// text changes the shorter (a negation, a number, a word of meaning or a rare word in its
// clause), are guarded, proposed below the 0.7 line for a person.
type OfflinePlanner struct{}

// Name is "offline".
func (OfflinePlanner) Name() string { return "offline" }

// mergePhase is one pass of the offline planner: which matches it merges, and whether a merge
// holds one other entry only.
type mergePhase struct {
	accept func(Match) bool
	pair   bool
}

// mergePhases run in order, each over the entries no earlier merge took:
//  1. lossless: exact and contained duplicates no guard objects to, which a merge loses
//     nothing of — found first,
//     so a true pair is merged as such and never folded into a looser group;
//  2. trusted: cosine and Jaccard matches no guard objects to;
//  3. guarded: matches whose texts differ in symbols, a number, a negation, words of meaning
//     or key words, and containments that change the shorter text. They
//     are proposed for a person only (confidence below 0.7) and one pair at a time, each
//     naming what differs; "merge these five, which differ in nginx, kafka, redis …" is not a
//     question anyone should be asked.
var mergePhases = []mergePhase{
	{accept: func(m Match) bool { return !m.Guarded && (m.Tier == TierExact || m.Tier == TierContainment) }},
	{accept: func(m Match) bool { return !m.Guarded && (m.Tier == TierCosine || m.Tier == TierJaccard) }},
	{accept: func(m Match) bool { return m.Guarded }, pair: true},
}

// Plan proposes decisions for one cluster. Entries are taken as keepers in keeper priority;
// a merge holds its keeper and the entries that match the keeper itself in the phase, so an
// entry similar only to another member is never folded in through it.
func (OfflinePlanner) Plan(ctx context.Context, in PlanInput) (PlanOutput, error) {
	entries := append([]*memory.Memory{}, in.Cluster.Entries...)
	corpus := in.Corpus
	if corpus == nil {
		corpus = NewCorpus(entries)
	}
	texts := map[string]*Text{}
	for _, m := range entries {
		texts[m.ID] = corpus.Text(m)
	}
	sortByKeeperPriority(entries, texts)
	matches := map[[2]string]Match{}
	match := func(a, b *memory.Memory) Match {
		k := [2]string{a.ID, b.ID}
		m, ok := matches[k]
		if !ok {
			m = compare(texts[a.ID], texts[b.ID])
			matches[k] = m
		}
		return m
	}
	var out PlanOutput
	done := map[string]bool{}
	for _, ph := range mergePhases {
		for i, keeper := range entries {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			if done[keeper.ID] {
				continue
			}
			var members []*memory.Memory
			var ms []Match
			for _, o := range entries[i+1:] {
				if done[o.ID] || !sameInstance(keeper, o) || o.Type != keeper.Type {
					continue
				}
				if m := match(keeper, o); m.Tier != TierNone && ph.accept(m) {
					members, ms = append(members, o), append(ms, m)
				}
			}
			if len(members) == 0 {
				continue
			}
			if ph.pair {
				best := 0
				for k := range ms {
					if tierRank(ms[k].Tier) < tierRank(ms[best].Tier) ||
						(ms[k].Tier == ms[best].Tier && ms[k].Score > ms[best].Score) {
						best = k
					}
				}
				members, ms = members[best:best+1], ms[best:best+1]
			}
			done[keeper.ID] = true
			for k, o := range members {
				done[o.ID] = true
				if ms[k].Guard == GuardWords && ms[k].Words == "" {
					ms[k].Words = keyWords(texts[keeper.ID], texts[o.ID])
				}
			}
			out.Proposals = append(out.Proposals, mergeProposal(keeper, members, ms))
		}
	}
	for _, m := range entries {
		if done[m.ID] {
			continue
		}
		age := in.Now.Sub(m.Created)
		if in.ReviewAfter > 0 && m.Confidence == memory.ConfidenceLow && !m.Reviewed && age >= in.ReviewAfter && !hasTag(m, ReviewTag) {
			out.Proposals = append(out.Proposals, Proposal{Action: ActionMarkReview, Targets: []string{m.ID}, Confidence: 0.75,
				Tier: TierAge, Reason: Reason{Code: ReasonStaleLowConf, Args: map[string]any{"Days": int(age.Hours() / 24)}}})
			continue
		}
		out.Proposals = append(out.Proposals, Proposal{Action: ActionKeep, Targets: []string{m.ID}, Confidence: 1})
	}
	return out, nil
}

// mergeProposal folds members (each matched to keeper by ms) into keeper. Its tier and score
// are the weakest link's, its confidence the lowest any link earns, and its reason says why a
// guarded one must be checked: symbols, numbers or negations, words of meaning or key words
// (named) differ, or the longer of a contained pair adds words that may change the shorter
// (named).
func mergeProposal(keeper *memory.Memory, members []*memory.Memory, ms []Match) Proposal {
	weakest := ms[0]
	conf := 1.0
	guard, words, guardTier := GuardNone, "", TierNone
	ids := make([]string, len(members))
	for k, m := range ms {
		ids[k] = members[k].ID
		if tierRank(m.Tier) > tierRank(weakest.Tier) || (m.Tier == weakest.Tier && m.Score < weakest.Score) {
			weakest = m
		}
		conf = min(conf, tierConfidence(m))
		if m.Guarded && guard == GuardNone {
			guard, words, guardTier = m.Guard, m.Words, m.Tier
		}
	}
	args := map[string]any{"Into": keeper.Slug, "Count": len(members), "Tier": string(weakest.Tier), "Score": round3(weakest.Score)}
	code := ReasonSimilar
	switch {
	case guard == GuardSymbols:
		code = ReasonSymbolsDiffer
	case guardTier == TierContainment:
		code, args["Words"] = ReasonContainedChanged, words
	case guard == GuardMeaning:
		code, args["Words"] = ReasonMeaningDiffer, words
	case guard == GuardWords:
		code, args["Words"] = ReasonKeyWordsDiffer, words
	case guard != GuardNone:
		code = ReasonSimilarGuarded
	case weakest.Tier == TierExact:
		code = ReasonExactDuplicate
	case weakest.Tier == TierContainment:
		code = ReasonContained
	}
	return Proposal{Action: ActionMergeInto, Targets: ids, Into: keeper.ID, Confidence: conf, Tier: weakest.Tier,
		Score: round3(weakest.Score), Reason: Reason{Code: code, Args: args}}
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func hasTag(m *memory.Memory, tag string) bool {
	for _, t := range m.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

func sameInstance(a, b *memory.Memory) bool {
	return a.Scope == b.Scope && a.ScopeKey() == b.ScopeKey()
}

var confRank = map[memory.Confidence]int{memory.ConfidenceHigh: 2, memory.ConfidenceMedium: 1, memory.ConfidenceLow: 0}

// sortByKeeperPriority orders entries as merge keepers: reviewed first (a person vouched for
// it), then the most complete body, the higher confidence, the newer, the smaller id.
func sortByKeeperPriority(entries []*memory.Memory, texts map[string]*Text) {
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Reviewed != b.Reviewed {
			return a.Reviewed
		}
		if la, lb := len(texts[a.ID].Norm), len(texts[b.ID].Norm); la != lb {
			return la > lb
		}
		if confRank[a.Confidence] != confRank[b.Confidence] {
			return confRank[a.Confidence] > confRank[b.Confidence]
		}
		if !a.Updated.Equal(b.Updated) {
			return a.Updated.After(b.Updated)
		}
		return a.ID < b.ID
	})
}
