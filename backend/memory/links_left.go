package memory

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"engram/backend/text/wikilink"
)

// WarnLinksLeft is the warning of a rename or retitle that leaves links behind: memories link
// to the memory by its old slug or title and, by the link rule (LinkIndex), no longer open it.
const WarnLinksLeft = "links_left"

// WarnLinksLeftDeleted is WarnLinksLeft of a delete: the links now open nothing of it.
const WarnLinksLeftDeleted = "links_left_deleted"

// linksLeft warns when changing m's slug or title from old to m's own makes [[links]] that
// opened m open something else (an entity, or another memory): a rename or retitle broke every
// link to the memory by its old name without a word, while the graph refuses an entity rename
// that would (graph_names_memory). Counted are the other memories whose links left, among m's
// own scope instance and the global one — and every scope for a person, who sees them all —
// so an agent learns nothing of another project's notes. Nothing is rewritten: the person
// reads the warning and edits those links, or keeps the old name as the title.
//
// A delete (m nil: old goes to the trash) warns the same way of the links it leaves.
func linksLeft(ctx context.Context, x execer, actor string, old, m *Memory) (Warning, bool, error) {
	gone := m == nil
	if gone {
		m = old
	}
	kept := map[string]bool{}
	for _, n := range linkNames(m) {
		kept[wikilink.Norm(n)] = !gone
	}
	lost := map[string]string{} // folded name → as it was written
	for _, n := range linkNames(old) {
		k := wikilink.Norm(n)
		if k != "" && !kept[k] {
			if _, ok := lost[k]; !ok {
				lost[k] = n
			}
		}
	}
	if len(lost) == 0 {
		return Warning{}, false, nil
	}
	rows, err := x.QueryContext(ctx, `SELECT `+graphMemoryColumns+` FROM memory_meta WHERE archived = 0`)
	if err != nil {
		return Warning{}, false, fmt.Errorf("memory: unable to read links: %w", err)
	}
	var before, after []GraphMemoryRow
	for rows.Next() {
		r, err := scanGraphMemory(rows)
		if err != nil {
			rows.Close()
			return Warning{}, false, fmt.Errorf("memory: unable to read links: %w", err)
		}
		if r.ID == m.ID {
			r.Slug, r.Title, r.Aliases = old.Slug, old.Title, otherNames(old)
			before = append(before, r)
			if !gone {
				r.Slug, r.Title, r.Aliases = m.Slug, m.Title, otherNames(m)
				after = append(after, r)
			}
			continue
		}
		before, after = append(before, r), append(after, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Warning{}, false, fmt.Errorf("memory: unable to read links: %w", err)
	}
	was, now := NewLinkIndex(before), NewLinkIndex(after)
	linking := map[string]bool{}
	names := map[string]bool{}
	for k, written := range lost {
		q, err := x.QueryContext(ctx, `SELECT e.scope, e.scope_key, mm.id FROM graph_entities e
			JOIN graph_mentions g ON g.entity = e.id JOIN memory_meta mm ON mm.rid = g.memory_rid
			WHERE e.norm = ? AND mm.archived = 0`, k)
		if err != nil {
			return Warning{}, false, fmt.Errorf("memory: unable to read links: %w", err)
		}
		for q.Next() {
			var sc, key, id string
			if err := q.Scan(&sc, &key, &id); err != nil {
				q.Close()
				return Warning{}, false, fmt.Errorf("memory: unable to read links: %w", err)
			}
			scope := Scope(sc)
			if id == m.ID {
				continue
			}
			if !personActor(actor) && scope != ScopeGlobal && (scope != m.Scope || key != m.ScopeKey()) {
				continue
			}
			b, ok1 := was.resolveNorm(scope, key, k)
			a, ok2 := now.resolveNorm(scope, key, k)
			// A deleted memory's links that now open a memory naming it among its aliases (the
			// keeper of a merge) reach its successor, as the names were filed for.
			successor := gone && ok2 && now.at[linkAt{a.Scope, a.ScopeKey, k}].by == byAlias
			if ok1 && b.ID == m.ID && (!ok2 || a.ID != m.ID) && !successor {
				linking[id], names[written] = true, true
			}
		}
		q.Close()
		if err := q.Err(); err != nil {
			return Warning{}, false, fmt.Errorf("memory: unable to read links: %w", err)
		}
	}
	if len(linking) == 0 {
		return Warning{}, false, nil
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, "[["+n+"]]")
	}
	sort.Strings(list)
	code := WarnLinksLeft
	if gone {
		code = WarnLinksLeftDeleted
	}
	return Warning{Code: code, Args: map[string]any{"Count": len(linking), "Names": strings.Join(list, ", ")}}, true, nil
}

// otherNames are the names besides its slug and title a link reaches m by (its aliases and
// the slugs it supersedes: GraphMemoryRow.Aliases).
func otherNames(m *Memory) []string {
	if len(m.Aliases)+len(m.Supersedes) == 0 {
		return nil
	}
	return append(append([]string{}, m.Aliases...), m.Supersedes...)
}

// linkNames are every name a link reaches m by.
func linkNames(m *Memory) []string {
	return append([]string{m.Slug, m.Title}, otherNames(m)...)
}
