package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"
)

// Op names an apply_batch operation.
type Op string

// Operations of DESIGN §4.
const (
	OpWrite       Op = "write"
	OpUpdate      Op = "update"
	OpDelete      Op = "delete"
	OpAccept      Op = "accept"
	OpReject      Op = "reject"
	OpAppendDaily Op = "append_daily"
	OpArchive     Op = "archive"
	OpRestore     Op = "restore"
)

// Actors that may appear in the audit log.
const (
	ActorUser      = "user"
	ActorTool      = "tool"
	ActorExtractor = "extractor"
	ActorOrganizer = "organizer"
	ActorReconcile = "reconcile"
	ActorImport    = "import"
	ActorBridge    = "bridge"
)

// personActor reports whether the actor is a person at a screen (the desktop window, the CLI,
// a browser through the bridge): only a person's own writes start out reviewed, and only a
// person (or an import of reviewed data) may mark a memory reviewed by writing it so.
// Agents, the extractor and the organizer ask through the accept op, which is audited.
func personActor(actor string) bool { return actor == ActorUser || actor == ActorBridge }

// Item is one operation. Targets are named by ID, or by Slug within Scope (+Workdir or Agent).
// Pointer fields distinguish "leave as is" from "set to empty" in updates.
type Item struct {
	Op      Op     `json:"op"`
	GroupID string `json:"group_id,omitempty"`

	ID      string `json:"id,omitempty"`
	Slug    string `json:"slug,omitempty"`
	Scope   Scope  `json:"scope,omitempty"`
	Workdir string `json:"workdir,omitempty"`
	Agent   string `json:"agent,omitempty"`

	Type          Type       `json:"type,omitempty"`
	Title         *string    `json:"title,omitempty"`
	Body          *string    `json:"body,omitempty"`
	Mode          string     `json:"mode,omitempty"` // merge | replace (update)
	NewSlug       string     `json:"new_slug,omitempty"`
	Confidence    Confidence `json:"confidence,omitempty"`
	SourceQuote   *string    `json:"source_quote,omitempty"`
	Reasoning     *string    `json:"reasoning,omitempty"`
	Aliases       []string   `json:"aliases,omitempty"`
	Tags          []string   `json:"tags,omitempty"`
	Supersedes    []string   `json:"supersedes,omitempty"`
	ConflictsWith []string   `json:"conflicts_with,omitempty"`
	Source        *Source    `json:"source,omitempty"`
	Reviewed      *bool      `json:"reviewed,omitempty"`

	ExpectedVersion string `json:"expected_version,omitempty"`
	OverrideReject  bool   `json:"override_reject,omitempty"`
	// AutoDowngraded carries an exported entry's flag back in; honoured only for the import actor.
	AutoDowngraded bool `json:"auto_downgraded,omitempty"`

	// Text is the entry appended by append_daily.
	Text string `json:"text,omitempty"`

	// Created and Updated are honoured only for the import actor, which also keeps a given ID.
	Created *time.Time `json:"created,omitempty"`
	Updated *time.Time `json:"updated,omitempty"`
}

// Batch is a list of items applied by one actor.
type Batch struct {
	Items   []Item `json:"items"`
	Actor   string `json:"actor,omitempty"`
	Session string `json:"session,omitempty"`
	Model   string `json:"model,omitempty"`
}

// Warning is a non-fatal note on an item result.
type Warning struct {
	Code string         `json:"code"`
	Args map[string]any `json:"args,omitempty"`
}

// ItemResult is the outcome of one item; one failing item never sinks the others.
type ItemResult struct {
	Index             int            `json:"index"`
	Op                Op             `json:"op"`
	OK                bool           `json:"ok"`
	Code              string         `json:"code,omitempty"`
	Args              map[string]any `json:"args,omitempty"`
	Message           string         `json:"message,omitempty"`
	ID                string         `json:"id,omitempty"`
	Slug              string         `json:"slug,omitempty"`
	Path              string         `json:"path,omitempty"`
	Version           string         `json:"version,omitempty"`
	AppliedConfidence Confidence     `json:"applied_confidence,omitempty"`
	AutoDowngraded    bool           `json:"auto_downgraded"`
	Warnings          []Warning      `json:"warnings,omitempty"`

	touched scopeRef // the scope instance whose quota the item changed
}

// BatchResult holds one result per item, in item order.
type BatchResult struct {
	Results []ItemResult `json:"results"`
	Applied int          `json:"applied"`
	Failed  int          `json:"failed"`
}

// CodeGroupFailed marks a delete skipped because another item of its group failed: deleting
// the source of a merge whose write did not land would lose data.
const CodeGroupFailed = "group_failed"

// ApplyBatch applies every item and returns a result for each. Within a group, merge-writes
// and updates run before deletes, and deletes are skipped if anything else in the group failed.
func (s *Store) ApplyBatch(ctx context.Context, b Batch) (BatchResult, error) {
	if b.Actor == "" {
		b.Actor = ActorUser
	}
	res := BatchResult{Results: make([]ItemResult, len(b.Items))}
	if len(b.Items) > MaxBatchItems {
		return res, codeErr(CodeTooManyItems, map[string]any{"Max": MaxBatchItems}, "a batch holds at most %d items", MaxBatchItems)
	}
	b.Session, b.Model = normalizeName(b.Session), normalizeName(b.Model)
	items := make([]Item, len(b.Items)) // the caller's slice is left as it was
	for i, it := range b.Items {
		items[i] = normalizeItem(it)
	}
	b.Items = items
	if err := ctx.Err(); err != nil {
		return res, err
	}
	// Once the first file is touched the batch runs to its end: cancelling half-way would
	// leave files moved while the index, audit and rejections roll back.
	ctx = context.WithoutCancel(ctx)
	order, deferred := batchOrder(b.Items)
	var changedIDs []string
	err := s.withLock(func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("memory: unable to begin batch: %w", err)
		}
		defer tx.Rollback()
		s.batchDirs = map[string]bool{}
		defer func() { s.batchDirs = nil }()
		groupFailed := map[string]bool{}
		run := func(i int) error {
			it := b.Items[i]
			r := ItemResult{Index: i, Op: it.Op}
			if deferred[i] && groupFailed[it.GroupID] {
				r.Code, r.Message = CodeGroupFailed, "skipped: another item of group "+it.GroupID+" failed"
				r.Args = map[string]any{"Group": it.GroupID}
				s.audit(ctx, tx, &b, it, it.ID, r.Code, map[string]any{"group": it.GroupID})
				res.Results[i] = r
				return nil
			}
			if _, err := tx.ExecContext(ctx, `SAVEPOINT item`); err != nil {
				return fmt.Errorf("memory: unable to open savepoint: %w", err)
			}
			err := s.applyItem(ctx, tx, &b, it, &r)
			if err != nil {
				if _, rbErr := tx.ExecContext(ctx, `ROLLBACK TO item`); rbErr != nil {
					return fmt.Errorf("memory: unable to roll back item: %w", rbErr)
				}
				r.OK = false
				r.Code = CodeOf(err)
				r.Message = err.Error()
				var ce *Error
				if errors.As(err, &ce) {
					r.Args = ce.Args
				} else {
					// An uncoded failure (I/O, SQLite) is translated as "internal", whose
					// message shows Detail: without it people read "<no value>".
					r.Args = map[string]any{"Detail": err.Error()}
				}
				if it.GroupID != "" {
					groupFailed[it.GroupID] = true
				}
				s.audit(ctx, tx, &b, it, r.ID, r.Code, map[string]any{"error": r.Message})
			} else {
				r.OK = true
				if r.ID != "" {
					changedIDs = append(changedIDs, r.ID)
				}
			}
			if _, err := tx.ExecContext(ctx, `RELEASE item`); err != nil {
				return fmt.Errorf("memory: unable to release savepoint: %w", err)
			}
			res.Results[i] = r
			return nil
		}
		for _, i := range order {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := run(i); err != nil {
				return err
			}
		}
		// Every rename of the batch becomes durable before anything is acknowledged.
		if err := syncDirs(s.batchDirs); err != nil {
			return fmt.Errorf("memory: unable to sync folders: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("memory: unable to commit batch: %w", err)
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	for _, r := range res.Results {
		if r.OK {
			res.Applied++
		} else {
			res.Failed++
		}
	}
	touched := map[scopeRef]bool{}
	for _, r := range res.Results {
		if r.OK && r.touched.scope != "" {
			touched[r.touched] = true
		}
	}
	s.changedScopes(ctx, changedIDs, touched)
	return res, nil
}

// normalizeText makes text safe to store as it will be read back: invalid UTF-8 would make the
// whole file unparsable (it would drop out of the index on the next reindex), and CR line ends
// are folded to LF as Parse folds them, so the index row and the file always agree.
func normalizeText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return s
}

// normalizeName is normalizeText for identifiers (source agent, session, model), also trimmed:
// a value of only line breaks would not survive the YAML round trip.
func normalizeName(s string) string { return strings.TrimSpace(normalizeText(s)) }

func normalizePtr(p *string) *string {
	if p == nil {
		return nil
	}
	v := normalizeText(*p)
	return &v
}

func normalizeList(v []string) []string {
	if v == nil {
		return nil
	}
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = normalizeText(s)
	}
	return out
}

// normalizeItem applies normalizeText to every free-text field of an item.
func normalizeItem(it Item) Item {
	it.Title, it.Body = normalizePtr(it.Title), normalizePtr(it.Body)
	it.SourceQuote, it.Reasoning = normalizePtr(it.SourceQuote), normalizePtr(it.Reasoning)
	it.Text = normalizeText(it.Text)
	it.Aliases, it.Tags = normalizeList(it.Aliases), normalizeList(it.Tags)
	it.Supersedes, it.ConflictsWith = normalizeList(it.Supersedes), normalizeList(it.ConflictsWith)
	if it.Source != nil {
		src := *it.Source
		src.Kind, src.Agent = normalizeName(src.Kind), normalizeName(src.Agent)
		src.Session, src.Model = normalizeName(src.Session), normalizeName(src.Model)
		it.Source = &src
	}
	return it
}

// batchOrder runs items in order, except that a delete sharing its group_id with a non-delete
// item waits until every other item has run.
func batchOrder(items []Item) (order []int, deferred map[int]bool) {
	hasWrite := map[string]bool{}
	for _, it := range items {
		if it.GroupID != "" && it.Op != OpDelete {
			hasWrite[it.GroupID] = true
		}
	}
	deferred = map[int]bool{}
	var later []int
	for i, it := range items {
		if it.Op == OpDelete && it.GroupID != "" && hasWrite[it.GroupID] {
			deferred[i] = true
			later = append(later, i)
			continue
		}
		order = append(order, i)
	}
	return append(order, later...), deferred
}

func (s *Store) applyItem(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	switch it.Op {
	case OpWrite:
		return s.opWrite(ctx, tx, b, it, r)
	case OpUpdate:
		return s.opUpdate(ctx, tx, b, it, r)
	case OpDelete:
		return s.opDelete(ctx, tx, b, it, r)
	case OpReject, OpAccept:
		// Reviewing is a person's act: whatever transport carried a model's batch (the agent
		// tool, MCP, extraction), it must not vouch for what it wrote or block a slug for days.
		if !personActor(b.Actor) {
			return codeErr(CodePersonOnly, map[string]any{"Op": string(it.Op)}, "only a person may %s a memory (actor %s)", it.Op, b.Actor)
		}
		if it.Op == OpReject {
			return s.opDelete(ctx, tx, b, it, r)
		}
		return s.opAccept(ctx, tx, b, it, r)
	case OpAppendDaily:
		return s.opAppendDaily(ctx, tx, b, it, r)
	case OpArchive:
		return s.opArchive(ctx, tx, b, it, r)
	case OpRestore:
		return s.opRestore(ctx, tx, b, it, r)
	}
	return codeErr(CodeInvalidOp, map[string]any{"Op": string(it.Op)}, "unknown op %q", it.Op)
}

// scopeKey validates the scope fields of an item and returns the canonical workdir/agent and key.
func scopeKey(scope Scope, workdir, agent string) (wd, ag, key string, err error) {
	switch scope {
	case ScopeGlobal:
		return "", "", "", nil
	case ScopeProject:
		wd, err = CanonicalWorkdir(workdir)
		if err != nil {
			return "", "", "", err
		}
		return wd, "", ProjectKey(wd), nil
	case ScopeAgent:
		if !ValidAgent(agent) {
			return "", "", "", codeErr(CodeInvalidAgent, map[string]any{"Agent": agent}, "invalid agent name %q", agent)
		}
		return "", agent, agent, nil
	}
	return "", "", "", codeErr(CodeInvalidScope, map[string]any{"Scope": string(scope)}, "invalid scope %q", scope)
}

// target finds the memory an item refers to: by id, else by slug within its scope instance.
func (s *Store) target(ctx context.Context, x execer, it Item) (*Memory, error) {
	if it.ID != "" {
		return getByID(ctx, x, it.ID)
	}
	if it.Slug == "" {
		return nil, codeErr(CodeNotFound, map[string]any{"Ref": ""}, "item names neither id nor slug")
	}
	scope := it.Scope
	if scope == "" {
		scope = ScopeGlobal
	}
	_, _, key, err := scopeKey(scope, it.Workdir, it.Agent)
	if err != nil {
		return nil, err
	}
	return getBySlug(ctx, x, scope, key, it.Slug)
}

func validateText(title, body string) error {
	if strings.TrimSpace(title) == "" {
		return codeErr(CodeMissingTitle, nil, "title is required")
	}
	if n := utf8.RuneCountInString(title); n > MaxTitleChars {
		return codeErr(CodeTitleTooLong, map[string]any{"Max": MaxTitleChars, "Len": n}, "title has %d characters, at most %d", n, MaxTitleChars)
	}
	if strings.ContainsAny(title, "\n\r") {
		return codeErr(CodeMissingTitle, nil, "title must be one line")
	}
	if len(body) > MaxBodyBytes {
		return codeErr(CodeBodyTooLarge, map[string]any{"Max": MaxBodyBytes, "Size": len(body)}, "body is %d bytes, at most %d", len(body), MaxBodyBytes)
	}
	return nil
}

func cleanList(v []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range v {
		s = strings.TrimSpace(s)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

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
	if !ValidSlug(it.Slug) {
		return codeErr(CodeInvalidSlug, map[string]any{"Slug": it.Slug}, "invalid slug %q", it.Slug)
	}
	wd, ag, key, err := scopeKey(it.Scope, it.Workdir, it.Agent)
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
	if it.ID != "" && b.Actor == ActorImport {
		if _, err := ulid.ParseStrict(it.ID); err != nil {
			return codeErr(CodeParseError, map[string]any{"Detail": "id"}, "id %q is not a ULID", it.ID)
		}
		if _, err := getByID(ctx, tx, it.ID); err == nil {
			return codeErr(CodeAlreadyExists, map[string]any{"Slug": it.ID}, "a memory with id %s already exists", it.ID)
		}
		id = it.ID
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
		Supersedes: cleanList(it.Supersedes), ConflictsWith: cleanList(it.ConflictsWith),
		Created: now, Updated: now, Body: body,
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
	if isRisky(title, body) {
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
	if h := s.opts.QuotaLimit - used - 1; LadderLevel(h) != LevelNormal {
		r.Warnings = append(r.Warnings, Warning{Code: WarnQuotaLow, Args: map[string]any{"Headroom": h, "Level": LadderLevel(h)}})
	}
	s.audit(ctx, tx, b, it, m.ID, "ok", map[string]any{"path": m.Path, "confidence": conf, "auto_downgraded": down})
	return nil
}

func (s *Store) fillResult(r *ItemResult, m *Memory, down bool) {
	r.ID, r.Slug, r.Path, r.Version = m.ID, m.Slug, m.Path, m.Version
	r.touched = scopeRef{m.Scope, m.ScopeKey()}
	r.AppliedConfidence, r.AutoDowngraded = m.Confidence, down
	if down {
		r.Warnings = append(r.Warnings, Warning{Code: WarnDowngraded, Args: map[string]any{"Confidence": string(m.Confidence)}})
	}
}

// persist renders m, writes its file atomically and indexes it inside tx. m.Version is the
// version the caller checked the file against ("" for a file that must not exist yet); it is
// checked again right before the rename, so an edit landing in between is reported as a
// version conflict instead of being overwritten.
func (s *Store) persist(ctx context.Context, tx *sql.Tx, m *Memory) error {
	data, err := Render(m)
	if err != nil {
		return err
	}
	path := s.abs(m.Path)
	prev, rel, slug := m.Version, m.Path, m.Slug
	check := func() error {
		if s.beforeRename != nil {
			s.beforeRename(path)
		}
		if prev == "" {
			return s.pathFree(ctx, tx, rel, slug)
		}
		cur, err := os.ReadFile(path)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return codeErr(CodeVersionConflict, map[string]any{"Expected": prev, "Actual": ""},
					"memory %s was removed on disk while it was being written", slug)
			}
			return fmt.Errorf("memory: unable to read %s: %w", rel, err)
		}
		if v := Checksum(cur); v != prev {
			return codeErr(CodeVersionConflict, map[string]any{"Expected": prev, "Actual": v},
				"memory %s was edited on disk while it was being written; nothing was overwritten", slug)
		}
		return nil
	}
	if err := s.writeFile(m.Path, data, s.batchDirs, check, prev == ""); err != nil {
		return err
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("memory: unable to stat %s: %w", m.Path, err)
	}
	m.Version = Checksum(data)
	if _, err := upsertRow(ctx, tx, m, stampOf(info)); err != nil {
		return err
	}
	return nil
}

func (s *Store) checkVersion(m *Memory, expected string) error {
	if expected != "" && expected != m.Version {
		return codeErr(CodeVersionConflict, map[string]any{"Expected": expected, "Actual": m.Version},
			"memory %s changed since it was read (expected version %s, now %s)", m.Slug, expected, m.Version)
	}
	return nil
}

// freshTarget loads the target and verifies its file still matches the index; a file edited
// by hand since the last reconcile must not be overwritten with stale index content.
func (s *Store) freshTarget(ctx context.Context, tx *sql.Tx, it Item) (*Memory, error) {
	m, err := s.target(ctx, tx, it)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.abs(m.Path))
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read %s: %w", m.Path, err)
	}
	if v := Checksum(data); v != m.Version {
		return nil, codeErr(CodeVersionConflict, map[string]any{"Expected": m.Version, "Actual": v},
			"memory %s was edited on disk and not yet reindexed; try again", m.Slug)
	}
	return m, nil
}

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
	oldPath := m.Path
	title, body := m.Title, m.Body
	if it.Title != nil {
		title = strings.TrimSpace(*it.Title)
	}
	if it.Body != nil {
		nb := strings.TrimSpace(*it.Body)
		switch {
		case mode == "replace":
			body = nb
		case nb != "" && !strings.Contains(body, nb):
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
		if !ValidSlug(it.NewSlug) {
			return codeErr(CodeInvalidSlug, map[string]any{"Slug": it.NewSlug}, "invalid slug %q", it.NewSlug)
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
	if it.Reviewed != nil && (!*it.Reviewed || personActor(b.Actor) || b.Actor == ActorImport) {
		m.Reviewed = *it.Reviewed
	}
	if err := checkMemory(m); err != nil {
		return err
	}
	if isRisky(title, body) {
		m.Reviewed = false
		r.Warnings = append(r.Warnings, Warning{Code: WarnRiskyUnreview})
	}
	m.Updated = s.opts.Now()
	m.Path = relPath(m.Scope, m.ScopeKey(), m.Type, m.Slug)
	if m.Path != oldPath {
		if err := s.pathFree(ctx, tx, m.Path, m.Slug); err != nil {
			return err
		}
		m.Version = "" // the new path must still be free when the file goes in
	}
	if err := s.persist(ctx, tx, m); err != nil {
		return err
	}
	if m.Path != oldPath {
		if err := s.remove(oldPath); err != nil {
			return err
		}
	}
	s.fillResult(r, m, down)
	s.audit(ctx, tx, b, it, m.ID, "ok", map[string]any{"mode": mode, "path": m.Path, "from": oldPath})
	return nil
}

func (s *Store) opDelete(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	m, err := s.target(ctx, tx, it)
	if err != nil {
		return err
	}
	if err := s.checkVersion(m, it.ExpectedVersion); err != nil {
		return err
	}
	dst := trashName(m.Path, s.opts.Now())
	if err := s.move(m.Path, dst, s.batchDirs); err != nil {
		return err
	}
	if err := deleteRowByPath(ctx, tx, m.Path); err != nil {
		return err
	}
	if it.Op == OpReject {
		now := s.opts.Now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_rejections(scope, scope_key, slug, title, rejected_at, expires_at)
			VALUES(?,?,?,?,?,?) ON CONFLICT(scope, scope_key, slug) DO UPDATE SET title=excluded.title,
			rejected_at=excluded.rejected_at, expires_at=excluded.expires_at`,
			string(m.Scope), m.ScopeKey(), m.Slug, m.Title, s.rfc(now), s.rfc(now.Add(RejectionRemember))); err != nil {
			return fmt.Errorf("memory: unable to remember rejection: %w", err)
		}
	}
	r.ID, r.Slug, r.Path = m.ID, m.Slug, dst
	r.touched = scopeRef{m.Scope, m.ScopeKey()}
	s.audit(ctx, tx, b, it, m.ID, "ok", map[string]any{"trash": dst, "from": m.Path})
	return nil
}

func (s *Store) opAccept(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	m, err := s.freshTarget(ctx, tx, it)
	if err != nil {
		return err
	}
	if err := s.checkVersion(m, it.ExpectedVersion); err != nil {
		return err
	}
	if !m.Reviewed {
		m.Reviewed = true
		m.Updated = s.opts.Now()
		if err := s.persist(ctx, tx, m); err != nil {
			return err
		}
	}
	s.fillResult(r, m, false)
	s.audit(ctx, tx, b, it, m.ID, "ok", nil)
	return nil
}

func (s *Store) opArchive(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	m, err := s.freshTarget(ctx, tx, it)
	if err != nil {
		return err
	}
	if m.Archived {
		s.fillResult(r, m, false)
		return nil
	}
	if m.Type == TypeDaily {
		return codeErr(CodeDailyReadOnly, nil, "journal days are not archived")
	}
	if err := s.checkVersion(m, it.ExpectedVersion); err != nil {
		return err
	}
	from := m.Path
	// Archiving the same slug twice in a year must not overwrite the first archived copy.
	year := s.opts.Now().Format("2006")
	to := ".archive/" + year + "/" + from
	for n := 2; ; n++ {
		if _, err := os.Stat(s.abs(to)); os.IsNotExist(err) {
			break
		}
		to = ".archive/" + year + "-" + strconv.Itoa(n) + "/" + from
	}
	if err := s.move(from, to, s.batchDirs); err != nil {
		return err
	}
	info, err := os.Stat(s.abs(to))
	if err != nil {
		return fmt.Errorf("memory: unable to stat %s: %w", to, err)
	}
	m.Path, m.Archived = to, true
	if _, err := upsertRow(ctx, tx, m, stampOf(info)); err != nil {
		return err
	}
	s.fillResult(r, m, false)
	s.audit(ctx, tx, b, it, m.ID, "ok", map[string]any{"from": from, "to": to})
	return nil
}

// opRestore brings back an archived memory, or the newest trashed copy of an id.
func (s *Store) opRestore(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	m, err := s.target(ctx, tx, it)
	var from string
	if errors.Is(err, ErrNotFound) && it.ID == "" && it.Slug != "" {
		m, err = s.archivedBySlug(ctx, tx, it) // target only sees live slugs
	}
	switch {
	case err == nil && m.Archived:
		from = m.Path
		data, rerr := os.ReadFile(s.abs(from))
		if rerr != nil {
			return fmt.Errorf("memory: unable to read %s: %w", from, rerr)
		}
		if v := Checksum(data); v != m.Version {
			return codeErr(CodeVersionConflict, map[string]any{"Expected": m.Version, "Actual": v},
				"memory %s was edited on disk and not yet reindexed; try again", m.Slug)
		}
	case err == nil:
		return codeErr(CodeNotArchived, map[string]any{"Ref": m.Slug}, "memory %s is neither archived nor deleted", m.Slug)
	case errors.Is(err, ErrNotFound) && it.ID != "":
		from, m, err = s.findInTrash(it.ID)
		if err != nil {
			return err
		}
	default:
		return err
	}
	m.Archived = false
	m.Path = relPath(m.Scope, m.ScopeKey(), m.Type, m.Slug)
	if _, err := getBySlug(ctx, tx, m.Scope, m.ScopeKey(), m.Slug); err == nil {
		return codeErr(CodeAlreadyExists, map[string]any{"Slug": m.Slug}, "a live memory with slug %s exists", m.Slug)
	}
	if err := s.pathFree(ctx, tx, m.Path, m.Slug); err != nil {
		return err
	}
	// Bringing a memory back counts against the quota like a new write: nothing may push a
	// scope past its limit behind the ladder's back.
	if used, err := usedIn(ctx, tx, m.Scope, m.ScopeKey()); err != nil {
		return err
	} else if LadderLevel(s.opts.QuotaLimit-used) == LevelExhausted {
		return codeErr(CodeQuotaExhausted, map[string]any{"Used": used, "Limit": s.opts.QuotaLimit, "Scope": string(m.Scope)},
			"quota exhausted: %d of %d entries used in this scope; archive or delete some first", used, s.opts.QuotaLimit)
	}
	if err := s.move(from, m.Path, s.batchDirs); err != nil {
		return err
	}
	info, err := os.Stat(s.abs(m.Path))
	if err != nil {
		return fmt.Errorf("memory: unable to stat %s: %w", m.Path, err)
	}
	data, err := os.ReadFile(s.abs(m.Path))
	if err != nil {
		return fmt.Errorf("memory: unable to read %s: %w", m.Path, err)
	}
	m.Version = Checksum(data)
	if _, err := upsertRow(ctx, tx, m, stampOf(info)); err != nil {
		return err
	}
	s.fillResult(r, m, false)
	s.audit(ctx, tx, b, it, m.ID, "ok", map[string]any{"from": from, "to": m.Path})
	return nil
}

// archivedBySlug finds the newest archived memory with the item's slug in its scope instance.
func (s *Store) archivedBySlug(ctx context.Context, x execer, it Item) (*Memory, error) {
	scope := it.Scope
	if scope == "" {
		scope = ScopeGlobal
	}
	_, _, key, err := scopeKey(scope, it.Workdir, it.Agent)
	if err != nil {
		return nil, err
	}
	m, _, err := scanMemory(x.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM memory_meta
		WHERE scope = ? AND scope_key = ? AND slug = ? AND archived = 1 ORDER BY updated DESC LIMIT 1`,
		string(scope), key, it.Slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, codeErr(CodeNotFound, map[string]any{"Ref": it.Slug}, "no memory %s in %s", it.Slug, scope)
	}
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read %s: %w", it.Slug, err)
	}
	return m, nil
}

func (s *Store) findInTrash(id string) (string, *Memory, error) {
	entries, err := os.ReadDir(s.abs(".trash"))
	if err != nil {
		return "", nil, fmt.Errorf("memory: unable to read trash: %w", err)
	}
	for i := len(entries) - 1; i >= 0; i-- { // names start with a timestamp: newest last
		name := entries[i].Name()
		orig, ok := trashOrigin(".trash/" + name)
		if !ok {
			continue
		}
		data, err := os.ReadFile(s.abs(".trash/" + name))
		if err != nil {
			continue
		}
		m, err := Parse(data)
		if err != nil || m.ID != id {
			continue
		}
		pi, ok := parsePath(orig)
		if !ok {
			// "__" joins path parts in trash names, so an agent name holding "_" may not split
			// back; the store-written frontmatter says the same things.
			if !m.Type.Writable() || !ValidSlug(m.Slug) || !m.Scope.Valid() ||
				(m.Scope == ScopeAgent && !ValidAgent(m.Agent)) || (m.Scope == ScopeProject && m.Workdir == "") {
				continue
			}
			return ".trash/" + name, m, nil
		}
		m.Scope, m.Type, m.Slug = pi.scope, pi.typ, pi.slug
		switch pi.scope {
		case ScopeAgent:
			m.Agent = pi.key
		case ScopeProject:
			m.projectKey = pi.key
		}
		return ".trash/" + name, m, nil
	}
	return "", nil, codeErr(CodeNotInTrash, map[string]any{"Ref": id}, "no trashed copy of %s", id)
}

// audit records one op; failures to audit are logged, never allowed to undo a write.
func (s *Store) audit(ctx context.Context, x execer, b *Batch, it Item, id, result string, detail map[string]any) {
	slug, scope, key := it.Slug, it.Scope, ""
	if id != "" {
		if m, err := getByID(ctx, x, id); err == nil {
			slug, scope, key = m.Slug, m.Scope, m.ScopeKey()
		}
	}
	d, _ := json.Marshal(detail)
	if detail == nil {
		d = []byte("{}")
	}
	if _, err := x.ExecContext(ctx, `INSERT INTO memory_audit_log(ts, op, actor, memory_id, slug, scope, scope_key,
		session, model, result, detail) VALUES(?,?,?,?,?,?,?,?,?,?,?)`, s.rfc(s.opts.Now()), string(it.Op), b.Actor, id,
		slug, string(scope), key, b.Session, b.Model, result, string(d)); err != nil {
		s.log.Error("memory: unable to write audit row", "err", err)
	}
}
