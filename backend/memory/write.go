package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/oklog/ulid/v2"

	"engram/backend/memory/format"
)

func (s *Store) rejected(ctx context.Context, x execer, scope Scope, key, slug string) (bool, error) {
	var n int
	err := x.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_rejections WHERE scope = ? AND scope_key = ? AND slug = ?
		AND expires_at > ?`, string(scope), key, slug, s.rfc(s.opts.Now())).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("memory: unable to check rejections: %w", err)
	}
	return n > 0, nil
}

func (s *Store) opWrite(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	if !it.Scope.Valid() {
		return codeErr(CodeInvalidScope, map[string]any{"Scope": string(it.Scope)}, "invalid scope %q", it.Scope)
	}
	if it.Type == TypeDaily {
		return codeErr(CodeDailyReadOnly, nil, "daily entries are appended with append_daily, not written")
	}
	if !it.Type.Writable() {
		return codeErr(CodeInvalidType, map[string]any{"Type": string(it.Type)}, "invalid type %q", it.Type)
	}
	legacy := ""
	if it.Slug == "" {
		// A write without a slug takes it from its title ("Prefers tea" → prefers-tea, "猫" →
		// 猫): a person writing from the command line or the form need not invent one.
		// Agents' tools and plans still name theirs (they are checked before this).
		title := strings.TrimSpace(deref(it.Title))
		if title == "" {
			return codeErr(CodeMissingTitle, nil, "title is required")
		}
		it.Slug, legacy = format.SlugFromTitle(title), format.LegacySlugFromTitle(title)
	}
	if err := checkNewSlug(it.Slug); err != nil {
		return err
	}
	project := ""
	if b.Actor == ActorImport {
		project = it.ProjectKey
	}
	wd, ag, key, err := s.importScopeKey(it.Scope, it.Workdir, it.Agent, project)
	if err != nil {
		return err
	}
	title, body := strings.TrimSpace(deref(it.Title)), strings.TrimSpace(deref(it.Body))
	if err := validateText(title, body); err != nil {
		return err
	}
	if body == "" {
		return codeErr(CodeMissingBody, nil, "body is required")
	}
	if it.Confidence != "" && !it.Confidence.Valid() {
		return codeErr(CodeInvalidConf, map[string]any{"Confidence": string(it.Confidence)}, "invalid confidence %q", it.Confidence)
	}
	id := ulid.Make().String()
	if it.ID != "" && (b.Actor == ActorImport || (b.KeepIDs && personActor(b.Actor))) {
		u, err := ulid.ParseStrict(it.ID)
		if err != nil {
			return codeErr(CodeParseError, map[string]any{"Detail": "id"}, "id %q is not a ULID", it.ID)
		}
		// A ULID reads the same in either case; stored in Engram's own spelling, a lower-case
		// copy of an id is found as the memory it names instead of becoming a second one.
		id = u.String()
		if _, err := getByID(ctx, tx, id); err == nil {
			return codeErr(CodeAlreadyExists, map[string]any{"Slug": id}, "a memory with id %s already exists", id)
		}
	}
	if legacy != "" {
		// The same title written before Chinese was kept in slugs ("猫" was memory-<hash>):
		// taken, as the same title is, not a second memory under the new slug.
		if _, err := getBySlug(ctx, tx, it.Scope, key, legacy); err == nil {
			return codeErr(CodeAlreadyExists, map[string]any{"Slug": legacy}, "a memory with slug %s already exists; use update", legacy)
		}
	}
	if _, err := getBySlug(ctx, tx, it.Scope, key, it.Slug); err == nil {
		return codeErr(CodeAlreadyExists, map[string]any{"Slug": it.Slug}, "a memory with slug %s already exists; use update", it.Slug)
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if !it.OverrideReject {
		if rej, err := s.rejected(ctx, tx, it.Scope, key, it.Slug); err != nil {
			return err
		} else if rej {
			return codeErr(CodeRejectedSlug, map[string]any{"Slug": it.Slug}, "slug %s was rejected by the user in the last 7 days", it.Slug)
		}
	}
	used, err := usedIn(ctx, tx, it.Scope, key)
	if err != nil {
		return err
	}
	if LadderLevel(s.opts.QuotaLimit-used) == LevelExhausted {
		return codeErr(CodeQuotaExhausted, map[string]any{"Used": used, "Limit": s.opts.QuotaLimit, "Scope": string(it.Scope)},
			"quota exhausted: %d of %d entries used in this scope; archive or delete some first", used, s.opts.QuotaLimit)
	}
	now := s.opts.Now()
	quote := strings.TrimSpace(deref(it.SourceQuote))
	conf, down := ApplyEvidence(it.Confidence, quote)
	m := &Memory{
		ID: id, Slug: it.Slug, Title: title, Scope: it.Scope, Workdir: wd, Agent: ag, Type: it.Type,
		Confidence: conf, AutoDowngraded: down, Reviewed: personActor(b.Actor), SourceQuote: quote,
		Reasoning: strings.TrimSpace(deref(it.Reasoning)), Aliases: cleanList(it.Aliases), Tags: cleanList(it.Tags),
		Supersedes: cleanList(it.Supersedes), ConflictsWith: cleanList(it.ConflictsWith), Subject: strings.TrimSpace(deref(it.Subject)),
		Created: now, Updated: now, Body: body, projectKey: key,
	}
	if it.Reviewed != nil && (!*it.Reviewed || personActor(b.Actor) || b.Actor == ActorImport) {
		m.Reviewed = *it.Reviewed
	}
	if b.Actor == ActorImport && it.AutoDowngraded {
		m.AutoDowngraded = true
	}
	if b.Actor == ActorImport && it.Created != nil && !it.Created.IsZero() {
		m.Created = *it.Created
	}
	if b.Actor == ActorImport && it.Updated != nil && !it.Updated.IsZero() {
		m.Updated = *it.Updated
	}
	if it.Source != nil {
		m.Source = *it.Source
	} else {
		m.Source = Source{Kind: b.Actor, Session: b.Session, Model: b.Model}
	}
	if err := checkMemory(m); err != nil {
		return err
	}
	if RiskOfMemory(m) != nil {
		m.Reviewed = false
		r.Warnings = append(r.Warnings, Warning{Code: WarnRiskyUnreview})
	}
	m.Path = relPath(m.Scope, key, m.Type, m.Slug)
	// A file may sit there unindexed (a hand edit that fails to parse): never overwrite it.
	if err := s.pathFree(ctx, tx, m.Path, m.Slug); err != nil {
		return err
	}
	if err := s.persist(ctx, tx, m); err != nil {
		return err
	}
	s.fillResult(r, m, down)
	// The warning counts the new memories that still fit, not the places left: "Only 5
	// entries left" was followed by the next write refused as the scope being full.
	if h := s.opts.QuotaLimit - used - 1; LadderLevel(h) != LevelNormal {
		code, left := WarnQuotaLow, h-ExhaustedHeadroom
		if left <= 0 {
			code, left = WarnQuotaFull, 0
		}
		r.Warnings = append(r.Warnings, Warning{Code: code, Args: map[string]any{"Headroom": h, "Left": left, "Level": LadderLevel(h)}})
	}
	s.audit(ctx, tx, b, it, m.ID, "ok", map[string]any{"path": m.Path, "confidence": conf, "auto_downgraded": down})
	return nil
}
