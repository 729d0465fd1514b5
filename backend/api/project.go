package api

import (
	"strings"

	"engram/backend/memory"
)

// CodeProjectPersonOnly refuses memory.project to a model-facing caller: resolving a folder
// reads its id file and git remote, which no model may probe for paths of its choosing.
const CodeProjectPersonOnly = "project_person_only"

// How a project was identified (ProjectInfo.Kind), for transports that may not import memory.
const (
	ProjectByID     = memory.ProjectByID
	ProjectByRemote = memory.ProjectByRemote
	ProjectByPath   = memory.ProjectByPath
)

// ProjectParams name a workdir and, optionally, the person's word on its id file.
type ProjectParams struct {
	Workdir string `json:"workdir"`
	// Trust is "trust" (the folder may share the project its .engram-project names, which
	// another folder on this machine uses), "untrust" (it may not), or "" to only look.
	Trust string `json:"trust,omitempty"`
}

// The values of ProjectParams.Trust.
const (
	ProjectTrust   = "trust"
	ProjectUntrust = "untrust"
)

// CodeInvalidProjectTrust refuses a ProjectParams.Trust that is neither "trust" nor "untrust".
const CodeInvalidProjectTrust = "invalid_project_trust"

// ProjectInfo is what a workdir resolves to (memory.Project: kind, identity, key, path key,
// any id file or remote passed over) and what the store holds for it on this machine.
type ProjectInfo struct {
	memory.Project
	// Memories counts live memories under the key; PathKeyMemories those still under the path
	// key (non-zero only when a move to the identity key did not happen: see the log).
	Memories        int `json:"memories"`
	PathKeyMemories int `json:"path_key_memories"`
	// RecordedWorkdir is the folder this machine's index keeps for the key.
	RecordedWorkdir string `json:"recorded_workdir,omitempty"`
}

// Project shows a workdir's project identity and key, read afresh (memory.project), and moves
// memories an older build kept under its path key to its identity key, as any first use does.
// With Trust it first records the person's word on the folder's id file (memory.TrustProject).
// Only a person may call it (CodeProjectPersonOnly): a model must never join a folder to
// another project.
func (s *MemoryService) Project(p ProjectParams) (ProjectInfo, error) {
	if err := s.a.Wait(); err != nil {
		return ProjectInfo{}, err
	}
	if s.a.actor != ActorUser && s.a.actor != ActorBridge {
		return ProjectInfo{}, s.a.newError(CodeProjectPersonOnly, nil)
	}
	if strings.TrimSpace(p.Workdir) == "" {
		return ProjectInfo{}, s.a.newError(CodeWorkdirMissing, nil)
	}
	st := s.a.deps.Store
	var proj memory.Project
	var err error
	switch p.Trust {
	case "":
		proj, err = st.Project(p.Workdir)
	case ProjectTrust, ProjectUntrust:
		proj, err = st.TrustProject(p.Workdir, p.Trust == ProjectTrust)
	default:
		return ProjectInfo{}, s.a.newError(CodeInvalidProjectTrust, map[string]any{"Value": p.Trust})
	}
	if err != nil {
		return ProjectInfo{}, s.a.fail(err)
	}
	out := ProjectInfo{Project: proj, RecordedWorkdir: st.ProjectWorkdir(s.a.ctx, proj.Key)}
	q, err := st.Quota(s.a.ctx)
	if err != nil {
		return out, s.a.fail(err)
	}
	for _, sq := range q.Scopes {
		if sq.Scope != memory.ScopeProject {
			continue
		}
		switch sq.Key {
		case proj.Key:
			out.Memories = sq.Used
		case proj.PathKey:
			out.PathKeyMemories = sq.Used
		}
	}
	return out, nil
}

// ProjectKey is the key of the project workdir resolves to (its id file, else its git remote
// origin, else its path), for a transport that must tell whether a folder a model names
// belongs to the session's own project: a folder inside the session's folders can name
// another project on this machine through a remote or an id file it holds. It answers the
// transport, never the model.
func (a *API) ProjectKey(workdir string) (string, error) {
	if err := a.Wait(); err != nil {
		return "", err
	}
	key, err := a.deps.Store.Projects().Key(workdir)
	if err != nil {
		return "", a.fail(err)
	}
	return key, nil
}
