package api

import "engram/backend/organizer"

// OrganizerService runs and reviews the organizer (scan → cluster → plan → gate → apply).
type OrganizerService struct{ a *API }

func (s *OrganizerService) svc() (*organizer.Service, error) {
	if s.a.deps.Organizer == nil {
		return nil, s.a.newError(organizer.CodeNotRunning, nil)
	}
	return s.a.deps.Organizer, nil
}

// Status reports the settings, the timer, the active run with its progress, the queue and the
// newest finished run.
func (s *OrganizerService) Status(_ Empty) (organizer.StatusResult, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.StatusResult{}, err
	}
	o, err := s.svc()
	if err != nil {
		return organizer.StatusResult{}, err
	}
	r, err := o.Status(s.a.ctx)
	return r, s.a.fail(err)
}

// Runs lists runs, newest first (queued runs included).
func (s *OrganizerService) Runs(p organizer.RunsParams) (organizer.RunsResult, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.RunsResult{}, err
	}
	o, err := s.svc()
	if err != nil {
		return organizer.RunsResult{}, err
	}
	r, err := o.Runs(s.a.ctx, p)
	if r.Runs == nil {
		r.Runs = []organizer.RunSummary{}
	}
	return r, s.a.fail(err)
}

// Run returns one run with its typed report.
func (s *OrganizerService) Run(p organizer.RunParams) (organizer.RunDetail, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.RunDetail{}, err
	}
	o, err := s.svc()
	if err != nil {
		return organizer.RunDetail{}, err
	}
	r, err := o.Run(s.a.ctx, p.ID)
	if r.Report != nil {
		for i := range r.Report.Decisions {
			if res := r.Report.Decisions[i].Result; res != nil && res.Code != "" {
				res.Message = s.a.decisionFailure(res.Code, res.I18nKey, res.Args, res.Message)
			}
		}
	}
	return r, s.a.fail(err)
}

// RunNow starts a run, or queues it behind the active one. The trigger defaults to manual
// (a report to review); "scheduled" applies what the gate allows, as a timer run would. A scope
// (with its workdir or agent) limits the run to that scope instance (the quota banner's button).
func (s *OrganizerService) RunNow(p organizer.RunNowParams) (organizer.RunRef, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.RunRef{}, err
	}
	o, err := s.svc()
	if err != nil {
		return organizer.RunRef{}, err
	}
	r, err := o.RunNowFor(s.a.ctx, p)
	return r, s.a.fail(err)
}

// Abort stops the active run, or the named (queued or running) one.
func (s *OrganizerService) Abort(p organizer.AbortParams) (organizer.RunRef, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.RunRef{}, err
	}
	o, err := s.svc()
	if err != nil {
		return organizer.RunRef{}, err
	}
	r, err := o.Abort(s.a.ctx, p.RunID)
	return r, s.a.fail(err)
}

// ApplyReport applies the chosen pending decisions of a finished run.
func (s *OrganizerService) ApplyReport(p organizer.ApplyParams) (organizer.ApplyResult, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.ApplyResult{}, err
	}
	o, err := s.svc()
	if err != nil {
		return organizer.ApplyResult{}, err
	}
	r, err := o.ApplyReport(s.a.ctx, p.RunID, p.DecisionIDs)
	for i := range r.Decisions {
		if d := &r.Decisions[i]; d.Code != "" {
			d.Message = s.a.decisionFailure(d.Code, d.I18nKey, d.Args, d.Message)
		}
	}
	s.changed(p.RunID)
	return r, s.a.fail(err)
}

// Undo takes an applied run back (or, with dry_run, says what would come back): only a person
// may (the window, the CLI, a browser through the bridge), never an agent over MCP. Each change
// left because a memory moved after the run says why in the caller's language.
func (s *OrganizerService) Undo(p organizer.UndoParams) (organizer.UndoResult, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.UndoResult{}, err
	}
	if s.a.actor != ActorUser && s.a.actor != ActorBridge {
		return organizer.UndoResult{}, s.a.newError(organizer.CodeUndoPersonOnly, map[string]any{"Run": p.RunID})
	}
	o, err := s.svc()
	if err != nil {
		return organizer.UndoResult{}, err
	}
	r, err := o.UndoRun(s.a.ctx, p, s.a.actor)
	for i := range r.Items {
		for _, f := range r.Items[i].Problems {
			f.Message = s.a.decisionFailure(f.Code, f.I18nKey, f.Args, f.Message)
		}
	}
	if err == nil && !p.DryRun {
		s.changed(p.RunID)
	}
	return r, s.a.fail(err)
}

// decisionFailure is why an organizer decision was not applied, in the caller's language: its
// catalog key (organizer.failure.*, naming the memory) or else error.<code>, filled from its
// arguments. A result without arguments (a report stored before decisions carried them) keeps
// its English text rather than read "No memory “<no value>”".
func (a *API) decisionFailure(code, key string, args map[string]any, english string) string {
	if a.deps.Catalog == nil || len(args) == 0 {
		return english
	}
	for _, k := range []string{key, "error." + code} {
		if k != "" && k != "error." && a.deps.Catalog.Has(k) {
			return a.codedText(k, translateDetail(a, args))
		}
	}
	return english
}

// Settings returns the organizer settings.
func (s *OrganizerService) Settings(_ Empty) (organizer.Settings, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.Settings{}, err
	}
	o, err := s.svc()
	if err != nil {
		return organizer.Settings{}, err
	}
	r, err := o.Settings(s.a.ctx)
	return r, s.a.fail(err)
}

// UpdateSettings changes the organizer settings; enabling or a new frequency re-arms the timer.
func (s *OrganizerService) UpdateSettings(p organizer.SettingsPatch) (organizer.Settings, error) {
	if err := s.a.Wait(); err != nil {
		return organizer.Settings{}, err
	}
	o, err := s.svc()
	if err != nil {
		return organizer.Settings{}, err
	}
	r, err := o.UpdateSettings(s.a.ctx, p)
	if err == nil {
		s.changed("")
	}
	return r, s.a.fail(err)
}

// changed tells other windows that a report's decisions or the organizer settings moved
// (an apply whose items all failed changes no memory, so memory.changed alone would not).
func (s *OrganizerService) changed(runID string) {
	if s.a.deps.Events != nil {
		s.a.deps.Events.Publish(EventOrganizerChanged, map[string]any{"run_id": runID})
	}
}
