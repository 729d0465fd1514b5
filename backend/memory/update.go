package memory

import (
	"context"
	"database/sql"
	"slices"
	"strings"
)

func (s *Store) opUpdate(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	m, err := s.freshTarget(ctx, tx, it)
	if err != nil {
		return err
	}
	if m.Type == TypeDaily {
		return codeErr(CodeDailyReadOnly, nil, "daily entries are appended with append_daily, not updated")
	}
	if m.Archived {
		return codeErr(CodeNotFound, map[string]any{"Ref": m.Slug}, "memory %s is archived; restore it first", m.Slug)
	}
	if err := s.checkVersion(m, it.ExpectedVersion); err != nil {
		return err
	}
	mode := it.Mode
	if mode == "" {
		mode = "merge"
	}
	if mode != "merge" && mode != "replace" {
		return codeErr(CodeInvalidMode, map[string]any{"Mode": mode}, "invalid mode %q", mode)
	}
	oldPath, wasReviewed := m.Path, m.Reviewed
	named := &Memory{Slug: m.Slug, Title: m.Title, Aliases: m.Aliases, Supersedes: m.Supersedes}
	title, body := m.Title, m.Body
	if it.Title != nil {
		title = strings.TrimSpace(*it.Title)
	}
	if it.Body != nil {
		nb := strings.TrimSpace(*it.Body)
		switch {
		case mode == "replace":
			body = nb
		case nb != "" && !BodyHolds(body, nb):
			body = strings.TrimRight(body, "\n") + "\n\n" + nb
		}
	}
	if err := validateText(title, body); err != nil {
		return err
	}
	if strings.TrimSpace(body) == "" {
		return codeErr(CodeMissingBody, nil, "body is required")
	}
	if it.Type != "" && it.Type != m.Type {
		if !it.Type.Writable() {
			return codeErr(CodeInvalidType, map[string]any{"Type": string(it.Type)}, "invalid type %q", it.Type)
		}
		m.Type = it.Type
	}
	if it.NewSlug != "" && it.NewSlug != m.Slug {
		if err := checkNewSlug(it.NewSlug); err != nil {
			return err
		}
		if _, err := getBySlug(ctx, tx, m.Scope, m.ScopeKey(), it.NewSlug); err == nil {
			return codeErr(CodeAlreadyExists, map[string]any{"Slug": it.NewSlug}, "a memory with slug %s already exists", it.NewSlug)
		}
		m.Slug = it.NewSlug
	}
	if it.Confidence != "" && !it.Confidence.Valid() {
		return codeErr(CodeInvalidConf, map[string]any{"Confidence": string(it.Confidence)}, "invalid confidence %q", it.Confidence)
	}
	quote := m.SourceQuote
	if it.SourceQuote != nil {
		quote = strings.TrimSpace(*it.SourceQuote)
	}
	reasoning := m.Reasoning
	if it.Reasoning != nil {
		reasoning = strings.TrimSpace(*it.Reasoning)
	}
	down := false
	if it.Confidence != "" || it.SourceQuote != nil {
		requested := it.Confidence
		if requested == "" {
			requested = m.Confidence
			if m.AutoDowngraded {
				requested = ConfidenceHigh
			}
		}
		m.Confidence, down = ApplyEvidence(requested, quote)
		m.AutoDowngraded = down
	}
	m.Title, m.Body, m.SourceQuote, m.Reasoning = title, body, quote, reasoning
	merge := func(old, add []string) []string {
		if mode == "replace" {
			return cleanList(add)
		}
		return cleanList(append(old, add...))
	}
	if it.Aliases != nil {
		m.Aliases = merge(m.Aliases, it.Aliases)
	}
	if it.Tags != nil {
		m.Tags = merge(m.Tags, it.Tags)
	}
	if it.Supersedes != nil {
		m.Supersedes = merge(m.Supersedes, it.Supersedes)
	}
	if it.ConflictsWith != nil {
		m.ConflictsWith = merge(m.ConflictsWith, it.ConflictsWith)
	}
	if it.Source != nil {
		m.Source = *it.Source
	}
	if it.Subject != nil {
		m.Subject = strings.TrimSpace(*it.Subject)
	}
	if it.Reviewed != nil && (!*it.Reviewed || personActor(b.Actor) || b.Actor == ActorImport) {
		m.Reviewed = *it.Reviewed
	}
	if err := checkMemory(m); err != nil {
		return err
	}
	if RiskOfMemory(m) != nil {
		m.Reviewed = false
		r.Warnings = append(r.Warnings, Warning{Code: WarnRiskyUnreview})
	}
	if m.Slug != named.Slug || m.Title != named.Title || !slices.Equal(otherNames(m), otherNames(named)) {
		// Read before the index holds the new names: which links opened it until now.
		w, left, err := linksLeft(ctx, tx, b.Actor, named, m)
		if err != nil {
			return err
		}
		if left {
			r.Warnings = append(r.Warnings, w)
		}
	}
	m.Updated = s.opts.Now()
	m.Path = relPath(m.Scope, m.ScopeKey(), m.Type, m.Slug)
	var fromPath, fromVersion string
	if m.Path != oldPath {
		if err := s.pathFree(ctx, tx, m.Path, m.Slug); err != nil {
			return err
		}
		// The new path must still be free when the file goes in, and the old file (removed
		// below) still as it was read.
		fromPath, fromVersion, m.Version = oldPath, m.Version, ""
	}
	if err := s.persistFrom(ctx, tx, m, fromPath, fromVersion); err != nil {
		return err
	}
	if m.Path != oldPath {
		if err := s.removeOld(oldPath, fromVersion); err != nil {
			return err
		}
	}
	s.fillResult(r, m, down)
	detail := map[string]any{"mode": mode, "path": m.Path, "from": oldPath}
	if wasReviewed && !m.Reviewed {
		// Activity names this row for what it did (an accept taken back, a memory sent back
		// to review), not as an ordinary edit.
		detail["unreviewed"] = true
	}
	s.audit(ctx, tx, b, it, m.ID, "ok", detail)
	return nil
}
