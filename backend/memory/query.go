package memory

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Filter narrows list and search. With Scope empty and Workdir or Agent set it selects what
// an agent working there may see: global, that project and that agent's own memories.
type Filter struct {
	Scope    Scope  `json:"scope,omitempty"`
	Workdir  string `json:"workdir,omitempty"`
	Agent    string `json:"agent,omitempty"`
	Type     Type   `json:"type,omitempty"`
	Reviewed *bool  `json:"reviewed,omitempty"`
	// Archived selects archived entries instead of live ones.
	Archived bool `json:"archived,omitempty"`
	// NoDaily leaves journal days out.
	NoDaily bool `json:"no_daily,omitempty"`
	Limit   int  `json:"limit,omitempty"`
	Offset  int  `json:"offset,omitempty"`
}

// where renders the filter as SQL over memory_meta aliased m.
func (f Filter) where() (string, []any, error) {
	conds := []string{"m.archived = ?"}
	args := []any{f.Archived}
	switch {
	case f.Scope != "":
		if !f.Scope.Valid() {
			return "", nil, codeErr(CodeInvalidScope, map[string]any{"Scope": string(f.Scope)}, "invalid scope %q", f.Scope)
		}
		conds = append(conds, "m.scope = ?")
		args = append(args, string(f.Scope))
		switch {
		case f.Scope == ScopeProject && f.Workdir != "":
			wd, err := CanonicalWorkdir(f.Workdir)
			if err != nil {
				return "", nil, err
			}
			conds = append(conds, "m.scope_key = ?")
			args = append(args, ProjectKey(wd))
		case f.Scope == ScopeAgent && f.Agent != "":
			conds = append(conds, "m.scope_key = ?")
			args = append(args, f.Agent)
		}
	case f.Workdir != "" || f.Agent != "":
		vis := []string{"m.scope = 'global'"}
		if f.Workdir != "" {
			wd, err := CanonicalWorkdir(f.Workdir)
			if err != nil {
				return "", nil, err
			}
			vis = append(vis, "(m.scope = 'project' AND m.scope_key = ?)")
			args = append(args, ProjectKey(wd))
		}
		if f.Agent != "" {
			vis = append(vis, "(m.scope = 'agent' AND m.scope_key = ?)")
			args = append(args, f.Agent)
		}
		conds = append(conds, "("+strings.Join(vis, " OR ")+")")
	}
	if f.Type != "" {
		if !f.Type.Valid() {
			return "", nil, codeErr(CodeInvalidType, map[string]any{"Type": string(f.Type)}, "invalid type %q", f.Type)
		}
		conds = append(conds, "m.type = ?")
		args = append(args, string(f.Type))
	}
	if f.NoDaily {
		conds = append(conds, "m.type <> 'daily'")
	}
	if f.Reviewed != nil {
		conds = append(conds, "m.reviewed = ?")
		args = append(args, *f.Reviewed)
	}
	return strings.Join(conds, " AND "), args, nil
}

// Get returns one memory by id.
func (s *Store) Get(ctx context.Context, id string) (*Memory, error) { return getByID(ctx, s.db, id) }

// GetBySlug returns the live memory with slug in one scope instance.
func (s *Store) GetBySlug(ctx context.Context, scope Scope, workdir, agent, slug string) (*Memory, error) {
	_, _, key, err := scopeKey(scope, workdir, agent)
	if err != nil {
		return nil, err
	}
	return getBySlug(ctx, s.db, scope, key, slug)
}

// List returns memories matching f, newest first, and the total count.
func (s *Store) List(ctx context.Context, f Filter) ([]*Memory, int, error) {
	where, args, err := f.where()
	if err != nil {
		return nil, 0, err
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_meta m WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("memory: unable to count: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+metaColumns+` FROM memory_meta m WHERE `+where+`
		ORDER BY m.updated DESC, m.rid DESC LIMIT ? OFFSET ?`, append(args, limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("memory: unable to list: %w", err)
	}
	defer rows.Close()
	var out []*Memory
	for rows.Next() {
		m, _, err := scanMemory(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("memory: unable to scan: %w", err)
		}
		out = append(out, m)
	}
	return out, total, rows.Err()
}

// Hit is one search result.
type Hit struct {
	Memory  *Memory  `json:"memory"`
	RID     int64    `json:"-"`
	Score   float64  `json:"score"`
	Snippet string   `json:"snippet"`
	Via     []string `json:"via"`
}

// LexicalRank is one ranked list from one lexical path, best first.
type LexicalRank struct {
	Path string
	RIDs []int64
}

const rrfK = 60.0

// substringRescue is how few word-index hits make the trigram path run.
const substringRescue = 20

// LexicalRanks runs the lexical paths for q: BM25 over the CJK-segmented unicode61 index,
// trigram substrings, and a LIKE scan for what neither can express (a lone CJK character, a
// query of only punctuation). Nothing of q ever reaches FTS syntax unquoted.
func (s *Store) LexicalRanks(ctx context.Context, q string, f Filter, depth int) ([]LexicalRank, error) {
	where, args, err := f.where()
	if err != nil {
		return nil, err
	}
	if depth <= 0 {
		depth = 200
	}
	var out []LexicalRank
	collect := func(path, query string, qargs []any) error {
		rows, err := s.db.QueryContext(ctx, query, qargs...)
		if err != nil {
			return fmt.Errorf("memory: unable to search (%s): %w", path, err)
		}
		defer rows.Close()
		lr := LexicalRank{Path: path}
		for rows.Next() {
			var rid int64
			if err := rows.Scan(&rid); err != nil {
				return fmt.Errorf("memory: unable to scan search row: %w", err)
			}
			lr.RIDs = append(lr.RIDs, rid)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("memory: unable to search (%s): %w", path, err)
		}
		if len(lr.RIDs) > 0 {
			out = append(out, lr)
		}
		return nil
	}
	// Rank inside FTS first and filter the best candidates: joining every match to
	// memory_meta before ordering costs as much again at 100k. A selective filter that leaves
	// too few of the capped candidates falls back to the full join.
	ranked := func(path, table, rank, match string) (int, error) {
		const cap = 2000
		before := len(out)
		err := collect(path, `WITH hits AS (SELECT rowid AS rid, `+rank+` AS r FROM `+table+` WHERE `+table+` MATCH ?
			ORDER BY r LIMIT `+fmt.Sprint(cap)+`) SELECT m.rid FROM hits JOIN memory_meta m ON m.rid = hits.rid
			WHERE `+where+` ORDER BY hits.r LIMIT ?`, append(append([]any{match}, args...), depth))
		if err != nil {
			return 0, err
		}
		n := 0
		if len(out) > before {
			n = len(out[len(out)-1].RIDs)
		}
		if n < depth {
			var total int
			if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+table+` WHERE `+table+` MATCH ? LIMIT `+fmt.Sprint(cap+1)+`)`, match).Scan(&total); err != nil {
				return 0, fmt.Errorf("memory: unable to search (%s): %w", path, err)
			}
			if total > cap {
				out = out[:before]
				err := collect(path, `SELECT m.rid FROM `+table+` JOIN memory_meta m ON m.rid = `+table+`.rowid
					WHERE `+table+` MATCH ? AND `+where+` ORDER BY `+rank+` LIMIT ?`, append(append([]any{match}, args...), depth))
				if err != nil {
					return 0, err
				}
				n = 0
				if len(out) > before {
					n = len(out[len(out)-1].RIDs)
				}
			}
		}
		return n, nil
	}
	found := 0
	if fq := BuildFTSQuery(q, "OR"); fq != "" {
		if found, err = ranked("bm25", "memory_fts", "bm25(memory_fts, 5.0, 1.0, 3.0)", fq); err != nil {
			return nil, err
		}
	}
	// Trigrams rescue substrings ("refer" in "preferences") when the words found little; on
	// a query the word index already answers well they only add cost.
	if tq := TrigramQuery(q); tq != "" && found < substringRescue {
		if _, err := ranked("trigram", "memory_fts_tri", "bm25(memory_fts_tri)", tq); err != nil {
			return nil, err
		}
	}
	var shorts []string
	for _, t := range SplitQuery(q) {
		if t.CJK && utf8.RuneCountInString(t.Text) == 1 {
			shorts = append(shorts, t.Text)
		}
	}
	if len(SplitQuery(q)) == 0 && TrigramQuery(q) == "" && strings.TrimSpace(q) != "" {
		shorts = append(shorts, strings.TrimSpace(q))
	}
	for _, sh := range shorts {
		pat := "%" + escapeLike(sh) + "%"
		if err := collect("substring", `SELECT m.rid FROM memory_meta m WHERE (m.title LIKE ? ESCAPE '\' OR m.body LIKE ? ESCAPE '\')
			AND `+where+` ORDER BY m.updated DESC LIMIT ?`, append(append([]any{pat, pat}, args...), depth)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Search ranks memories for q by reciprocal-rank fusion of the lexical paths.
func (s *Store) Search(ctx context.Context, q string, f Filter) ([]Hit, error) {
	if strings.TrimSpace(q) == "" {
		return nil, nil
	}
	if len(q) > 4096 {
		return nil, codeErr(CodeInvalidQuery, map[string]any{"Max": 4096}, "query is longer than %d bytes", 4096)
	}
	ranks, err := s.LexicalRanks(ctx, q, f, 200)
	if err != nil {
		return nil, err
	}
	fused := FuseRRF(ranks)
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	if len(fused) > limit {
		fused = fused[:limit]
	}
	return s.Hydrate(ctx, fused, q)
}

// Fused is one fused candidate.
type Fused struct {
	RID   int64
	Score float64
	Via   []string
}

// FuseRRF merges ranked lists: score = Σ 1/(k + rank).
func FuseRRF(ranks []LexicalRank) []Fused {
	byRID := map[int64]*Fused{}
	for _, lr := range ranks {
		for i, rid := range lr.RIDs {
			fu := byRID[rid]
			if fu == nil {
				fu = &Fused{RID: rid}
				byRID[rid] = fu
			}
			fu.Score += 1 / (rrfK + float64(i+1))
			fu.Via = append(fu.Via, lr.Path)
		}
	}
	out := make([]Fused, 0, len(byRID))
	for _, fu := range byRID {
		out = append(out, *fu)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].RID < out[j].RID
	})
	return out
}

// Hydrate loads the memories behind fused candidates, keeping their order.
func (s *Store) Hydrate(ctx context.Context, fused []Fused, q string) ([]Hit, error) {
	if len(fused) == 0 {
		return nil, nil
	}
	ph := make([]string, len(fused))
	args := make([]any, len(fused))
	for i, fu := range fused {
		ph[i], args[i] = "?", fu.RID
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+metaColumns+` FROM memory_meta WHERE rid IN (`+strings.Join(ph, ",")+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to load hits: %w", err)
	}
	defer rows.Close()
	byRID := map[int64]*Memory{}
	for rows.Next() {
		m, rid, err := scanMemory(rows)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to scan hit: %w", err)
		}
		byRID[rid] = m
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(fused))
	for _, fu := range fused {
		m := byRID[fu.RID]
		if m == nil {
			continue
		}
		hits = append(hits, Hit{Memory: m, RID: fu.RID, Score: fu.Score, Via: fu.Via, Snippet: Snippet(m.Body, q, 160)})
	}
	return hits, nil
}

// Snippet returns about width characters of body around the first query term it contains.
func Snippet(body, q string, width int) string {
	runes := []rune(strings.Join(strings.Fields(body), " "))
	if len(runes) <= width {
		return string(runes)
	}
	lower := strings.ToLower(string(runes))
	at := -1
	for _, t := range SplitQuery(q) {
		if i := strings.Index(lower, strings.ToLower(t.Text)); i >= 0 {
			at = utf8.RuneCountInString(lower[:i])
			break
		}
	}
	start := 0
	if at > width/3 {
		start = at - width/3
	}
	end := min(start+width, len(runes))
	out := string(runes[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(runes) {
		out += "…"
	}
	return out
}
