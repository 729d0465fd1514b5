package api

// SearchRow is one hit flattened for scripts (`engram search --json` prints a list of them):
// the summary's fields beside the score, snippet and the paths that found it.
type SearchRow struct {
	ID         string     `json:"id"`
	Slug       string     `json:"slug"`
	Title      string     `json:"title"`
	Scope      Scope      `json:"scope"`
	Workdir    string     `json:"workdir,omitempty"`
	Agent      string     `json:"agent,omitempty"`
	Type       Type       `json:"type"`
	Confidence Confidence `json:"confidence"`
	Reviewed   bool       `json:"reviewed"`
	Score      float64    `json:"score"`
	Snippet    string     `json:"snippet"`
	Via        []string   `json:"via"`
}

// Rows flattens the hits, best first; never nil (an empty search prints []).
func (r SearchResult) Rows() []SearchRow {
	rows := make([]SearchRow, 0, len(r.Hits))
	for _, h := range r.Hits {
		m := h.Memory
		rows = append(rows, SearchRow{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Workdir: m.Workdir,
			Agent: m.Agent, Type: m.Type, Confidence: m.Confidence, Reviewed: m.Reviewed, Score: h.Score,
			Snippet: h.Snippet, Via: h.Via})
	}
	return rows
}
