package memory

import "context"

// Reindex drops the memory tables' rows and rebuilds them from the files. Audit history,
// rejections, runs, usage, access counts and settings are kept.
func (s *Store) Reindex(ctx context.Context) (ReconcileReport, error) {
	var rep ReconcileReport
	repaired := false
	err := s.withLock(func() error {
		var err error
		rep, err = s.reindexLocked(ctx)
		// Reindex is the person's way out of a broken index: a damaged one is repaired.
		if IsCorrupt(err) {
			if err = s.recoverLocked(ctx, err); err == nil {
				repaired = true
				rep, err = s.reindexLocked(ctx)
			}
		}
		return err
	})
	if repaired {
		s.emit(Event{Kind: "memory.problems"})
	}
	if err == nil {
		s.afterReconcile(ctx, rep)
	}
	return rep, err
}

func (s *Store) reindexLocked(ctx context.Context) (ReconcileReport, error) {
	rep, err := s.rebuildLocked(ctx, nil, true)
	if err == nil {
		s.optimizeIndex(ctx, true) // statistics for the index just built, freed pages returned (lean.go)
	}
	return rep, err
}

// afterReconcile tells subscribers what a reconcile changed.
func (s *Store) afterReconcile(ctx context.Context, rep ReconcileReport) {
	if len(rep.ChangedID) > 0 {
		s.changed(ctx, rep.ChangedID)
	}
	if rep.ProblemsChanged {
		s.emit(Event{Kind: "memory.problems"})
	}
}
