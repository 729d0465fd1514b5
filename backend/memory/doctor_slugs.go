package memory

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"engram/backend/memory/format"
)

// sharedSlugFindings names the live memories of one scope instance that share a slug from two
// type folders (global/user/tea.md beside global/reference/tea.md: a file copied or placed by
// hand, or two machines' writes met by a sync). Both are indexed, but `engram show tea`, an
// update or delete by slug and every [[tea]] link reach one of them only, and an export
// imported elsewhere kept one and called the other a conflict — nothing said so. One finding
// per slug, on the file the slug does not reach, with the mv that gives it a free slug.
func (s *Store) sharedSlugFindings(ctx context.Context) ([]Finding, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT scope, scope_key, slug, path FROM memory_meta
		WHERE archived = 0 AND type <> 'daily' AND (scope, scope_key, slug) IN (
			SELECT scope, scope_key, slug FROM memory_meta WHERE archived = 0 AND type <> 'daily'
			GROUP BY scope, scope_key, slug HAVING COUNT(*) > 1)
		ORDER BY scope, scope_key, slug, path`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to find shared slugs: %w", err)
	}
	type group struct {
		scope     Scope
		key, slug string
		paths     []string
	}
	var groups []*group
	for rows.Next() {
		var sc, key, slug, p string
		if err := rows.Scan(&sc, &key, &slug, &p); err != nil {
			rows.Close()
			return nil, fmt.Errorf("memory: unable to find shared slugs: %w", err)
		}
		if n := len(groups); n == 0 || groups[n-1].scope != Scope(sc) || groups[n-1].key != key || groups[n-1].slug != slug {
			groups = append(groups, &group{scope: Scope(sc), key: key, slug: slug})
		}
		g := groups[len(groups)-1]
		g.paths = append(g.paths, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to find shared slugs: %w", err)
	}
	var out []Finding
	for _, g := range groups {
		reached, err := getBySlug(ctx, s.db, g.scope, g.key, g.slug)
		if err != nil {
			return nil, err
		}
		for _, p := range g.paths {
			if p == reached.Path {
				continue
			}
			free, err := s.freeSlug(ctx, g.scope, g.key, g.slug)
			if err != nil {
				return nil, err
			}
			abs := s.abs(p)
			out = append(out, Finding{Code: "slug_shared", Path: p,
				Args: map[string]any{"Path": p, "Slug": g.slug, "Other": reached.Path},
				Fix:  "mv " + shellQuote(abs) + " " + shellQuote(filepath.Join(filepath.Dir(abs), free+".md")) + " && " + FixReindex})
		}
	}
	return out, nil
}

// freeSlug is slug with the first "-N" (N from 2) no live memory of the scope instance holds.
func (s *Store) freeSlug(ctx context.Context, scope Scope, key, slug string) (string, error) {
	for n := 2; ; n++ {
		suffix := "-" + strconv.Itoa(n)
		cand := format.CutSlug(slug, 64-len(suffix)) + suffix
		if _, err := getBySlug(ctx, s.db, scope, key, cand); err != nil {
			if CodeOf(err) == CodeNotFound {
				return cand, nil
			}
			return "", err
		}
	}
}

// badSlugFix is doctor's fix for a file whose name is no slug: the mv to the slug its name
// makes (format.SlugFromTitle: "Upper-Case.md" → upper-case.md, "咖啡café.md" →
// 咖啡caf-<hash>.md) when no file and no memory of its scope has it, else to SLUG.md for the
// person to name. It printed SLUG.md always, leaving the person to work out the rule.
func (s *Store) badSlugFix(ctx context.Context, rel string) string {
	abs := s.abs(rel)
	to := filepath.Join(filepath.Dir(abs), "SLUG.md")
	name := format.SlugFromTitle(strings.TrimSuffix(path.Base(rel), ".md"))
	cand := path.Join(path.Dir(rel), name+".md")
	if pi, ok := parsePath(cand); ok && !pi.archived && !format.ReservedSlug(name) && !fileExists(s.abs(cand)) {
		if _, err := getBySlug(ctx, s.db, pi.scope, pi.key, name); CodeOf(err) == CodeNotFound {
			to = s.abs(cand)
		}
	}
	return "mv " + shellQuote(abs) + " " + shellQuote(to) + " && " + FixReindex
}
