package api

import (
	"path"

	"engram/backend/history"
	"engram/backend/memory"
)

// HistoryService is git history and sync of the memory folder (issue 15 item 2): turn it on
// or off, list every version of a memory with diffs, restore one, sync with a remote. Only a
// person (the window, the CLI, a browser through the bridge) may change any of it: a restore
// rewrites a memory as the person's own reviewed write, and a sync talks to another machine.
type HistoryService struct{ a *API }

// CodeHistoryPersonOnly refuses history changes to a model-facing caller (MCP acts as "tool").
const CodeHistoryPersonOnly = "history_person_only"

// CodeHistoryRemotePathRemote refuses a folder of this machine as the sync remote from a
// browser over the bridge: the sync would read and move the branches of whatever repository
// the path names, as backup_path_remote and export_folder_remote refuse paths to it.
const CodeHistoryRemotePathRemote = "history_remote_path_remote"

func (s *HistoryService) person() error {
	if s.a.actor != ActorUser && s.a.actor != ActorBridge {
		return s.a.newError(CodeHistoryPersonOnly, nil)
	}
	return nil
}

func (s *HistoryService) repo() *history.Repo {
	if s.a.deps.History == nil {
		s.a.deps.History = history.New(s.a.deps.Store.Root(), nil)
		s.a.deps.History.SetAuth(history.DefaultAuth(s.a.deps.Store.Home()))
	}
	return s.a.deps.History
}

// SyncResult and SyncConflict are what a sync did and each conflict or replacement it names,
// re-exported so transports (the CLI prints them) import only api.
type (
	SyncResult   = history.SyncResult
	SyncConflict = history.Conflict
)

// HistoryStatus is history.Status with the sync schedule.
type HistoryStatus struct {
	history.Status
	// SyncMinutes is how often desktop and serve sync with the remote (Settings → Data; 0: not
	// scheduled, or no remote).
	SyncMinutes int `json:"sync_minutes"`
}

// Status reports whether history is on, its head and commit count and the remote (history.status).
func (s *HistoryService) Status(_ Empty) (HistoryStatus, error) {
	if err := s.a.Wait(); err != nil {
		return HistoryStatus{}, err
	}
	var st history.Status
	err := s.a.deps.Store.Locked(func() error {
		var err error
		st, err = s.repo().Status()
		return err
	})
	out := HistoryStatus{Status: st}
	if st.Enabled && st.Remote != "" && s.a.deps.Settings != nil {
		set, serr := s.a.deps.Settings.Get(s.a.ctx)
		if serr == nil {
			out.SyncMinutes = set.SyncMinutes
		}
	}
	return out, s.a.fail(err)
}

// Enable makes the memory folder a git repository and commits it (history.enable).
func (s *HistoryService) Enable(_ Empty) (HistoryStatus, error) {
	if err := s.a.Wait(); err != nil {
		return HistoryStatus{}, err
	}
	if err := s.person(); err != nil {
		return HistoryStatus{}, err
	}
	if err := s.a.deps.Store.Locked(func() error { _, err := s.repo().Enable(); return err }); err != nil {
		return HistoryStatus{}, s.a.fail(err)
	}
	return s.Status(Empty{})
}

// Disable stops committing, keeping the repository (history.disable).
func (s *HistoryService) Disable(_ Empty) (HistoryStatus, error) {
	if err := s.a.Wait(); err != nil {
		return HistoryStatus{}, err
	}
	if err := s.person(); err != nil {
		return HistoryStatus{}, err
	}
	if err := s.a.deps.Store.Locked(s.repo().Disable); err != nil {
		return HistoryStatus{}, s.a.fail(err)
	}
	return s.Status(Empty{})
}

// VersionsParams name a memory by id, or (a person only) a memory file by its path in the
// memory folder: one that cannot be read as a memory (bytes that are not UTF-8, a broken
// header) is in no index, and its versions — the good one to bring back — were out of reach.
type VersionsParams struct {
	ID    string `json:"id,omitempty"`
	Path  string `json:"path,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// VersionsResult lists a memory's versions from git, newest first, each with the diff from
// the one before. Enabled is false (and Versions empty) while history is off.
type VersionsResult struct {
	Enabled  bool              `json:"enabled"`
	Path     string            `json:"path"`
	Versions []history.Version `json:"versions"`
}

// Versions lists every version of one memory (history.versions).
func (s *HistoryService) Versions(p VersionsParams) (VersionsResult, error) {
	if err := s.a.Wait(); err != nil {
		return VersionsResult{}, err
	}
	out := VersionsResult{Versions: []history.Version{}}
	switch {
	case p.ID == "" && p.Path == "":
		return out, s.a.newError(CodeInvalidParams, map[string]any{"Method": "history.versions", "Detail": "id (or path) is required"})
	case p.ID == "":
		// A path reaches any scope's file: the person's, never an agent's.
		if err := s.person(); err != nil {
			return out, err
		}
		out.Path = path.Clean(p.Path)
	default:
		m, err := s.a.resolve(RefParams{ID: p.ID})
		if err != nil {
			return out, s.a.fail(err)
		}
		out.Path = m.Path
	}
	r := s.repo()
	if !r.Exists() {
		return out, nil
	}
	out.Enabled = r.Enabled()
	err := s.a.deps.Store.Locked(func() error {
		vs, err := r.Versions(s.a.ctx, out.Path, p.Limit)
		if err == nil {
			out.Versions = vs
		}
		return err
	})
	return out, s.a.fail(err)
}

// RestoreVersionParams name a memory and the commit whose version comes back: by id, or for
// a memory deleted (and maybe purged from the trash since) by the path history.deleted gave.
type RestoreVersionParams struct {
	ID     string `json:"id,omitempty"`
	Path   string `json:"path,omitempty"`
	Commit string `json:"commit"`
}

// DeletedParams bound the listing of deleted memories.
type DeletedParams struct {
	Limit int `json:"limit,omitempty"`
}

// DeletedResult lists the memories git history saw deleted that are not back, newest first.
// Enabled is false (and Memories empty) while history is off.
type DeletedResult struct {
	Enabled  bool                    `json:"enabled"`
	Memories []history.DeletedMemory `json:"memories"`
}

// Deleted lists the memories deleted — purged from the trash too — whose last version git
// history keeps (history.deleted): what history.restore with their path brings back.
func (s *HistoryService) Deleted(p DeletedParams) (DeletedResult, error) {
	if err := s.a.Wait(); err != nil {
		return DeletedResult{}, err
	}
	out := DeletedResult{Memories: []history.DeletedMemory{}}
	r := s.repo()
	if !r.Exists() {
		return out, nil
	}
	out.Enabled = r.Enabled()
	err := s.a.deps.Store.Locked(func() error {
		ds, err := r.Deleted(s.a.ctx, p.Limit)
		if err == nil {
			out.Memories = ds
		}
		return err
	})
	return out, s.a.fail(err)
}

// Restore writes an earlier version of a memory as a new update through the store, so the
// index, graph, audit and history follow (history.restore). Person only.
func (s *HistoryService) Restore(p RestoreVersionParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	if err := s.person(); err != nil {
		return ItemResult{}, err
	}
	if (p.ID == "" && p.Path == "") || p.Commit == "" {
		return ItemResult{}, s.a.newError(CodeInvalidParams, map[string]any{"Method": "history.restore", "Detail": "id (or path) and commit are required"})
	}
	var r memory.ItemResult
	var err error
	if p.ID != "" {
		r, err = s.repo().Restore(s.a.ctx, s.a.deps.Store, p.ID, p.Commit, s.a.actor)
	} else {
		r, err = s.repo().RestoreDeleted(s.a.ctx, s.a.deps.Store, p.Path, p.Commit, s.a.actor)
	}
	if err != nil {
		return ItemResult{}, s.a.fail(err)
	}
	out := s.a.itemResult(r)
	if !r.OK {
		return out, &Error{Code: out.Code, I18nKey: out.I18nKey, Args: out.Args, Message: out.Message}
	}
	return out, nil
}

// HistorySyncParams may name the remote (a path, file://, ssh or https URL), which then
// becomes the configured one.
type HistorySyncParams struct {
	Remote string `json:"remote,omitempty"`
}

// Sync fetches, merges and pushes (history.sync). Person only.
func (s *HistoryService) Sync(p HistorySyncParams) (history.SyncResult, error) {
	if err := s.a.Wait(); err != nil {
		return history.SyncResult{}, err
	}
	if err := s.person(); err != nil {
		return history.SyncResult{Conflicts: []history.Conflict{}}, err
	}
	// What is no remote at all is refused as such to every caller (not as a folder).
	if p.Remote != "" {
		if err := history.CheckRemote(p.Remote); err != nil {
			return history.SyncResult{Conflicts: []history.Conflict{}}, s.a.fail(err)
		}
	}
	if p.Remote != "" && !s.a.personCaller() && history.IsFolderRemote(p.Remote) {
		return history.SyncResult{Conflicts: []history.Conflict{}}, s.a.newError(CodeHistoryRemotePathRemote, map[string]any{"Remote": p.Remote})
	}
	res, err := s.repo().Sync(s.a.ctx, s.a.deps.Store, p.Remote)
	if res.Conflicts == nil {
		res.Conflicts = []history.Conflict{}
	}
	return res, s.a.fail(err)
}
