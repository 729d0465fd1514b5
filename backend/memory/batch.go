package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
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
	// ProjectKey places an imported project memory whose line names no folder under its
	// project key (Record.Project); honoured only for the import actor, never decoded.
	ProjectKey string `json:"-"`

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
	// Subject sets the frontmatter subject (an empty string clears it).
	Subject  *string `json:"subject,omitempty"`
	Source   *Source `json:"source,omitempty"`
	Reviewed *bool   `json:"reviewed,omitempty"`

	ExpectedVersion string `json:"expected_version,omitempty"`
	OverrideReject  bool   `json:"override_reject,omitempty"`
	// AutoDowngraded carries an exported entry's flag back in; honoured only for the import actor.
	AutoDowngraded bool `json:"auto_downgraded,omitempty"`

	// Text is the entry appended by append_daily.
	Text string `json:"text,omitempty"`
	// Reason is why a person rejected the memory (reject only, optional): kept in the audit
	// log, which Activity shows.
	Reason string `json:"reason,omitempty"`

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
	// KeepIDs lets a person's writes carry the ids they name: a memory purged from the trash
	// and brought back from git history (history.RestoreDeleted) comes back as itself, not as
	// a stranger with its text. Never decoded from a caller (json:"-"); ignored for a model.
	KeepIDs bool `json:"-"`

	// accepts counts the batch's accept items: more than one is a bulk accept, which may not
	// vouch for a memory that reads like an instruction to the agent.
	accepts int
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
	resolved := map[string]bool{}
	for _, it := range b.Items {
		if it.Op == OpAccept {
			b.accepts++
		}
		// Each project is resolved before the lock is taken: a workdir seen for the first time
		// may move its memories to its identity key (Projects.Resolve), which takes the lock.
		if it.Scope == ScopeProject && it.Workdir != "" && !resolved[it.Workdir] {
			resolved[it.Workdir] = true
			_, _ = s.projects.Resolve(it.Workdir)
		}
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	// Once the first file is touched the batch runs to its end: cancelling half-way would
	// leave files moved while the index, audit and rejections roll back.
	ctx = context.WithoutCancel(ctx)
	order, deferred := batchOrder(b.Items)
	var changedIDs []string
	err := s.withLock(func() (err error) {
		// A batch that failed below the codes (a full disk, a home gone read-only) may have
		// renamed files whose index rows rolled back: the next batch first brings the index
		// in line, or its version checks would call those files hand edits.
		defer func() {
			if err != nil {
				s.indexBehind = true
			}
		}()
		if err := s.reopenIfIndexReplacedLocked(ctx); err != nil {
			return err
		}
		// A merge another process was killed in the middle of (merge_journal.go): finished or
		// undone before this batch reads the index.
		if s.finishMergesLocked() {
			s.indexBehind = true
		}
		if s.indexBehind {
			if _, err := s.reconcileLocked(ctx, nil); err != nil {
				return err
			}
			s.indexBehind = false
		}
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("memory: unable to begin batch: %w", err)
		}
		defer tx.Rollback()
		s.batchDirs = map[string]bool{}
		s.batchPaths = map[string]bool{}
		defer func() { s.batchDirs, s.batchPaths = nil, nil }()
		groupFailed := map[string]bool{}
		journal, journalled, refused, err := s.planMerges(ctx, tx, &b, deferred)
		if err != nil {
			return fmt.Errorf("memory: unable to write the merge journal: %w", err)
		}
		if journal != nil {
			// Failed part-way (a full disk): the merges are finished or undone now, not left
			// half done until the next batch.
			defer func() {
				if err != nil && s.finishMergesLocked() {
					s.indexBehind = true
				}
			}()
			killPoint("planned")
		}
		run := func(i int) error {
			it := b.Items[i]
			r := ItemResult{Index: i, Op: it.Op}
			// A merge's delete runs only under a journal (planMerges): a group left out of it
			// failed to resolve, and its write fails too.
			if deferred[i] && refused[it.GroupID] == "" && (groupFailed[it.GroupID] || !journalled[it.GroupID]) {
				r.Code, r.Message = CodeGroupFailed, "skipped: another item of group "+it.GroupID+" failed"
				r.Args = map[string]any{"Group": it.GroupID}
				s.audit(ctx, tx, &b, it, it.ID, r.Code, map[string]any{"group": it.GroupID})
				res.Results[i] = r
				return nil
			}
			if _, err := tx.ExecContext(ctx, `SAVEPOINT item`); err != nil {
				return fmt.Errorf("memory: unable to open savepoint: %w", err)
			}
			var err error
			if op := refused[it.GroupID]; op != "" {
				err = codeErr(CodeMergeUnsupported, map[string]any{"Group": it.GroupID, "Op": string(op)},
					"a merge (group %s) may write, update, accept or archive its keeper and delete its sources; %s cannot be undone if the merge is cut off", it.GroupID, op)
			} else {
				if journal != nil {
					s.mergeNote = journal.keeperNote(i)
				}
				err = s.coded(s.applyItem(ctx, tx, &b, it, &r))
				s.mergeNote = nil
			}
			if err != nil {
				if _, rbErr := tx.ExecContext(ctx, `ROLLBACK TO item`); rbErr != nil {
					return fmt.Errorf("memory: unable to roll back item: %w", rbErr)
				}
				r.OK = false
				r.Code = CodeOf(err)
				if r.Code == CodeInternal || r.Code == CodeDiskFull || r.Code == CodeHomeReadOnly || r.Code == CodeIndexReadOnly {
					s.indexBehind = true // its file may have landed before its index rows failed
				}
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
				// The args let Activity translate the refusal ("looks like a secret (AWS key)").
				d := map[string]any{"error": r.Message, "args": r.Args}
				if it.Slug == "" && r.ID == "" && it.Title != nil {
					// A refused write that named no slug would show as a blank row: its
					// title is how the person knows it.
					d["title"] = clip(strings.TrimSpace(*it.Title), MaxTitleChars)
				}
				logged := it
				if r.Code == CodeSecretDetected {
					// The log must not keep what the refusal kept out of the files.
					logged.Slug = RedactKeyLike(it.Slug)
					if t, ok := d["title"].(string); ok {
						d["title"] = RedactKeyLike(t)
					}
				}
				id := r.ID
				if id == "" && it.Op != OpWrite && len(it.ID) <= 64 {
					id = it.ID // a refused edit or delete still names the memory it was for
				}
				s.audit(ctx, tx, &b, logged, id, r.Code, d)
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
		for n, i := range order {
			if err := ctx.Err(); err != nil {
				return err
			}
			if journal != nil && deferred[i] && journal.Phase == mergePhasePlanned {
				// Every keeper is made durable before the first source moves: folders are
				// otherwise synced at the end, and a power cut could keep a source's move
				// to the trash and lose the keeper's rename.
				if err := syncDirs(s.batchDirs); err != nil {
					return fmt.Errorf("memory: unable to sync folders: %w", err)
				}
				clear(s.batchDirs)
				if err := journal.written(groupFailed); err != nil {
					return fmt.Errorf("memory: unable to write the merge journal: %w", err)
				}
				killPoint("deleting")
			}
			if err := run(i); err != nil {
				return err
			}
			if journal != nil {
				killPoint(fmt.Sprintf("item %d", n+1))
			}
		}
		// Every rename of the batch becomes durable before anything is acknowledged.
		if err := syncDirs(s.batchDirs); err != nil {
			return fmt.Errorf("memory: unable to sync folders: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("memory: unable to commit batch: %w", err)
		}
		if journal != nil {
			killPoint("committed")
			journal.remove(s.home)
		}
		// Still under the lock: the history commit of this batch is the next one on the home.
		if len(s.batchPaths) > 0 {
			s.runHook(appliedOf(&b, res.Results, s.batchPaths))
		}
		return nil
	})
	if err != nil {
		return res, s.coded(err)
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
