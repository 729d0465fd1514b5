package recall

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"engram/backend/memory"
	"engram/backend/memory/format"
	"engram/backend/text"
)

func candidateOf(m *memory.Memory) Candidate {
	return Candidate{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Type: m.Type, Workdir: m.Workdir}
}

var reSlugWords = text.Lazy(`[-_]+`)

// notFound builds the not_found error: entries whose slug or title resemble the reference are
// offered, and the next call reads the best of them (or lists). Candidates come only
// from what the caller sees, so a miss never tells a model what other scopes hold.
func (s *Service) notFound(ctx context.Context, tc *toolCtx, ref string) ToolResult {
	c, action := tc.c, tc.action
	r := fail(action, memory.CodeNotFound, fmt.Sprintf("no memory %q is visible here", ref), map[string]any{"Ref": ref})
	q := strings.TrimSpace(reSlugWords.ReplaceAllString(ref, " "))
	if c.Query != "" {
		q = c.Query
	}
	if q != "" {
		res, err := s.Search(ctx, tc.base.Search(SearchParams{Query: q, Limit: 5, NoTouch: true, BestEffort: true}))
		if err == nil {
			for _, h := range res.Hits {
				if tc.base.Allows(h.Memory) {
					r.Error.Candidates = append(r.Error.Candidates, candidateOf(h.Memory))
				}
			}
		}
	}
	if len(r.Error.Candidates) > 0 {
		// The best candidate is a guess at what the caller meant: it is read, never changed or
		// removed, by the call suggested (a delete of "tea-shop" suggested deleting
		// "tea-shop-address", which a model making the suggested call trashed unseen).
		next := action
		if action == ActionUpdate || action == ActionDelete {
			next = ActionRead
		}
		best := r.Error.Candidates[0]
		r.Error.SuggestedNextCall = map[string]any{"action": next, "slug": best.Slug, "scope": best.Scope}
	} else {
		r.Error.SuggestedNextCall = map[string]any{"action": ActionList}
	}
	return r
}

// toolFailure converts a store or recall error into a structured tool error with a useful
// next step.
func (s *Service) toolFailure(ctx context.Context, tc *toolCtx, err error) ToolResult {
	c, action := tc.c, tc.action
	code, args := codeOf(err)
	var me *memory.Error
	if errors.As(err, &me) {
		code, args = me.Code, me.Args
	}
	r := fail(action, code, err.Error(), args)
	switch code {
	case CodeScopeNotVisible, CodeNoProjectHere, CodeNoAgentHere:
		// Retry within what the caller sees: its project when it has one, else global.
		next := map[string]any{"action": action, "scope": tc.base.Scopes()[0]}
		for k, v := range map[string]any{"slug": c.Slug, "id": c.ID, "query": c.Query} {
			if v != "" {
				next[k] = v
			}
		}
		r.Error.SuggestedNextCall = next
	case memory.CodeNotFound:
		return s.notFound(ctx, tc, firstNonEmpty(c.Slug, c.ID))
	case memory.CodeAlreadyExists:
		r.Error.SuggestedNextCall = map[string]any{"action": ActionUpdate, "slug": c.Slug, "scope": c.Scope, "mode": "merge"}
		if m, gerr := s.store.GetBySlug(ctx, c.Scope, tc.view.Workdir(), tc.view.Agent(), c.Slug); gerr == nil && tc.view.Allows(m) {
			r.Error.Candidates = []Candidate{candidateOf(m)}
			r.Error.SuggestedNextCall["expected_version"] = m.Version
		}
	case memory.CodeVersionConflict:
		r.Error.SuggestedNextCall = map[string]any{"action": ActionRead, "slug": c.Slug, "scope": c.Scope}
	case memory.CodeInvalidSlug, memory.CodeReservedSlug:
		if sl := Slugify(firstNonEmpty(c.Slug, deref(c.Title))); sl != "" {
			next := map[string]any{"action": c.Action, "slug": sl}
			if c.Scope != "" {
				next["scope"] = c.Scope
			}
			r.Error.SuggestedNextCall = next
		}
	case memory.CodeQuotaExhausted:
		r.Error.SuggestedNextCall = map[string]any{"action": ActionList, "scope": c.Scope}
	case memory.CodeRejectedSlug:
		r.Error.SuggestedNextCall = map[string]any{"action": ActionSearch, "query": firstNonEmpty(deref(c.Title), c.Slug)}
	case memory.CodeInvalidScope, memory.CodeInvalidType, memory.CodeMissingTitle, memory.CodeMissingBody, memory.CodeBodyTooLarge,
		memory.CodeTitleTooLong, memory.CodeInvalidConf, memory.CodeInvalidMode:
		r.Error.SuggestedNextCall = map[string]any{"action": c.Action, "slug": c.Slug, "scope": firstNonEmpty(string(c.Scope), "global")}
	}
	return r
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Slugify turns a title into a valid slug, as a write without one gets it from its title
// (format.SlugFromTitle); "" for a blank title.
func Slugify(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return format.SlugFromTitle(s)
}
