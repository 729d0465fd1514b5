package api

import (
	"engram/backend/memory"
)

// FindParams is the person's search of the memory list (search as you type): the list's own
// filters plus the text typed so far, one page at a time.
type FindParams struct {
	Query    string       `json:"query"`
	Scope    memory.Scope `json:"scope,omitempty"`
	Workdir  string       `json:"workdir,omitempty"`
	Agent    string       `json:"agent,omitempty"`
	Type     memory.Type  `json:"type,omitempty"`
	Reviewed *bool        `json:"reviewed,omitempty"`
	Archived bool         `json:"archived,omitempty"`
	Limit    int          `json:"limit,omitempty"`
	Offset   int          `json:"offset,omitempty"`
}

// FindResult is one page of matches, best first, each with a snippet around the query. Total
// counts the matches up to a cap; More says there are more than Total.
type FindResult struct {
	Items []Summary `json:"items"`
	Total int       `json:"total"`
	More  bool      `json:"more"`
}

// Find searches the list as a person types: word prefixes ("po" finds postgres), Chinese words
// as phrases of bigrams, a lone Chinese character anywhere, every term required. It is one
// bounded lexical query, not recall (memory.search): the list calls it on each pause in typing,
// so it must answer in milliseconds at 10,000+ memories, and it counts no access. Whatever
// the query holds is searched as text (FTS syntax included); an over-long query is refused
// with invalid_query.
func (s *MemoryService) Find(p FindParams) (FindResult, error) {
	if err := s.a.Wait(); err != nil {
		return FindResult{}, err
	}
	if err := s.a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return FindResult{}, err
	}
	f := ListParams{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent, Type: p.Type, Reviewed: p.Reviewed,
		Archived: p.Archived, Limit: p.Limit, Offset: p.Offset}.filter()
	if p.Limit <= 0 {
		f.Limit = 100
	}
	res, err := s.a.deps.Store.Find(s.a.ctx, p.Query, f)
	if err != nil {
		return FindResult{}, s.a.fail(err)
	}
	out := FindResult{Items: make([]Summary, 0, len(res.Items)), Total: res.Total, More: res.More}
	for _, m := range res.Items {
		sum := summarize(m)
		sum.Snippet = memory.PlainSnippet(m.Body, p.Query, 160)
		out.Items = append(out.Items, sum)
	}
	return out, nil
}
