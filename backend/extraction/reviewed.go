package extraction

import (
	"slices"
	"strconv"
	"strings"

	"engram/backend/memory"
	"engram/backend/memory/format"
)

// A memory the person reviewed is theirs: a turn's extraction runs unasked, so it never
// rewrites one. The trigger: a model's `update` mode replace on an accepted memory (and the
// offline extractor's replace of an accepted user-location after "Actually I moved to
// Berlin…") rewrote its title and body and put it back to review, still recording the
// person as its source; with git history off the accepted words existed nowhere any more.
// What happens instead, like a sync's conflict copy:
//
//   - an update that would change the words (a replace, a merge that adds text, a new title)
//     is written as a proposal: a new unreviewed memory `<slug>-proposed` holding the whole
//     new version (the accepted body with the addition, for a merge), marked conflicts_with and
//     supersedes the reviewed one, with the extractor as its source and a reasoning in the
//     person's language. Review shows the two side by side: accept the proposal and delete the
//     old one, or reject the proposal to keep the accepted words. A later change before the
//     person decided updates the same proposal; one the person accepted keeps its slug, and the
//     next proposal takes `-proposed-2`.
//   - an update that changes no words (the memory already says it; only evidence, aliases or
//     marks would move) leaves the memory as accepted, reported as applied with a warning.
//   - a delete is refused (reviewed-memory-delete, in validator.item).
//
// The identity splits (offline_identity_split.go) keep their own rule: they take out of a
// reviewed memory only the fact the person has just restated, and send it back to Review with
// the reason.

// Warning codes of an update aimed at a reviewed memory (extraction.code.<code>).
const (
	// WarnReviewedProposal: the change waits in Review as a proposal beside the reviewed memory.
	WarnReviewedProposal = "reviewed-proposal"
	// WarnReviewedKept: the reviewed memory already says this; it was left as it is.
	WarnReviewedKept = "reviewed-kept"
)

// reasonReviewedProposal is the reasoning a proposal records (the Review queue shows it).
const reasonReviewedProposal = "extraction.item_reason.reviewed_proposal"

// proposalSuffix names the proposal of a reviewed memory; maxProposals bounds the numbered ones.
const (
	proposalSuffix = "-proposed"
	maxProposals   = 9
)

// proposalSlug is the n-th proposal slug of slug (n from 1), cut so the whole stays a valid slug.
func proposalSlug(slug string, n int) string {
	suffix := proposalSuffix
	if n > 1 {
		suffix += "-" + strconv.Itoa(n)
	}
	if len(slug)+len(suffix) > 64 {
		slug = format.CutSlug(slug, 64-len(suffix))
	}
	return slug + suffix
}

// reviewedUpdate decides an update the plan aimed at m, a memory the person reviewed: the
// proposal to validate in its place (a write, or an update of an earlier proposal still
// unreviewed), or kept true when the update would change none of its words. body is the
// item's body with its relations rendered.
func (v *validator) reviewedUpdate(it PlanItem, m *memory.Memory, body string) (proposal PlanItem, kept bool) {
	title := strings.TrimSpace(it.Description)
	if title == "" {
		title = m.Title
	}
	replace := strings.TrimSpace(it.Mode) == "replace"
	if title == m.Title && (body == "" || (replace && body == strings.TrimSpace(m.Body)) || (!replace && memory.BodyHolds(m.Body, body))) {
		return PlanItem{}, true
	}
	slug, base := "", m
	for n := 1; n <= maxProposals && slug == ""; n++ {
		s := proposalSlug(m.Slug, n)
		switch p := v.find(m.Scope, s); {
		case p == nil:
			slug = s
		case !p.Reviewed:
			slug, base = s, p // an earlier proposal the person has not decided on: this one replaces it
		}
	}
	if slug == "" {
		slug = proposalSlug(m.Slug, maxProposals+1) // the store refuses it if taken: the person sees why
	}
	newBody := strings.TrimSpace(m.Body)
	switch {
	case replace && body != "":
		newBody = body
	case !replace && body != "":
		newBody = strings.TrimSpace(base.Body)
		if !memory.BodyHolds(newBody, body) {
			newBody += "\n\n" + body
		}
	}
	typ := strings.TrimSpace(it.Type)
	if typ == "" {
		typ = string(m.Type)
	}
	aliases := it.Aliases
	if !replace {
		aliases = append(slices.Clone(m.Aliases), it.Aliases...)
	}
	reason := ""
	if v.say != nil {
		reason = v.say(reasonReviewedProposal, map[string]any{"Slug": m.Slug})
	}
	if r := strings.TrimSpace(it.Reasoning); r != "" {
		reason = strings.TrimSpace(reason + " " + r)
	}
	proposal = PlanItem{Action: ActionWrite, Slug: slug, Scope: string(m.Scope), Type: typ, Description: title, Body: newBody,
		Confidence: it.Confidence, SourceQuote: it.SourceQuote, Reasoning: clipRunes(reason, maxReasoningRunes), Aliases: aliases,
		Supersedes: appendOnce(it.Supersedes, m.Slug), ConflictsWith: appendOnce(it.ConflictsWith, m.Slug),
		OverrideReject: it.OverrideReject, proposalOf: m}
	if base != m {
		proposal.Action, proposal.Mode, proposal.Type = ActionUpdate, "replace", ""
	}
	return proposal, false
}

// maxReasoningRunes keeps a proposal's reasoning (the catalog's words and the model's) within
// the store's bound on the field.
const maxReasoningRunes = 1900

// appendOnce is list with s added at its end unless it holds it already.
func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(slices.Clone(list), s)
}
