package extraction

import (
	"context"
	"errors"
	"slices"

	"engram/backend/coded"
	"engram/backend/memory"
	"engram/backend/recall"
)

// execute runs one claimed request to its end, records it, and hands the session to its
// queued request if one waits. Waiters are released only then, so a caller that sends its next
// turn after waiting finds the session free rather than queueing behind a finished run.
func (s *Service) execute(st *sessionState, r *run, planner Planner) {
	defer s.wg.Done()
	defer r.cancel()
	s.record(r)
	s.publish(r)
	s.perform(r, planner)
	s.record(r)
	s.next(st, r)
	close(r.done)
	s.publish(r)
}

// next hands the session to its queued request, gated again (the wait itself was the
// interval, so only "already covered" can stop it).
func (s *Service) next(st *sessionState, r *run) {
	set, err := loadSettings(context.WithoutCancel(s.base), s.o.Store)
	if err != nil {
		set = DefaultSettings()
	}
	d := r.snapshot()
	s.mu.Lock()
	if st.running == r {
		st.running = nil
	}
	if d.Status == StatusFailed && st.lastHash == r.hash {
		st.lastHash = r.prevHash // a failed run did not cover its message: a new request may try again
	}
	if d.Status == StatusDone || d.Status == StatusPartial || d.Status == StatusNoop {
		st.markPlanned(window(r.req.Messages), s.o.Now())
	}
	for _, slug := range r.wrote {
		st.written[slug] = r.hash
	}
	q := st.queued
	st.queued = nil
	if q != nil && st.stopTimer != nil {
		st.stopTimer() // the run's end takes the waiting request now
		st.stopTimer = nil
	}
	var skip string
	switch {
	case q == nil:
	case s.closed:
		skip = FailCanceled
	default:
		last, prevAssistant, _ := lastUser(q.req.Messages)
		now := s.o.Now()
		if skip = gate(set, gateInput{Text: last.Content, PrevAssistant: prevAssistant, Hash: q.hash, LastHash: st.lastHash,
			Now: now, FromQueue: true}); skip == "" {
			s.claim(st, q, now)
		}
	}
	s.mu.Unlock()
	if q != nil && skip != "" {
		status := StatusSkipped
		if skip == FailCanceled {
			status = StatusFailed
		}
		s.finish(q, status, skip)
	}
}

// perform builds the context, asks the planner, validates the plan and applies what passed
// in one batch, filling the run's detail as it goes. Once that batch applied, its follow-ups
// apply too, each in a batch of its own: the writes another process of the same conversation
// got in first, settled (settle.go), then the identity memories split (offline_identity_split.go).
func (s *Service) perform(r *run, planner Planner) {
	ctx := r.ctx
	req := r.req
	now := s.o.Now()
	fail := func(reason string, err error) {
		if errors.Is(err, context.DeadlineExceeded) {
			reason = FailTimeout
		} else if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			reason = FailCanceled
		}
		r.mu.Lock()
		r.detail.Report.Error = memory.RedactSecrets(err.Error())
		if c, ok := coded.As(err); ok {
			r.detail.Report.ErrorCode, r.detail.Report.ErrorArgs = c.ErrorCode(), scrubArgs(c.ErrorArgs())
		}
		r.mu.Unlock()
		r.setStatus(StatusFailed, reason, s.o.Now())
	}
	vis, err := recall.NewVisibility(recall.Caller{Workdir: req.Workdir, Agent: req.Agent}, s.o.Store.Projects())
	if err != nil {
		fail(FailContext, err)
		return
	}
	cd, err := s.buildContext(ctx, req, vis, r.written, r.snapshot().Report.Turn, now)
	if err != nil {
		fail(FailContext, err)
		return
	}
	prior := s.plannedRecorded(ctx, sessionKey{req.Agent, vis.Workdir(), req.SessionID}, r.snapshot().ID, cd.priorPlanned)
	cd.input.Planned = append(append([]string{}, r.planned...), prior...)
	r.mu.Lock()
	r.detail.Report.Covered = covers(cd.input.Turns, cd.input.Planned)
	r.detail.Report.Candidates, r.detail.Report.Rejections = len(cd.input.Candidates), len(cd.input.Rejected)
	r.detail.Report.ProjectPin, r.detail.Report.FileEvidence = cd.validator.pinned, cd.validator.evidence
	r.mu.Unlock()
	if planner == nil {
		r.setStatus(StatusNoop, NoopNoPlanner, s.o.Now())
		return
	}
	pctx, cancel := context.WithTimeout(ctx, s.o.PlanTimeout)
	out, err := planner.Plan(pctx, cd.input)
	cancel()
	r.mu.Lock()
	r.detail.Model, r.detail.InputTokens, r.detail.OutputTokens = out.Model, out.InputTokens, out.OutputTokens
	r.detail.Report.Retried, r.detail.Report.DecodeError = out.Retried, memory.RedactSecrets(out.DecodeError)
	r.detail.Report.PlanStatus, r.detail.Report.Profile = out.Plan.Status, out.Plan.Profile
	if out.ModelError != nil {
		r.detail.Report.PlannedOffline, r.detail.Report.Error = true, memory.RedactSecrets(out.ModelError.Error())
		if c, ok := coded.As(out.ModelError); ok {
			r.detail.Report.ErrorCode, r.detail.Report.ErrorArgs = c.ErrorCode(), scrubArgs(c.ErrorArgs())
		}
	}
	r.mu.Unlock()
	if err != nil {
		if pctx.Err() != nil && errors.Is(pctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			err = errors.Join(context.DeadlineExceeded, err)
		}
		fail(FailPlanner, err)
		return
	}
	cd.validator.source.Model = out.Model
	var profile *PlanItem
	if len(out.Plan.Profile) > 0 {
		existing, err := s.o.Store.GetBySlug(ctx, memory.ScopeGlobal, "", "", ProfileSlug)
		if err != nil {
			existing = nil
		}
		if it, ok := cd.validator.profileItem(out.Plan.Profile, existing); ok {
			profile = &it
		}
	}
	resolveLegacySlugs(&cd.validator, out.Plan.Items)
	// The offline planner's reasonings are catalog keys: written in the person's language.
	say := s.texts(ctx)
	for i := range out.Plan.Items {
		renderReasons(say, &out.Plan.Items[i])
	}
	renderReasons(say, profile)
	cd.validator.say = say
	ok, rejected := cd.validator.validate(out.Plan, profile)
	ok, applied := keptReviewed(ok)
	if len(ok) > 0 {
		if err := ctx.Err(); err != nil {
			fail(FailCanceled, err)
			return
		}
		replaced := s.replacedIdentities(ctx, vis, ok)
		done, refused, again, err := s.apply(ctx, r, out.Model, ok, shownSlugs(cd.input.Candidates))
		if err != nil {
			fail(FailApply, err)
			return
		}
		applied, rejected = append(applied, done...), append(rejected, refused...)
		done, refused = s.applyMore(ctx, r, out.Model, again)
		applied, rejected = append(applied, done...), append(rejected, refused...)
		next := len(out.Plan.Items) + 1 // past the plan's items and the profile item
		splits, refusedSplits := s.identitySplits(ctx, vis, cd.validator, applied, replaced, next)
		done, refused = s.applyMore(ctx, r, out.Model, splits)
		applied, rejected = append(applied, done...), append(append(rejected, refusedSplits...), refused...)
	}
	slices.SortStableFunc(applied, func(a, b AppliedItem) int { return a.Index - b.Index })
	status, reason := StatusNoop, ""
	switch {
	case len(applied) > 0 && len(rejected) == 0:
		status = StatusDone
	case len(applied) > 0:
		status = StatusPartial
	case len(rejected) > 0 && onlyRejectedByPerson(rejected):
		reason = NoopRejectedByYou
	case len(rejected) > 0:
		reason = NoopAllRejected
	case out.NoopReason != "":
		reason = out.NoopReason
	default:
		reason = NoopPlan
	}
	r.mu.Lock()
	r.detail.Report.Applied, r.detail.Report.Rejected = applied, sortRejected(rejected)
	r.detail.Applied, r.detail.Rejected = len(applied), len(rejected)
	r.mu.Unlock()
	r.setStatus(status, reason, s.o.Now())
}

// appliedItem describes an applied item as the store now holds it.
func (s *Service) appliedItem(ctx context.Context, p planned, ir memory.ItemResult) AppliedItem {
	a := AppliedItem{Index: p.index, Action: p.action, ID: ir.ID, Slug: ir.Slug, Scope: p.item.Scope, Type: p.item.Type,
		Confidence: ir.AppliedConfidence, AutoDowngraded: ir.AutoDowngraded}
	for _, w := range p.warnings {
		a.Warnings = append(a.Warnings, Warning{Code: w})
	}
	for _, w := range ir.Warnings {
		a.Warnings = append(a.Warnings, Warning{Code: w.Code, Args: w.Args})
	}
	if p.proposalOf != "" {
		a.Warnings = append(a.Warnings, Warning{Code: WarnReviewedProposal, Args: map[string]any{"Slug": p.proposalOf, "Proposal": ir.Slug}})
	}
	if p.action == ActionAppendDaily {
		a.Scope, a.Type = memory.ScopeGlobal, memory.TypeDaily
	}
	if p.action != ActionDelete && ir.ID != "" {
		if m, err := s.o.Store.Get(context.WithoutCancel(ctx), ir.ID); err == nil {
			a.Scope, a.Type, a.Title = m.Scope, m.Type, m.Title
			if a.Confidence == "" {
				a.Confidence = m.Confidence
			}
		}
	}
	return a
}

// keptReviewed takes out of ok the updates that left a reviewed memory as it was (it already
// says what they would write): nothing is applied for them, and each is reported as done.
func keptReviewed(ok []planned) ([]planned, []AppliedItem) {
	var rest []planned
	var kept []AppliedItem
	for _, p := range ok {
		if p.kept == nil {
			rest = append(rest, p)
			continue
		}
		m := p.kept
		a := AppliedItem{Index: p.index, Action: p.action, ID: m.ID, Slug: m.Slug, Scope: m.Scope, Type: m.Type, Title: m.Title,
			Confidence: m.Confidence, AutoDowngraded: m.AutoDowngraded}
		for _, w := range p.warnings {
			a.Warnings = append(a.Warnings, Warning{Code: w})
		}
		a.Warnings = append(a.Warnings, Warning{Code: WarnReviewedKept, Args: map[string]any{"Slug": m.Slug}})
		kept = append(kept, a)
	}
	return rest, kept
}

// onlyRejectedByPerson reports whether every refused item was refused because the person
// rejected that memory in the last 7 days.
func onlyRejectedByPerson(v []RejectedItem) bool {
	for _, r := range v {
		if r.Code != CodeRejectedNoOverride {
			return false
		}
	}
	return len(v) > 0
}

// sortRejected orders refused items by their place in the plan.
func sortRejected(v []RejectedItem) []RejectedItem {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j].Index < v[j-1].Index; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
	return v
}
