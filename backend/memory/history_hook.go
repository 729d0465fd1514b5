package memory

import (
	"context"
	"sort"
	"strings"
)

// ActorHand is the audit and history actor of a file edited by hand, as the watcher found it.
// ActorSync is the actor of what a sync with another machine brought in (its conflict copies).
const (
	ActorHand = "hand"
	ActorSync = "sync"
)

// Applied describes the files one write changed, for the history hook: the actor, one line
// per successful operation ("create global/user/bar") and the memory-relative paths touched.
// Paths is nil when anything below the folder may have moved (a full reconcile).
type Applied struct {
	Actor string
	Ops   []string
	Paths []string
}

// AppliedHook hears every change to the memory files, called while the writer lock is held
// (this process's mutex and the cross-process file lock), so commits of the app, serve, MCP
// and the CLI on one home never interleave. An error is logged; the write itself stands.
type AppliedHook func(Applied) error

// OnApplied registers fn (nil removes it). The history package registers one when the memory
// folder is a git repository; the wiring does it where the services are built.
// Project moves made before any hook was registered (at Open, which runs before the wiring
// attaches the history) are handed to fn now, under the writer lock, so they are committed
// as the renames they are.
func (s *Store) OnApplied(fn AppliedHook) {
	s.hookMu.Lock()
	s.hook = fn
	pending := s.unheard
	if fn != nil {
		s.unheard = nil
	}
	s.hookMu.Unlock()
	if fn == nil || len(pending) == 0 {
		return
	}
	err := s.withLock(func() error {
		for _, a := range pending {
			if err := fn(a); err != nil {
				s.log.Warn("memory: history hook failed", "actor", a.Actor, "err", err)
			}
		}
		return nil
	})
	if err != nil {
		s.log.Warn("memory: unable to hand earlier project moves to the history", "err", err)
	}
}

// notePath records a file a batch touched; called by writeFile, move and remove while a
// batch holds the lock (batchPaths is nil otherwise).
func (s *Store) notePath(rel string) {
	if s.batchPaths != nil {
		s.batchPaths[rel] = true
	}
}

// runHook calls the registered hook; the caller holds the writer lock.
func (s *Store) runHook(a Applied) {
	s.hookMu.Lock()
	fn := s.hook
	if fn == nil && a.Actor == ActorProject && len(s.unheard) < 64 {
		s.unheard = append(s.unheard, a)
	}
	s.hookMu.Unlock()
	if fn == nil {
		return
	}
	if err := fn(a); err != nil {
		s.log.Warn("memory: history hook failed", "actor", a.Actor, "err", err)
	}
}

// appliedOf describes a finished batch for the hook: the successful items' operations in
// item order and every path touched, sorted.
func appliedOf(b *Batch, res []ItemResult, paths map[string]bool) Applied {
	a := Applied{Actor: b.Actor}
	for _, r := range res {
		if !r.OK {
			continue
		}
		verb := string(r.Op)
		switch r.Op {
		case OpWrite:
			verb = "create"
		case OpAppendDaily:
			verb = "append"
		}
		target := r.Path
		if orig, ok := trashOrigin(target); ok && strings.HasPrefix(target, ".trash/") {
			target = orig // a delete or reject names the memory, not its place in the trash
		} else if strings.HasPrefix(target, ".archive/") {
			if _, rest, ok := strings.Cut(strings.TrimPrefix(target, ".archive/"), "/"); ok {
				target = rest
			}
		}
		target = strings.TrimSuffix(target, ".md")
		if target == "" {
			target = r.Slug
		}
		a.Ops = append(a.Ops, verb+" "+target)
	}
	for p := range paths {
		a.Paths = append(a.Paths, p)
	}
	sort.Strings(a.Paths)
	return a
}

// ExternalChange runs fn holding the writer lock, for code that changes the memory files
// outside apply_batch (a git pull or merge): fn returns the paths it changed (nil: any), and
// the index's derived tables are reconciled with them before the lock is released.
func (s *Store) ExternalChange(ctx context.Context, fn func() ([]string, error)) (ReconcileReport, error) {
	var rep ReconcileReport
	err := s.withLock(func() error {
		paths, err := fn()
		if err != nil {
			return err
		}
		if paths != nil && len(paths) == 0 {
			return nil
		}
		rep, err = s.reconcileLocked(ctx, paths)
		return err
	})
	if err == nil {
		s.afterReconcile(ctx, rep)
	}
	return rep, err
}

// Locked runs fn holding the writer lock (history enable, status and restore read the
// repository while no write can move it).
func (s *Store) Locked(fn func() error) error { return s.withLock(fn) }

// handEdited tells the hook about files a reconcile found changed by hand (the watcher's
// reconcile, or any other): rels are the paths looked at, nil for a full walk. Our own
// writes reconcile as unchanged and are not reported again. The caller holds the lock.
func (s *Store) handEdited(rep ReconcileReport, rels []string, err error) {
	if err != nil || (rep.Added+rep.Updated+rep.Removed == 0 && !rep.ProblemsChanged) {
		return
	}
	a := Applied{Actor: ActorHand, Ops: []string{"edit by hand"}}
	if rels != nil {
		a.Paths = append([]string(nil), rels...)
		sort.Strings(a.Paths)
		a.Ops = a.Ops[:0]
		for _, p := range a.Paths {
			a.Ops = append(a.Ops, "edit "+strings.TrimSuffix(p, ".md"))
		}
	}
	s.runHook(a)
}

// ChangedAtOpen reports whether the reconcile at open found files changed while no Engram
// process ran, which the history then commits as hand edits.
func (s *Store) ChangedAtOpen() bool { return s.openDirty }
