package api

import (
	"sort"
	"strings"

	"engram/backend/memory"
	"engram/backend/recall"
)

// AgentViewService is "What my agents see": the person picks an agent, a project and a
// query and is shown the Memory Index and the build_context block that agent would be
// given there — computed by the same recall calls, through the same visibility function,
// that serve the agent over MCP. Only the person may pick the caller: a model-facing api
// (MCP acts as "tool") is refused, so no model can look through another agent's eyes.
type AgentViewService struct{ a *API }

// CodeAgentViewPersonOnly refuses "What my agents see" to anyone but the person.
const CodeAgentViewPersonOnly = "agentview_person_only"

func (s *AgentViewService) person() error {
	if s.a.actor != ActorUser && s.a.actor != ActorBridge {
		return s.a.newError(CodeAgentViewPersonOnly, nil)
	}
	return nil
}

// AgentChoices are the callers the person may pick from: agents that have memories of their
// own or called the MCP server recently, and the projects (workdirs) the store knows.
type AgentChoices struct {
	Agents   []string `json:"agents"`
	Workdirs []string `json:"workdirs"`
}

// Choices lists the known agents and project folders.
func (s *AgentViewService) Choices(_ Empty) (AgentChoices, error) {
	if err := s.a.Wait(); err != nil {
		return AgentChoices{}, err
	}
	out := AgentChoices{Agents: []string{}, Workdirs: []string{}}
	if err := s.person(); err != nil {
		return out, err
	}
	q, err := s.a.deps.Store.Quota(s.a.ctx)
	if err != nil {
		return out, s.a.fail(err)
	}
	agents := map[string]bool{}
	workdirs := map[string]bool{}
	for _, sc := range q.Scopes {
		switch {
		case sc.Scope == memory.ScopeAgent && sc.Key != "":
			agents[sc.Key] = true
		case sc.Scope == memory.ScopeProject && sc.Workdir != "":
			workdirs[sc.Workdir] = true
		}
	}
	if conn, err := s.a.Integrations.Agents(AgentsParams{Hours: 24 * 90}); err == nil {
		for _, c := range conn.Agents {
			if memory.ValidAgent(c.Name) {
				agents[c.Name] = true
			}
		}
	}
	for a := range agents {
		out.Agents = append(out.Agents, a)
	}
	for w := range workdirs {
		out.Workdirs = append(out.Workdirs, w)
	}
	sort.Strings(out.Agents)
	sort.Strings(out.Workdirs)
	return out, nil
}

// AgentPreviewParams name the caller to look through (Agent and Workdir, both optional: an
// empty caller sees global memories only) and the query for build_context (none: the index
// only). MaxTokens is build_context's budget (default recall.DefaultContextTokens).
type AgentPreviewParams struct {
	Agent     string `json:"agent,omitempty"`
	Workdir   string `json:"workdir,omitempty"`
	Query     string `json:"query,omitempty"`
	MaxTokens int    `json:"max_tokens,omitempty"`
}

// AgentPreview is what the caller is given: the Memory Index text (as memory_overview and
// the MCP index resource send it) and, for a query, the build_context block. Token counts
// are recall.EstimateTokens — one token per non-ASCII character and one per three ASCII
// bytes, the same pessimistic estimate build_context keeps its budget with.
type AgentPreview struct {
	Agent          string                `json:"agent"`
	Workdir        string                `json:"workdir"`
	Index          string                `json:"index"`
	IndexTokens    int                   `json:"index_tokens"`
	IndexBytes     int                   `json:"index_bytes"`
	IndexEntries   int                   `json:"index_entries"`
	IndexTotal     int                   `json:"index_total"`
	IndexTruncated bool                  `json:"index_truncated"`
	Context        *recall.ContextResult `json:"context"`
	MaxTokens      int                   `json:"max_tokens"`
}

// Preview renders the Memory Index and build_context for the chosen caller. Neither call
// counts as a recall of the memories shown (the person is looking, not the agent).
func (s *AgentViewService) Preview(p AgentPreviewParams) (AgentPreview, error) {
	if err := s.a.Wait(); err != nil {
		return AgentPreview{}, err
	}
	if err := s.person(); err != nil {
		return AgentPreview{}, err
	}
	agent, workdir := strings.TrimSpace(p.Agent), strings.TrimSpace(p.Workdir)
	vis, err := recall.NewVisibility(recall.Caller{Workdir: workdir, Agent: agent}, s.a.deps.Store.Projects())
	if err != nil {
		return AgentPreview{}, s.a.fail(err)
	}
	out := AgentPreview{Agent: vis.Agent(), Workdir: vis.Workdir(), MaxTokens: p.MaxTokens}
	if out.MaxTokens == 0 {
		out.MaxTokens = recall.DefaultContextTokens
	}
	r := s.a.deps.Recall
	ov, err := r.Overview(s.a.ctx, recall.OverviewParams{Workdir: out.Workdir, Agent: out.Agent})
	if err != nil {
		return AgentPreview{}, s.a.fail(err)
	}
	out.Index, out.IndexTokens, out.IndexBytes = ov.Index, recall.EstimateTokens(ov.Index), len(ov.Index)
	out.IndexEntries, out.IndexTotal, out.IndexTruncated = ov.Entries, ov.Total, ov.Truncated
	if q := strings.TrimSpace(p.Query); q != "" {
		ctx, err := r.BuildContext(s.a.ctx, recall.ContextParams{Query: q, MaxTokens: out.MaxTokens,
			Workdir: out.Workdir, Agent: out.Agent, NoTouch: true})
		if err != nil {
			return AgentPreview{}, s.a.fail(err)
		}
		out.Context = &ctx
	}
	return out, nil
}
