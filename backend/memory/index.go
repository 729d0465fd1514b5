package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// execer is what both *sql.DB and *sql.Tx offer.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

const metaColumns = `rid, id, path, slug, title, scope, scope_key, workdir, agent, type, confidence,
	auto_downgraded, reviewed, source_quote, reasoning, aliases, tags, supersedes, conflicts_with,
	source, created, updated, body, archived, version, subject`

func jsonList(v []string) string {
	if len(v) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// upsertRow writes m's index row, its FTS rows and its graph rows, keeping the rowid stable for
// an id so that vectors and graph mentions keyed by rowid stay attached across edits and renames.
func upsertRow(ctx context.Context, x execer, m *Memory, st fileStamp) (int64, error) {
	rid, err := upsertText(ctx, x, m, st, fullTextOf(m))
	if err != nil {
		return 0, err
	}
	return rid, syncGraph(ctx, x, rid, m)
}

// upsertText is upsertRow without the graph rows: a full rebuild writes those after all the
// text (see graphLater), because a graph statement's savepoint makes FTS5 flush the text pending
// in the rebuild's one transaction — once per memory, not once, and most of the graph's cost.
// ft is m's full text (fullTextOf), worked out by the caller.
func upsertText(ctx context.Context, x execer, m *Memory, st fileStamp, ft fullText) (int64, error) {
	var rid int64
	err := x.QueryRowContext(ctx, `SELECT rid FROM memory_meta WHERE id = ?`, m.ID).Scan(&rid)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("memory: unable to look up %s: %w", m.ID, err)
	}
	// A different memory previously indexed at this path (a file replaced by hand) goes first.
	var other int64
	if err := x.QueryRowContext(ctx, `SELECT rid FROM memory_meta WHERE path = ? AND id <> ?`, m.Path, m.ID).Scan(&other); err == nil {
		if err := deleteRowByRID(ctx, x, other); err != nil {
			return 0, err
		}
	}
	return writeText(ctx, x, m, st, ft, rid, true)
}

// insertText is upsertText for a memory the index cannot hold yet: a rebuild's first sight
// of its id, in a pass that emptied the index and visits each path once, so no row has the
// id or the path and no problem is recorded at the path. The three lookups upsertText makes
// were a tenth of a 100k rebuild's writer time and always came back empty.
func insertText(ctx context.Context, x execer, m *Memory, st fileStamp, ft fullText) (int64, error) {
	return writeText(ctx, x, m, st, ft, 0, false)
}

// writeText writes m's row (a new one when rid is 0) and its full-text rows; clearProblem
// drops a problem recorded at its path.
func writeText(ctx context.Context, x execer, m *Memory, st fileStamp, ft fullText, rid int64, clearProblem bool) (int64, error) {
	src, _ := json.Marshal(m.Source)
	args := []any{m.ID, m.Path, m.Slug, m.Title, string(m.Scope), m.ScopeKey(), m.Workdir, m.Agent, string(m.Type),
		string(m.Confidence), m.AutoDowngraded, m.Reviewed, m.SourceQuote, m.Reasoning, jsonList(m.Aliases),
		jsonList(m.Tags), jsonList(m.Supersedes), jsonList(m.ConflictsWith), string(src),
		metaTime(m.Created), metaTime(m.Updated), m.Body, m.Archived,
		m.Version, st.mtime, st.size, st.ctime, st.ino, m.Subject}
	if rid == 0 {
		res, err := x.ExecContext(ctx, `INSERT INTO memory_meta(id, path, slug, title, scope, scope_key, workdir, agent,
			type, confidence, auto_downgraded, reviewed, source_quote, reasoning, aliases, tags, supersedes,
			conflicts_with, source, created, updated, body, archived, version, mtime, size, ctime, ino, subject)
			VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, args...)
		if err != nil {
			return 0, fmt.Errorf("memory: unable to index %s: %w", m.Path, err)
		}
		rid, _ = res.LastInsertId()
	} else {
		if _, err := x.ExecContext(ctx, `UPDATE memory_meta SET id=?, path=?, slug=?, title=?, scope=?, scope_key=?,
			workdir=?, agent=?, type=?, confidence=?, auto_downgraded=?, reviewed=?, source_quote=?, reasoning=?,
			aliases=?, tags=?, supersedes=?, conflicts_with=?, source=?, created=?, updated=?, body=?, archived=?,
			version=?, mtime=?, size=?, ctime=?, ino=?, subject=? WHERE rid = ?`, append(args, rid)...); err != nil {
			return 0, fmt.Errorf("memory: unable to reindex %s: %w", m.Path, err)
		}
		if _, err := x.ExecContext(ctx, `DELETE FROM memory_fts WHERE rowid = ?`, rid); err != nil {
			return 0, fmt.Errorf("memory: unable to clear fts row: %w", err)
		}
		if _, err := x.ExecContext(ctx, `DELETE FROM memory_fts_tri WHERE rowid = ?`, rid); err != nil {
			return 0, fmt.Errorf("memory: unable to clear trigram row: %w", err)
		}
	}
	if err := insertFullText(ctx, x, rid, m, ft); err != nil {
		return 0, err
	}
	if m.Scope == ScopeProject && m.Workdir != "" {
		if _, err := x.ExecContext(ctx, `INSERT INTO projects(key, workdir, first_seen) VALUES(?,?,?)
			ON CONFLICT(key) DO NOTHING`, m.ScopeKey(), m.Workdir, time.Now().UTC().Format(time.RFC3339)); err != nil {
			return 0, fmt.Errorf("memory: unable to record project: %w", err)
		}
	}
	if !clearProblem {
		return rid, nil
	}
	if _, err := x.ExecContext(ctx, `DELETE FROM memory_problems WHERE path = ?`, m.Path); err != nil {
		return 0, fmt.Errorf("memory: unable to clear problem: %w", err)
	}
	return rid, nil
}

func deleteRowByRID(ctx context.Context, x execer, rid int64) error {
	old, err := mentionedEntities(ctx, x, rid)
	if err != nil {
		return err
	}
	for _, q := range []string{
		`DELETE FROM memory_fts WHERE rowid = ?`,
		`DELETE FROM memory_fts_tri WHERE rowid = ?`,
		`DELETE FROM memory_vec WHERE rid = ?`,
		`DELETE FROM graph_mentions WHERE memory_rid = ?`,
		`DELETE FROM graph_relations WHERE memory_rid = ?`,
		`DELETE FROM memory_meta WHERE rid = ?`,
	} {
		if _, err := x.ExecContext(ctx, q, rid); err != nil {
			return fmt.Errorf("memory: unable to remove index row: %w", err)
		}
	}
	if err := dropOrphans(ctx, x, old); err != nil {
		return err
	}
	return bumpGraph(ctx, x)
}

func deleteRowByPath(ctx context.Context, x execer, path string) error {
	var rid int64
	err := x.QueryRowContext(ctx, `SELECT rid FROM memory_meta WHERE path = ?`, path).Scan(&rid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("memory: unable to look up %s: %w", path, err)
	}
	return deleteRowByRID(ctx, x, rid)
}

type rowScanner interface{ Scan(dest ...any) error }

// scanMemory reads one memory_meta row selected with metaColumns.
// unmarshalList decodes a JSON list column; the empty list most rows hold is not parsed (every
// candidate of a search is scanned, and four lists each cost a JSON decode). It gives what
// json.Unmarshal gives: an empty, non-nil list, which encodes as [] and not null.
func unmarshalList(s string, dst *[]string) {
	if s == "[]" {
		*dst = []string{}
		return
	}
	_ = json.Unmarshal([]byte(s), dst)
}

func scanMemory(sc rowScanner) (*Memory, int64, error) {
	var (
		m                                  Memory
		rid                                int64
		scope, key, typ, conf              string
		aliases, tags, sup, conflicts, src string
		created, updated                   metaStamp
	)
	if err := sc.Scan(&rid, &m.ID, &m.Path, &m.Slug, &m.Title, &scope, &key, &m.Workdir, &m.Agent, &typ, &conf,
		&m.AutoDowngraded, &m.Reviewed, &m.SourceQuote, &m.Reasoning, &aliases, &tags, &sup, &conflicts, &src,
		&created, &updated, &m.Body, &m.Archived, &m.Version, &m.Subject); err != nil {
		return nil, 0, err
	}
	m.Scope, m.Type, m.Confidence = Scope(scope), Type(typ), Confidence(conf)
	unmarshalList(aliases, &m.Aliases)
	unmarshalList(tags, &m.Tags)
	unmarshalList(sup, &m.Supersedes)
	unmarshalList(conflicts, &m.ConflictsWith)
	_ = json.Unmarshal([]byte(src), &m.Source)
	m.Created, m.Updated = created.t, updated.t
	if m.Scope == ScopeAgent && m.Agent == "" {
		m.Agent = key
	}
	if m.Scope == ScopeProject {
		m.projectKey = key
	}
	return &m, rid, nil
}

func getByID(ctx context.Context, x execer, id string) (*Memory, error) {
	m, _, err := scanMemory(x.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM memory_meta WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, codeErr(CodeNotFound, map[string]any{"Ref": id}, "no memory with id %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read %s: %w", id, err)
	}
	return m, nil
}

// getBySlug finds the live (not archived) memory with slug in one scope instance.
func getBySlug(ctx context.Context, x execer, scope Scope, key, slug string) (*Memory, error) {
	m, _, err := scanMemory(x.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM memory_meta
		WHERE scope = ? AND scope_key = ? AND slug = ? AND archived = 0 ORDER BY type = 'daily', id LIMIT 1`,
		string(scope), key, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, codeErr(CodeNotFound, map[string]any{"Ref": slug}, "no memory %s in %s", slug, scope)
	}
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read %s: %w", slug, err)
	}
	return m, nil
}
