package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
)

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
	if err := s.stampHandID(ctx, tx, m); err != nil {
		return err
	}
	from := m.Path
	// Archiving the same slug twice in a year must not overwrite the first archived copy.
	year := s.opts.Now().Format("2006")
	to := ".archive/" + year + "/" + from
	// Only "not there" ends the search: any other answer (.archive is a file, a folder this
	// user cannot search) is an error, not a name taken — the loop spun for ever holding the
	// writer lock of every process on the home.
	for n := 2; ; n++ {
		_, err := os.Lstat(s.abs(to))
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return fmt.Errorf("memory: unable to archive to %s: %w", to, err)
		}
		if n > 10000 {
			return fmt.Errorf("memory: unable to archive %s: every archive name is taken", from)
		}
		to = ".archive/" + year + "-" + strconv.Itoa(n) + "/" + from
	}
	if s.mergeNote != nil {
		if err := s.mergeNote(to, m.Version); err != nil {
			return err
		}
	}
	if err := s.moveAside(from, to, s.batchDirs); err != nil {
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

// opRestore brings back an archived memory, or the newest trashed copy of an id or of a
// slug in its scope (a deleted or rejected memory).
func (s *Store) opRestore(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	m, err := s.target(ctx, tx, it)
	var from string
	inTrash := false
	if errors.Is(err, ErrNotFound) && it.ID == "" && it.Slug != "" {
		m, err = s.archivedBySlug(ctx, tx, it) // target only sees live slugs
		if errors.Is(err, ErrNotFound) {
			if f, tm, terr := s.trashedBySlug(it); terr == nil {
				from, m, err, inTrash = f, tm, nil, true
			} else if !errors.Is(terr, ErrNotFound) {
				err = terr
			}
		}
	}
	switch {
	case inTrash:
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
	if m.Scope == ScopeProject {
		// A project whose memories moved to its identity key takes its deleted ones back there.
		if to := movedTo(ctx, tx, m.ScopeKey()); to != "" {
			m.projectKey = to
		}
	}
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
	detail := map[string]any{"from": from, "to": m.Path}
	// A person bringing back what they rejected (Review's undo) takes the rejection back too:
	// otherwise the extractor would be barred from the slug for days. A model restoring
	// something leaves the person's rejection standing.
	if personActor(b.Actor) {
		res, err := tx.ExecContext(ctx, `DELETE FROM memory_rejections WHERE scope = ? AND scope_key = ? AND slug = ?`,
			string(m.Scope), m.ScopeKey(), m.Slug)
		if err != nil {
			return fmt.Errorf("memory: unable to forget rejection: %w", err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			detail["unrejected"] = true
		}
	}
	s.fillResult(r, m, false)
	s.audit(ctx, tx, b, it, m.ID, "ok", detail)
	return nil
}

// archivedBySlug finds the newest archived memory with the item's slug in its scope instance.
func (s *Store) archivedBySlug(ctx context.Context, x execer, it Item) (*Memory, error) {
	scope := it.Scope
	if scope == "" {
		scope = ScopeGlobal
	}
	_, _, key, err := s.scopeKey(scope, it.Workdir, it.Agent)
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

// findInTrash is the newest trashed copy of the memory with id.
func (s *Store) findInTrash(id string) (string, *Memory, error) {
	from, m, err := s.searchTrash(func(m *Memory) bool { return m.ID == id })
	if err == nil && m == nil {
		err = codeErr(CodeNotInTrash, map[string]any{"Ref": id}, "no trashed copy of %s", id)
	}
	return from, m, err
}

// trashedBySlug is the newest trashed copy of the memory with the item's slug in its scope:
// `engram restore SLUG` after a delete or a reject (a person names memories by slug; the id
// of a trashed memory is nowhere they can see it).
func (s *Store) trashedBySlug(it Item) (string, *Memory, error) {
	scope := it.Scope
	if scope == "" {
		scope = ScopeGlobal
	}
	_, _, key, err := s.scopeKey(scope, it.Workdir, it.Agent)
	if err != nil {
		return "", nil, err
	}
	from, m, err := s.searchTrash(func(m *Memory) bool {
		return m.Slug == it.Slug && m.Scope == scope && m.ScopeKey() == key
	})
	if err == nil && m == nil {
		err = codeErr(CodeNotFound, map[string]any{"Ref": it.Slug}, "no memory %s in %s", it.Slug, scope)
	}
	return from, m, err
}

// searchTrash walks the trash newest first and returns the first copy match accepts, with
// its scope, type, slug and key as its trashed name says (nil, nil when none does).
func (s *Store) searchTrash(match func(*Memory) bool) (string, *Memory, error) {
	entries, err := os.ReadDir(s.abs(".trash"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("memory: unable to read trash: %w", err)
	}
	for i := len(entries) - 1; i >= 0; i-- { // names start with a timestamp: newest last
		name := entries[i].Name()
		if m := s.trashed(name); m != nil && match(m) {
			return ".trash/" + name, m, nil
		}
	}
	return "", nil, nil
}

// trashed reads one trashed file as the memory it was, or nil when it is not one.
func (s *Store) trashed(name string) *Memory {
	orig, ok := trashOrigin(".trash/" + name)
	if !ok {
		return nil
	}
	data, err := os.ReadFile(s.abs(".trash/" + name))
	if err != nil {
		return nil
	}
	m, err := Parse(data)
	if err != nil {
		return nil
	}
	pi, ok := parsePath(orig)
	if !ok {
		// "__" joins path parts in trash names, so an agent name holding "_" may not split
		// back; the store-written frontmatter says the same things.
		if !m.Type.Writable() || !ValidSlug(m.Slug) || !m.Scope.Valid() ||
			(m.Scope == ScopeAgent && !ValidAgent(m.Agent)) || (m.Scope == ScopeProject && m.Workdir == "") {
			return nil
		}
		if m.Scope == ScopeProject {
			// The header names the folder it was written from: its project's key today.
			key, err := s.projects.key(m.Workdir)
			if err != nil {
				return nil
			}
			m.projectKey = key
		}
		return m
	}
	m.Scope, m.Type, m.Slug = pi.scope, pi.typ, pi.slug
	switch pi.scope {
	case ScopeAgent:
		m.Agent = pi.key
	case ScopeProject:
		m.projectKey = pi.key
	}
	return m
}
