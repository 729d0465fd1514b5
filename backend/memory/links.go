package memory

import (
	"context"
	"fmt"
	"sync"

	"engram/backend/text/wikilink"
)

// LinkFrom is where a [[link]] is written: the memory holding it, whose own scope instance
// wins when two memories answer to the same name.
type LinkFrom struct {
	Scope    Scope
	ScopeKey string
}

// LinkedMemory is the memory a [[link]] names: its id, and its title for a link written by
// slug ("[[uses-neovim]]" reads "Uses Neovim").
type LinkedMemory struct {
	ID    string
	Title string
}

// linkAt is where a [[link]] name is looked up: one scope instance and the name folded.
type linkAt struct {
	scope Scope
	key   string
	norm  string
}

// linkHit is the memory answering at one linkAt, and by which of its names (a linkBy).
type linkHit struct {
	row GraphMemoryRow
	by  linkBy
}

// linkBy ranks the names a memory answers to: a slug before a title before an alias.
type linkBy int

const (
	bySlug linkBy = iota
	byTitle
	byAlias
)

// LinkIndex is the one rule by which a [[name]] names a memory, used by the reader
// (ResolveLinks), the graph (GraphData's Links) and a graph rename's check: names compare
// folded as entity names are (wikilink.Norm: case, width, spaces, punctuation), a memory of
// the link's own scope instance answers before a global one and no other scope's ever does,
// a slug beats a title and a title an alias (GraphMemoryRow.Aliases: after an organizer merge
// the links written to a merged-away memory open its keeper instead of falling to an entity),
// and between two memories the older id wins (a memory retitled later
// does not take the links of one that had the name first). The reader compared slugs exactly
// and titles in ASCII case while the graph folded names and read only the link's own scope,
// so after a retitle "[[ＤＥＰＬＯＹ]]" opened one memory in the reader and listed another (or
// an entity) in the graph.
type LinkIndex struct {
	at map[linkAt]linkHit
}

// NewLinkIndex indexes the live memories rows by the names links may give them.
func NewLinkIndex(rows []GraphMemoryRow) *LinkIndex {
	x := &LinkIndex{at: make(map[linkAt]linkHit, 2*len(rows))}
	for _, m := range rows {
		x.offer(linkAt{m.Scope, m.ScopeKey, wikilink.Norm(m.Slug)}, m, bySlug)
		x.offer(linkAt{m.Scope, m.ScopeKey, wikilink.Norm(m.Title)}, m, byTitle)
		for _, a := range m.Aliases {
			x.offer(linkAt{m.Scope, m.ScopeKey, wikilink.Norm(a)}, m, byAlias)
		}
	}
	return x
}

func (x *LinkIndex) offer(k linkAt, m GraphMemoryRow, by linkBy) {
	if k.norm == "" {
		return
	}
	h, ok := x.at[k]
	if !ok || by < h.by || (by == h.by && m.ID < h.row.ID) {
		x.at[k] = linkHit{m, by}
	}
}

// Resolve is the memory [[name]] written in scope instance (scope, key) opens, if any.
func (x *LinkIndex) Resolve(scope Scope, key, name string) (GraphMemoryRow, bool) {
	return x.resolveNorm(scope, key, wikilink.Norm(name))
}

func (x *LinkIndex) resolveNorm(scope Scope, key, norm string) (GraphMemoryRow, bool) {
	if norm == "" {
		return GraphMemoryRow{}, false
	}
	if h, ok := x.at[linkAt{scope, key, norm}]; ok {
		return h.row, true
	}
	if scope != ScopeGlobal {
		if h, ok := x.at[linkAt{ScopeGlobal, "", norm}]; ok {
			return h.row, true
		}
	}
	return GraphMemoryRow{}, false
}

// linkCache keeps the LinkIndex of one graph generation of one index file (every index change
// moves the generation, in any process; a replaced index file starts it again), so the reader does not read every memory's name for each body it renders.
type linkCache struct {
	mu  sync.Mutex
	gen [2]int64 // the index file's replacements (Store.indexGen) and its graph generation
	idx *LinkIndex
}

func (c *linkCache) get(gen [2]int64) *LinkIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.idx != nil && c.gen == gen {
		return c.idx
	}
	return nil
}

func (c *linkCache) put(gen [2]int64, idx *LinkIndex) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Always the last one read: a rebuilt index starts its generation again, and a cache that
	// kept only higher generations would read every name for each body from then on.
	c.gen, c.idx = gen, idx
}

// ResolveLinks maps each [[link]] name to the live memory it names by the rule of LinkIndex,
// the graph's: called when the reader renders a body, so that a link to a memory opens the
// memory the graph lists for that name and any other name stays an entity link. Names that
// match nothing are absent from the map.
func (s *Store) ResolveLinks(ctx context.Context, from LinkFrom, names []string) (map[string]LinkedMemory, error) {
	out := map[string]LinkedMemory{}
	if len(names) == 0 {
		return out, nil
	}
	idx, err := s.linkIndex(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if m, ok := idx.Resolve(from.Scope, from.ScopeKey, n); ok {
			out[n] = LinkedMemory{ID: m.ID, Title: m.Title}
		}
	}
	return out, nil
}

// linkIndex is the LinkIndex of the index as it is now: the cached one while the graph
// generation has not moved, else read from every live memory's slug and title.
func (s *Store) linkIndex(ctx context.Context) (*LinkIndex, error) {
	gen := [2]int64{s.indexGen.Load()} // before the read: a file replaced since misses the cache
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to resolve links: %w", err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT gen FROM graph_state WHERE k = 1`).Scan(&gen[1]); err != nil {
		return nil, fmt.Errorf("memory: unable to resolve links: %w", err)
	}
	if idx := s.links.get(gen); idx != nil {
		return idx, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+graphMemoryColumns+` FROM memory_meta WHERE archived = 0`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to resolve links: %w", err)
	}
	defer rows.Close()
	var all []GraphMemoryRow
	for rows.Next() {
		m, err := scanGraphMemory(rows)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to resolve links: %w", err)
		}
		all = append(all, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to resolve links: %w", err)
	}
	idx := NewLinkIndex(all)
	s.links.put(gen, idx)
	return idx, nil
}
