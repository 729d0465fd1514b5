package api

import "engram/backend/memory"

// HistoryParams select one memory's audit trail.
type HistoryParams struct {
	ID    string `json:"id"`
	Limit int    `json:"limit,omitempty"`
	// BeforeSeq pages back: only entries older than this sequence number.
	BeforeSeq int64 `json:"before_seq,omitempty"`
}

// HistoryResult is the audit trail, newest first.
type HistoryResult struct {
	Entries []memory.AuditEntry `json:"entries"`
}

// History returns the audit log of one memory (or all when id is empty).
func (s *MemoryService) History(p HistoryParams) (HistoryResult, error) {
	if err := s.a.Wait(); err != nil {
		return HistoryResult{}, err
	}
	entries, err := s.a.deps.Store.AuditPage(s.a.ctx, p.ID, p.Limit, p.BeforeSeq)
	if err != nil {
		return HistoryResult{}, s.a.fail(err)
	}
	if entries == nil {
		entries = []memory.AuditEntry{}
	}
	return HistoryResult{Entries: entries}, nil
}

// ProblemsResult lists files that could not be indexed.
type ProblemsResult struct {
	Problems []memory.Problem `json:"problems"`
}

// Problems lists unreadable files, left untouched on disk.
func (s *MemoryService) Problems(_ Empty) (ProblemsResult, error) {
	if err := s.a.Wait(); err != nil {
		return ProblemsResult{}, err
	}
	ps, err := s.a.deps.Store.Problems(s.a.ctx)
	if err != nil {
		return ProblemsResult{}, s.a.fail(err)
	}
	if ps == nil {
		ps = []memory.Problem{}
	}
	s.a.translateProblems(ps)
	return ProblemsResult{Problems: ps}, nil
}
