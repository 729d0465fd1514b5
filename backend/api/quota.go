package api

import (
	"maps"

	"engram/backend/memory"
)

// QuotaService reports usage against the per-scope limit.
type QuotaService struct{ a *API }

// Summary returns usage per scope instance and the ladder level.
func (s *QuotaService) Summary(_ Empty) (memory.QuotaSummary, error) {
	if err := s.a.Wait(); err != nil {
		return memory.QuotaSummary{}, err
	}
	q, err := s.a.deps.Store.Quota(s.a.ctx)
	return q, s.a.fail(err)
}

// IndexService maintains the SQLite index.
type IndexService struct{ a *API }

// Reconcile brings the index in line with files edited outside Engram.
func (s *IndexService) Reconcile(_ Empty) (memory.ReconcileReport, error) {
	if err := s.a.Wait(); err != nil {
		return memory.ReconcileReport{}, err
	}
	r, err := s.a.deps.Store.Reconcile(s.a.ctx)
	return r, s.a.fail(err)
}

// Reindex rebuilds the index from the Markdown files, publishing index.progress as it goes.
func (s *IndexService) Reindex(_ Empty) (memory.ReconcileReport, error) {
	if err := s.a.Wait(); err != nil {
		return memory.ReconcileReport{}, err
	}
	progress := s.a.indexProgress("reindex")
	r, err := s.a.deps.Store.Reindex(memory.WithProgress(s.a.ctx, progress))
	if err == nil {
		progress("done", r.Scanned, r.Scanned)
	}
	return r, s.a.fail(err)
}

// Doctor checks the home and reports problems, publishing index.progress as it goes.
func (s *IndexService) Doctor(_ Empty) (memory.DoctorReport, error) {
	if err := s.a.Wait(); err != nil {
		return memory.DoctorReport{}, err
	}
	progress := s.a.indexProgress("doctor")
	r, err := s.a.deps.Store.Doctor(memory.WithProgress(s.a.ctx, progress))
	if err == nil {
		progress("done", r.Checksum.Checked, r.Checksum.Checked)
	}
	if r.Problems == nil {
		r.Problems = []memory.Problem{}
	}
	s.a.translateProblems(r.Problems)
	if r.Recovery != nil {
		s.a.translateRecovery(r.Recovery)
	}
	if r.Findings == nil {
		r.Findings = []memory.Finding{}
	}
	if err == nil && s.a.deps.History != nil {
		r.Findings = append(r.Findings, s.a.deps.History.Check()...)
	}
	for i, f := range r.Findings {
		args := map[string]any{"Path": f.Path, "Count": f.Count}
		for k, v := range f.Args {
			args[k] = v
		}
		if kind, ok := args["ScopeKind"].(string); ok && kind != "" {
			// "global 已用 488/500": the scope is named in the caller's language.
			args["Scope"] = s.a.t("cli.quota_scope."+kind, args)
		}
		targs := translateDetail(s.a, args)
		if code, ok := args["ProblemCode"].(string); ok && s.a.deps.Catalog != nil && s.a.deps.Catalog.Has("error."+code) {
			// An unreadable file: the problem's own sentence around its detail (a bare
			// "title" said nothing of a control character in the title).
			targs = maps.Clone(targs)
			targs["Detail"] = s.a.t("error."+code, map[string]any{"Detail": targs["Detail"]})
		}
		r.Findings[i].Message = s.a.t("doctor.finding."+f.Code, targs)
	}
	// The first line, said once from every finding (the git history's included) for the CLI
	// and the app alike: the app had its own rules for it, the CLI these.
	r.SetHeadline()
	r.Headline.Message = s.a.t("cli.doctor_headline."+r.Headline.Code, r.Headline.Args)
	return r, s.a.fail(err)
}

// translateProblems puts each problem's detail in the caller's language when the parser's
// reason is named by key (memory.Problem.DetailKey); the English stays otherwise.
func (a *API) translateProblems(ps []memory.Problem) {
	for i, p := range ps {
		if p.DetailKey != "" && a.deps.Catalog != nil && a.deps.Catalog.Has(p.DetailKey) {
			ps[i].Detail = a.t(p.DetailKey, p.DetailArgs)
		}
	}
}

// translateRecovery fills the notice of a damaged-index repair and its per-table lines.
func (a *API) translateRecovery(rec *memory.Recovery) {
	rec.Message = a.t("notice."+rec.Code, rec.Args())
	for i, st := range rec.Tables {
		key := "notice.salvaged_table"
		if st.Lost < 0 {
			key = "notice.salvaged_table_unknown"
		}
		rec.Tables[i].Message = a.t(key, map[string]any{"Table": st.Table, "Salvaged": st.Salvaged, "Lost": st.Lost})
	}
}
