package api

import (
	"engram/backend/extraction"
	"engram/backend/extraction/turn"
)

// ExtractionService turns conversation turns into unreviewed memories and shows what each
// request did (Activity).
type ExtractionService struct{ a *API }

// ExtractionRequestParams is one turn to learn from, and whether to wait for its run.
type ExtractionRequestParams struct {
	extraction.Request
	// Wait returns when the run has ended; otherwise the run goes on in the background and
	// extraction.status events tell its end. One-shot processes (the CLI) always wait.
	Wait bool `json:"wait,omitempty"`
}

// ExtractionRunParams names one run.
type ExtractionRunParams struct {
	ID string `json:"id"`
}

// ExtractionFailed is the status of a run that failed (the CLI exits 1 on it).
const ExtractionFailed = extraction.StatusFailed

// The extraction vocabulary transports name, re-exported (aliases).
type (
	ExtractionRun      = extraction.RunDetail
	ExtractionRuns     = extraction.RunsResult
	ExtractionSettings = extraction.Settings
	ExtractionApplied  = extraction.AppliedItem
)

func (s *ExtractionService) svc() (*extraction.Service, error) {
	if s.a.deps.Extraction == nil {
		return nil, s.a.newError(extraction.CodeNotRunning, nil)
	}
	return s.a.deps.Extraction, nil
}

// Request gates the turn and runs (or queues) its extraction; the result is the run as it
// stands when the call returns, with its reason and refusals translated.
func (s *ExtractionService) Request(p ExtractionRequestParams) (extraction.RunDetail, error) {
	if err := s.a.Wait(); err != nil {
		return extraction.RunDetail{}, err
	}
	x, err := s.svc()
	if err != nil {
		return extraction.RunDetail{}, err
	}
	p.Request.Messages = turn.NormalizeRoles(p.Request.Messages)
	// Every turn an agent delivers is kept in its session first (listed, searchable with
	// include_history, compacted), whatever the gates decide about extracting from it.
	rec, err := s.a.RecordTurns(p.Request)
	if err != nil {
		return extraction.RunDetail{}, err
	}
	for i := len(p.Request.Messages) - 1; i >= 0; i-- {
		if p.Request.Messages[i].Role == "user" {
			if i < len(rec.Seqs) {
				p.Request.SessionTurn = rec.Seqs[i]
			}
			break
		}
	}
	d, err := x.Request(s.a.ctx, p.Request, p.Wait)
	if err != nil {
		return d, s.a.fail(err)
	}
	return s.a.translateRun(d), nil
}

// Runs lists recorded runs, newest first, translated.
func (s *ExtractionService) Runs(p extraction.RunsParams) (extraction.RunsResult, error) {
	if err := s.a.Wait(); err != nil {
		return extraction.RunsResult{}, err
	}
	x, err := s.svc()
	if err != nil {
		return extraction.RunsResult{Runs: []extraction.RunDetail{}}, err
	}
	res, err := x.Runs(s.a.ctx, p)
	if err != nil {
		return extraction.RunsResult{Runs: []extraction.RunDetail{}}, s.a.fail(err)
	}
	for i := range res.Runs {
		res.Runs[i] = s.a.translateRun(res.Runs[i])
	}
	return res, nil
}

// Run returns one recorded run, translated.
func (s *ExtractionService) Run(p ExtractionRunParams) (extraction.RunDetail, error) {
	if err := s.a.Wait(); err != nil {
		return extraction.RunDetail{}, err
	}
	x, err := s.svc()
	if err != nil {
		return extraction.RunDetail{}, err
	}
	d, err := x.Run(s.a.ctx, p.ID)
	if err != nil {
		return d, s.a.fail(err)
	}
	return s.a.translateRun(d), nil
}

// Settings returns the extraction settings.
func (s *ExtractionService) Settings(_ Empty) (extraction.Settings, error) {
	if err := s.a.Wait(); err != nil {
		return extraction.Settings{}, err
	}
	x, err := s.svc()
	if err != nil {
		return extraction.Settings{}, err
	}
	st, err := x.Settings(s.a.ctx)
	return st, s.a.fail(err)
}

// UpdateSettings changes the extraction settings.
func (s *ExtractionService) UpdateSettings(p extraction.SettingsPatch) (extraction.Settings, error) {
	if err := s.a.Wait(); err != nil {
		return extraction.Settings{}, err
	}
	x, err := s.svc()
	if err != nil {
		return extraction.Settings{}, err
	}
	st, err := x.UpdateSettings(s.a.ctx, p)
	return st, s.a.fail(err)
}

// translateRun fills the translated texts of a run: its status and reason, and the message of
// each refused item (plan codes through extraction.code.<code>, store codes through
// error.<code>) and of each warning.
func (a *API) translateRun(d extraction.RunDetail) extraction.RunDetail {
	d.StatusText = a.t("extraction.status."+d.Status, nil)
	if d.Reason != "" {
		d.ReasonText = a.t(a.reasonKey(d.Reason), nil)
	}
	// What failed, in words: "the model refused the API key (HTTP 401)" rather than every
	// failure reading "the model could not be reached"; and a turn the offline extractor
	// planned because the model failed says so.
	why := ""
	if c := d.Report.ErrorCode; c != "" && (a.deps.Catalog == nil || a.deps.Catalog.Has("error."+c)) {
		why = a.codedText("error."+c, translateDetail(a, d.Report.ErrorArgs))
	}
	switch {
	case d.Report.PlannedOffline:
		d.ReasonText = a.t("extraction.reason_text.planned_offline", map[string]any{"Detail": why})
	case why != "" && d.ReasonText != "":
		d.ReasonText = a.t("extraction.reason_text.with_detail", map[string]any{"Reason": d.ReasonText, "Detail": why})
	}
	for i, r := range d.Report.Rejected {
		args := map[string]any{}
		for k, v := range r.Args {
			args[k] = v
		}
		args["Slug"], args["Detail"] = r.Slug, r.Detail
		d.Report.Rejected[i].Message = a.codedText(a.codeKey(r.Code), args)
	}
	for i, it := range d.Report.Applied {
		for j, w := range it.Warnings {
			d.Report.Applied[i].Warnings[j].Message = a.codedText(a.codeKey(w.Code), w.Args)
		}
	}
	return d
}

// codeKey is the catalog key of a refusal or warning code.
func (a *API) codeKey(code string) string {
	for _, k := range []string{"extraction.code." + code, "error." + code, "warning." + code} {
		if a.deps.Catalog == nil || a.deps.Catalog.Has(k) {
			return k
		}
	}
	return "error.internal"
}

// reasonKey is the catalog key of a skip, noop or failure reason.
func (a *API) reasonKey(reason string) string {
	k := "extraction.reason." + reason
	if a.deps.Catalog != nil && !a.deps.Catalog.Has(k) {
		return "extraction.reason.unknown"
	}
	return k
}
