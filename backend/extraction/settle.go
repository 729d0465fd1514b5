package extraction

import (
	"context"

	"engram/backend/coded"
	"engram/backend/memory"
)

// Warning codes of a write that met the same conversation's memory already there (settle).
const (
	// WarnAlreadyApplied: the memory another run of the conversation wrote says the same.
	WarnAlreadyApplied = "already-applied"
	// WarnNewerTurnKept: a newer turn of the conversation wrote the memory; it stays.
	WarnNewerTurnKept = "newer-turn-kept"
	// WarnAppliedAsUpdate: an older turn's memory was there; this turn's words updated it.
	WarnAppliedAsUpdate = "applied-as-update"
)

// apply applies items in one batch and sorts the results into applied and refused items.
// With shown (the run's candidates, by candidateKey; nil for none), a write refused because
// the same conversation's memory took its slug meanwhile is settled instead (settle): already
// done, or returned in again to apply as an update. err is the batch's own failure (nothing
// of it applied).
func (s *Service) apply(ctx context.Context, r *run, model string, items []planned, shown map[string]bool) (applied []AppliedItem, refused []RejectedItem, again []planned, err error) {
	mis := make([]memory.Item, len(items))
	gone := map[int]*memory.Memory{} // what each delete removes, read before it goes
	for i, p := range items {
		mis[i] = p.item
		if p.action == ActionDelete {
			if m, err := s.o.Store.GetBySlug(context.WithoutCancel(ctx), p.item.Scope, p.item.Workdir, p.item.Agent, p.item.Slug); err == nil {
				gone[i] = m
			}
		}
	}
	res, err := s.o.Store.ApplyBatch(ctx, memory.Batch{Items: mis, Actor: memory.ActorExtractor,
		Session: r.req.SessionID, Model: model})
	if err != nil {
		return nil, nil, nil, err
	}
	for i, ir := range res.Results {
		p := items[i]
		if !ir.OK {
			if shown != nil && !shown[candidateKey(string(p.item.Scope), p.item.Slug)] {
				if done, up, ok := s.settle(ctx, model, p, ir); ok {
					if up != nil {
						again = append(again, *up)
					} else {
						applied = append(applied, done)
					}
					continue
				}
			}
			slug := p.item.Slug
			if ir.Code == memory.CodeSecretDetected {
				slug = memory.RedactKeyLike(slug) // the run's report is kept and shown
			}
			refused = append(refused, scrubbed(RejectedItem{Index: p.index, Action: p.action, Slug: slug,
				Scope: string(p.item.Scope), Code: ir.Code, Args: ir.Args, Detail: ir.Message}))
			continue
		}
		a := s.appliedItem(ctx, p, ir)
		if m := gone[i]; m != nil {
			// A delete is reported with what it removed ("engram extract --json" listed
			// `"type":"","title":"","confidence":""`, which read as broken).
			a.ID, a.Type, a.Title, a.Confidence = m.ID, m.Type, m.Title, m.Confidence
		}
		applied = append(applied, a)
		if p.action == ActionWrite || p.action == ActionUpdate {
			r.wrote = append(r.wrote, ir.Slug)
		}
	}
	return applied, refused, again, nil
}

// applyMore applies the items a run adds after its plan's batch (settled writes, identity
// splits). They complete the plan's batch, so a run cancelled meanwhile still applies them; a
// failure of their batch refuses them in the report and leaves the plan's batch standing.
func (s *Service) applyMore(ctx context.Context, r *run, model string, items []planned) ([]AppliedItem, []RejectedItem) {
	if len(items) == 0 {
		return nil, nil
	}
	applied, refused, _, err := s.apply(context.WithoutCancel(ctx), r, model, items, nil)
	if err == nil {
		return applied, refused
	}
	code := "internal"
	if c, ok := coded.As(err); ok {
		code = c.ErrorCode()
	}
	for _, p := range items {
		refused = append(refused, scrubbed(RejectedItem{Index: p.index, Action: p.action, Slug: p.item.Slug,
			Scope: string(p.item.Scope), Code: code, Detail: err.Error()}))
	}
	return nil, refused
}

// candidateKey names a candidate (or a plan item's target) by scope and slug.
func candidateKey(scope, slug string) string { return scope + "\x00" + slug }

// shownSlugs are the run's candidates by candidateKey.
func shownSlugs(cands []Candidate) map[string]bool {
	out := make(map[string]bool, len(cands))
	for _, c := range cands {
		out[candidateKey(c.Scope, c.Slug)] = true
	}
	return out
}

// settle decides a plan's write that the store refused because its slug is taken
// (already_exists) by a memory the planner was not shown, which an extraction of the same
// conversation wrote. The trigger: an agent ran its hook twice quickly, or a detached rerun
// overlapped the next turn's hook, and two processes ran the session's turns at once. Both
// planned before either applied, so both wrote the slug and the second was refused: its turn
// was lost ("Actually I moved to Berlin" never reached user-location) and its run read as
// refused. In one process the session's runs take turns and the second sees the first's
// memory, so the race is settled as that order would have it: the same record is already
// done; a record of a newer turn of the session stays (this older turn would have come
// first); a record of an older turn is updated with this turn's words and source — replaced
// as the offline planner replaces a fact it restates, merged for a model's plan (it never saw
// that memory) and for the profile — at the version read, so a third change meanwhile is
// refused rather than overwritten. A slug taken by anything else (a person's memory, another
// conversation's, or one the planner was shown and wrote over) keeps its refusal: the plan
// collided with a memory it should have updated, and the person sees that. ok is false when
// the refusal stands; up is the update to apply, else done is the item as already applied.
func (s *Service) settle(ctx context.Context, model string, p planned, ir memory.ItemResult) (done AppliedItem, up *planned, ok bool) {
	it := p.item
	if p.action != ActionWrite || ir.Code != memory.CodeAlreadyExists || it.Source == nil {
		return done, nil, false
	}
	m, err := s.o.Store.GetBySlug(context.WithoutCancel(ctx), it.Scope, it.Workdir, it.Agent, it.Slug)
	if err != nil || m.Source.Kind != it.Source.Kind || m.Source.Agent != it.Source.Agent || m.Source.Session != it.Source.Session {
		return done, nil, false
	}
	done = AppliedItem{Index: p.index, Action: p.action, ID: m.ID, Slug: m.Slug, Scope: m.Scope, Type: m.Type, Title: m.Title,
		Confidence: m.Confidence, AutoDowngraded: m.AutoDowngraded}
	for _, w := range p.warnings {
		done.Warnings = append(done.Warnings, Warning{Code: w})
	}
	args := map[string]any{"Slug": m.Slug}
	switch {
	case it.Title != nil && it.Body != nil && m.Title == *it.Title && memory.BodyHolds(m.Body, *it.Body):
		done.Warnings = append(done.Warnings, Warning{Code: WarnAlreadyApplied, Args: args})
		return done, nil, true
	case m.Source.Turn > it.Source.Turn:
		done.Warnings = append(done.Warnings, Warning{Code: WarnNewerTurnKept, Args: args})
		return done, nil, true
	}
	// The update keeps this turn's source: the memory now holds this turn's words, and a
	// further run of the session settling against it must compare with this turn, not the
	// older one (else an older turn settling last would overwrite this newer fact). The type
	// stays the memory's; an update has no rejection to override.
	u := p
	u.action = ActionUpdate
	u.item.Op, u.item.Type, u.item.OverrideReject = memory.OpUpdate, "", false
	u.item.Mode, u.item.ExpectedVersion = "merge", m.Version
	if model == offlineModel && it.Slug != ProfileSlug {
		u.item.Mode = "replace"
	}
	u.warnings = append(append([]string{}, p.warnings...), WarnAppliedAsUpdate)
	return done, &u, true
}
