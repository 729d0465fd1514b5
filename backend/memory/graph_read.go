package memory

import (
	"context"
	"fmt"
)

// GraphEntityRow is one stored entity: a name in one scope instance.
type GraphEntityRow struct {
	ID       int64
	Name     string
	Norm     string
	Scope    Scope
	ScopeKey string
	Workdir  string // the project's folder, when known
}

// GraphMentionRow says memory MemoryRID mentions entity Entity (with its labels, one per line,
// and a kind hint).
type GraphMentionRow struct {
	Entity    int64
	MemoryRID int64
	Label     string
	Kind      string
	Spelling  string // the name as this memory wrote it
}

// GraphRelationRow is one typed relation, stated by memory MemoryRID.
type GraphRelationRow struct {
	ID        int64
	Src, Dst  int64
	Type      string
	MemoryRID int64
}

// GraphMemoryRow is a live memory the graph refers to.
type GraphMemoryRow struct {
	RID      int64
	ID       string
	Slug     string
	Title    string
	Scope    Scope
	ScopeKey string
	// Aliases are the memory's other names — its aliases and the slugs it supersedes — which
	// links reach after its slug and title: an organizer merge files the merged-away memories'
	// titles and slugs there, so the links written to them follow the keeper.
	Aliases []string
}

// graphMemoryColumns are the memory_meta columns scanGraphMemory reads, in its order.
const graphMemoryColumns = `rid, id, slug, title, scope, scope_key, aliases, supersedes`

// scanGraphMemory reads one row of graphMemoryColumns.
func scanGraphMemory(r rowScanner) (GraphMemoryRow, error) {
	var m GraphMemoryRow
	var sc, aliases, sup string
	if err := r.Scan(&m.RID, &m.ID, &m.Slug, &m.Title, &sc, &m.ScopeKey, &aliases, &sup); err != nil {
		return m, err
	}
	m.Scope = Scope(sc)
	var a, b []string
	if aliases != "[]" && aliases != "" {
		unmarshalList(aliases, &a)
	}
	if sup != "[]" && sup != "" {
		unmarshalList(sup, &b)
	}
	if len(a)+len(b) > 0 {
		m.Aliases = append(a, b...)
	}
	return m, nil
}

// GraphLinkRow says entity Entity's name is memory MemoryRID's slug or title in its scope
// instance: `[[that-slug]]` links the two memories.
type GraphLinkRow struct {
	Entity    int64
	MemoryRID int64
}

// GraphData is the whole stored graph at generation Gen, for a reader to cache until the
// generation moves (GraphGen). Memories holds every live memory (what mentions and links name).
type GraphData struct {
	Gen       int64
	Entities  []GraphEntityRow
	Mentions  []GraphMentionRow
	Relations []GraphRelationRow
	Memories  []GraphMemoryRow
	Links     []GraphLinkRow
	// LinkIndex answers which memory a [[name]] names (the rule Links and the reader follow).
	LinkIndex *LinkIndex
}

// GraphGen is the graph's generation: it moves whenever any process changes the graph.
func (s *Store) GraphGen(ctx context.Context) (int64, error) {
	var gen int64
	if err := s.db.QueryRowContext(ctx, `SELECT gen FROM graph_state WHERE k = 1`).Scan(&gen); err != nil {
		return 0, fmt.Errorf("memory: unable to read graph generation: %w", err)
	}
	return gen, nil
}

// GraphData reads the whole graph in one read transaction, so its parts agree.
func (s *Store) GraphData(ctx context.Context) (*GraphData, error) {
	replaced := s.indexGen.Load()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read graph: %w", err)
	}
	defer tx.Rollback()
	d := &GraphData{}
	if err := tx.QueryRowContext(ctx, `SELECT gen FROM graph_state WHERE k = 1`).Scan(&d.Gen); err != nil {
		return nil, fmt.Errorf("memory: unable to read graph generation: %w", err)
	}
	scan := func(q string, fn func(rowScanner) error) error {
		rows, err := tx.QueryContext(ctx, q)
		if err != nil {
			return fmt.Errorf("memory: unable to read graph: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := fn(rows); err != nil {
				return fmt.Errorf("memory: unable to read graph: %w", err)
			}
		}
		return rows.Err()
	}
	steps := []struct {
		q  string
		fn func(rowScanner) error
	}{
		{`SELECT e.id, e.name, e.norm, e.scope, e.scope_key, COALESCE(p.workdir, '') FROM graph_entities e
			LEFT JOIN projects p ON e.scope = 'project' AND p.key = e.scope_key ORDER BY e.id`, func(r rowScanner) error {
			var e GraphEntityRow
			var sc string
			err := r.Scan(&e.ID, &e.Name, &e.Norm, &sc, &e.ScopeKey, &e.Workdir)
			e.Scope = Scope(sc)
			d.Entities = append(d.Entities, e)
			return err
		}},
		{`SELECT entity, memory_rid, label, kind, spelling FROM graph_mentions`, func(r rowScanner) error {
			var m GraphMentionRow
			err := r.Scan(&m.Entity, &m.MemoryRID, &m.Label, &m.Kind, &m.Spelling)
			d.Mentions = append(d.Mentions, m)
			return err
		}},
		{`SELECT id, src, dst, rel, COALESCE(memory_rid, 0) FROM graph_relations ORDER BY id`, func(r rowScanner) error {
			var g GraphRelationRow
			err := r.Scan(&g.ID, &g.Src, &g.Dst, &g.Type, &g.MemoryRID)
			d.Relations = append(d.Relations, g)
			return err
		}},
		{`SELECT ` + graphMemoryColumns + ` FROM memory_meta WHERE archived = 0 ORDER BY rid`, func(r rowScanner) error {
			m, err := scanGraphMemory(r)
			d.Memories = append(d.Memories, m)
			return err
		}},
	}
	for _, st := range steps {
		if err := scan(st.q, st.fn); err != nil {
			return nil, err
		}
	}
	// A link names a memory by its slug or its title, by the rule the reader follows too
	// (LinkIndex): the entity of a name in a project or an agent's scope links the memory of
	// that name there, else the global one; a global entity only a global memory.
	d.LinkIndex = NewLinkIndex(d.Memories)
	s.links.put([2]int64{replaced, d.Gen}, d.LinkIndex)
	for _, e := range d.Entities {
		if m, ok := d.LinkIndex.resolveNorm(e.Scope, e.ScopeKey, e.Norm); ok {
			d.Links = append(d.Links, GraphLinkRow{Entity: e.ID, MemoryRID: m.RID})
		}
	}
	return d, nil
}
