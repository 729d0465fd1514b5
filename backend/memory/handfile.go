package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

	"github.com/oklog/ulid/v2"
)

// Hand-placed files never pass through apply_batch, so the checks a write gets are applied
// when they are indexed. The file is the person's: it is reported, never rewritten.
//   - a secret, or a body over the limit: reported as a problem and not indexed (indexing it
//     would hand the secret or the oversized text to every agent that reads memories);
//   - text that tries to steer an agent: indexed, but unreviewed in the index (see indexFile);
//   - an id that is not a ULID, an agent folder that breaks the agent-name rule, a project
//     folder that is not a project key: reported, not indexed.

// folderProblem checks what the location says: agent folder names follow the rule agents
// are written under, project folders are project keys.
func folderProblem(pi pathInfo) (code, detail string) {
	switch pi.scope {
	case ScopeAgent:
		if !ValidAgent(pi.key) {
			return ProblemInvalidAgent, clip(pi.key, 80)
		}
	case ScopeProject:
		if !ValidProjectKey(pi.key) {
			return ProblemUnrecognized, "project folder " + clip(pi.key, 80) + " is not a project key (16 hex digits)"
		}
	}
	return "", ""
}

// handProblem checks a parsed file's content; size is the whole file's length.
func handProblem(m *Memory, pi pathInfo, size int) (code, detail string) {
	if _, err := ulid.ParseStrict(m.ID); err != nil {
		return ProblemInvalidID, clip(m.ID, 80)
	}
	// The same scan as a write: every field, after the zero-width and fullwidth clean-up.
	if kind, field := scanFields(memoryFields(m)...); kind != "" {
		return ProblemHandSecret, kind + " (" + field + ")"
	}
	if pi.typ == TypeDaily {
		if size > MaxDailyBytes {
			return ProblemHandBodyLarge, fmt.Sprintf("%d bytes, at most %d", size, MaxDailyBytes)
		}
	} else if len(m.Body) > MaxBodyBytes {
		return ProblemHandBodyLarge, fmt.Sprintf("%d bytes, at most %d", len(m.Body), MaxBodyBytes)
	}
	return "", ""
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// claimID settles an id carried by two files (a copied file). The file already indexed under
// it keeps it, so a copy never takes a memory over; on a full rebuild, where the walk's order
// decides who is indexed first, the file the old index held keeps it, and when the old index
// knew neither (it was lost), the earlier `created` wins, then the earlier path. The other
// file is reported as a duplicate and not indexed. dup reports that d lost.
func (s *Store) claimID(ctx context.Context, tx execer, m *Memory, d diskFile, rep *ReconcileReport) (dup bool, err error) {
	var holder string
	var created metaStamp
	var st fileStamp
	err = tx.QueryRowContext(ctx, `SELECT path, created, mtime, size, ctime, ino FROM memory_meta WHERE id = ? AND path <> ?`,
		m.ID, d.rel).Scan(&holder, &created, &st.mtime, &st.size, &st.ctime, &st.ino)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("memory: unable to look up id %s: %w", m.ID, err)
	}
	if _, err := os.Lstat(s.abs(holder)); err != nil {
		return false, nil // the holder's file is gone: a rename, the row moves with the id
	}
	if rep.wiping && rep.prior.winsRebuild(m, d.rel, holder, metaTime(created.t)) {
		if err := s.recordProblem(ctx, tx, diskFile{rel: holder, st: st}, ProblemDuplicateID,
			"id "+m.ID+" is already used by "+d.rel, rep); err != nil {
			return false, err
		}
		rep.Added--
		return false, nil
	}
	return true, s.recordProblem(ctx, tx, d, ProblemDuplicateID, "id "+m.ID+" is already used by "+holder, rep)
}

// priorIndex is what the index knew before a rebuild wiped it.
type priorIndex struct {
	// vouched holds the versions it had as reviewed: a person accepted that exact content, so
	// a rebuild keeps it reviewed even when its text looks risky.
	vouched map[string]bool
	// holders maps each id to the path that held it.
	holders map[string]string
}

// winsRebuild reports whether the file at rel, carrying m.ID, should take the id from holder
// (created: the holder's `created`, in index form).
func (p priorIndex) winsRebuild(m *Memory, rel, holder string, created int64) bool {
	switch p.holders[m.ID] {
	case rel:
		return true
	case holder:
		return false
	}
	return metaTime(m.Created) < created
}

func readPriorIndex(ctx context.Context, tx *sql.Tx) (priorIndex, error) {
	p := priorIndex{vouched: map[string]bool{}, holders: map[string]string{}}
	rows, err := tx.QueryContext(ctx, `SELECT id, path, version, reviewed FROM memory_meta`)
	if err != nil {
		return p, fmt.Errorf("memory: unable to read the index before rebuilding: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, path, version string
		var reviewed bool
		if err := rows.Scan(&id, &path, &version, &reviewed); err != nil {
			return p, fmt.Errorf("memory: unable to read the index before rebuilding: %w", err)
		}
		p.holders[id] = path
		if reviewed {
			p.vouched[version] = true
		}
	}
	return p, rows.Err()
}
