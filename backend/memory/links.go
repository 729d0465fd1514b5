package memory

import (
	"context"
	"fmt"
	"strings"
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

// ResolveLinks maps each [[link]] name to the id of the live memory it names: by slug, else
// by title (ASCII case ignored). Called when the reader renders a body, so that a link to a
// memory opens it and any other name stays an entity link for the graph. Only a memory in
// from's own scope instance or a global one answers, the own first, and a slug match beats a
// title match; names that match nothing are absent from the map. A memory of another project
// or agent answered too, so a global memory's [[deploy]] opened project B's memory, where the
// graph (which reads a link within its own scope and the global one) showed an entity.
func (s *Store) ResolveLinks(ctx context.Context, from LinkFrom, names []string) (map[string]LinkedMemory, error) {
	out := map[string]LinkedMemory{}
	if len(names) == 0 {
		return out, nil
	}
	seen := map[string]bool{}
	var args []any
	var lowers []any
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		args = append(args, n)
		lowers = append(lowers, strings.ToLower(n))
	}
	if len(args) == 0 {
		return out, nil
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(args)), ",")
	q := `SELECT id, slug, title, scope, scope_key FROM memory_meta
		WHERE archived = 0 AND (slug IN (` + ph + `) OR title IN (` + ph + `) OR lower(title) IN (` + ph + `))
		ORDER BY updated DESC`
	all := append(append(append([]any{}, args...), args...), lowers...)
	rows, err := s.db.QueryContext(ctx, q, all...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to resolve links: %w", err)
	}
	defer rows.Close()
	best := map[string]int{}
	for rows.Next() {
		var id, slug, title, scope, key string
		if err := rows.Scan(&id, &slug, &title, &scope, &key); err != nil {
			return nil, fmt.Errorf("memory: unable to resolve links: %w", err)
		}
		place := 0
		switch {
		case Scope(scope) == from.Scope && key == from.ScopeKey:
			place = 3
		case Scope(scope) == ScopeGlobal:
			place = 2
		default:
			continue // another project's or agent's memory
		}
		for n := range seen {
			rank := 0
			switch {
			case slug == n:
				rank = place*10 + 2
			case title == n || strings.EqualFold(title, n):
				rank = place*10 + 1
			}
			if rank > best[n] {
				best[n] = rank
				out[n] = LinkedMemory{ID: id, Title: title}
			}
		}
	}
	return out, rows.Err()
}
