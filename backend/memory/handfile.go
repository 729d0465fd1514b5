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
func folderProblem(pi pathInfo) (string, fault) {
	switch pi.scope {
	case ScopeAgent:
		if !ValidAgent(pi.key) {
			return ProblemInvalidAgent, fault{text: clip(pi.key, 80)}
		}
	case ScopeProject:
		if !ValidProjectKey(pi.key) {
			return ProblemUnrecognized, fault{text: "project folder " + clip(pi.key, 80) + " is not a project key (16 hex digits)"}
		}
	}
	return "", fault{}
}

// handProblem checks a parsed file's content; size is the whole file's length.
func handProblem(m *Memory, pi pathInfo, size int) (string, fault) {
	if _, err := ulid.ParseStrict(m.ID); err != nil {
		return ProblemInvalidID, fault{text: clip(m.ID, 80)}
	}
	// The same scan as a write: every field, after the zero-width and fullwidth clean-up.
	if kind, field := scanFields(memoryFields(m)...); kind != "" {
		// Translated like the other reasons: it went into a Chinese message in English.
		return ProblemHandSecret, newFault("detail.hand_secret", map[string]any{"Kind": kind, "Field": field}, "%s (%s)", kind, field)
	}
	if pi.typ == TypeDaily {
		if size > MaxDailyBytes {
			return ProblemHandBodyLarge, bytesOver(size, MaxDailyBytes)
		}
	} else if len(m.Body) > MaxBodyBytes {
		return ProblemHandBodyLarge, bytesOver(len(m.Body), MaxBodyBytes)
	}
	return "", fault{}
}

// bytesOver is a hand file's text over its limit.
func bytesOver(size, max int) fault {
	return newFault("detail.bytes_over", map[string]any{"Size": size, "Max": max}, "%d bytes, at most %d", size, max)
}

// idUsedBy is a file whose id another file holds.
func idUsedBy(id, holder string) fault {
	return newFault("detail.id_used_by", map[string]any{"ID": id, "Holder": holder}, "id %s is already used by %s", id, holder)
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
		if err := s.recordProblem(ctx, tx, diskFile{rel: holder, st: st}, ProblemDuplicateID, idUsedBy(m.ID, d.rel), rep); err != nil {
			return false, err
		}
		rep.Added--
		return false, nil
	}
	return true, s.recordProblem(ctx, tx, d, ProblemDuplicateID, idUsedBy(m.ID, holder), rep)
}

// priorIndex is what the index knew before a rebuild wiped it.
type priorIndex struct {
	// vouched holds the versions it had as reviewed: a person accepted that exact content, so
	// a rebuild keeps it reviewed even when its text looks risky.
	vouched map[string]bool
	// holders maps each id to the path that held it; ids the other way.
	holders, ids map[string]string
	// lost holds the paths reported as having lost their id (ProblemLostID).
	lost map[string]bool
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
	p := priorIndex{vouched: map[string]bool{}, holders: map[string]string{}, ids: map[string]string{}, lost: map[string]bool{}}
	lost, err := tx.QueryContext(ctx, `SELECT path FROM memory_problems WHERE code = ?`, ProblemLostID)
	if err != nil {
		return p, fmt.Errorf("memory: unable to read the index before rebuilding: %w", err)
	}
	for lost.Next() {
		var path string
		if err := lost.Scan(&path); err != nil {
			lost.Close()
			return p, fmt.Errorf("memory: unable to read the index before rebuilding: %w", err)
		}
		p.lost[path] = true
	}
	lost.Close()
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
		p.holders[id], p.ids[path] = path, id
		if reviewed {
			p.vouched[version] = true
		}
	}
	return p, rows.Err()
}

// lostID reports whether the memory indexed at rel has another id than id, the one parseHand
// made from the path of a file that names none: the file was indexed under its own id and has
// since lost its header or its id line (a slip in an editor). Such a file is reported as
// before, rather than indexed as a new memory in the old one's place, whose id, history and
// links the person would not see go.
// It stays so while the file is edited without its id (the path then holds a lost_id problem,
// no row), until the id is back.
func (s *Store) lostID(ctx context.Context, tx execer, rel, id string, rep *ReconcileReport) bool {
	if rep.wiping {
		// A rebuild emptied both tables first: what they said is in prior.
		had, ok := rep.prior.ids[rel]
		return ok && had != id || rep.prior.lost[rel]
	}
	var had string
	if err := tx.QueryRowContext(ctx, `SELECT id FROM memory_meta WHERE path = ?`, rel).Scan(&had); err == nil {
		return had != id
	}
	var n int
	_ = tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_problems WHERE path = ? AND code = ?`, rel, ProblemLostID).Scan(&n)
	return n > 0
}

// stampHandID writes the header, with its id, into the file of a memory indexed under the id
// of its path (a hand-written note without one, parseHand) before the file is moved: an
// archived or trashed copy must carry the id it had, or a rebuild would read it under the id
// of its new path (and report it as having lost one) and a restore from the trash would not
// find it. A file edited since it was indexed is moved as it is.
func (s *Store) stampHandID(ctx context.Context, tx *sql.Tx, m *Memory) error {
	if m.Archived || m.ID != handID(m.Path) {
		return nil
	}
	data, err := readNoFollow(s.abs(m.Path))
	if err != nil || Checksum(data) != m.Version {
		return nil
	}
	if _, err := Parse(data); err == nil {
		return nil // the file names its id already
	}
	return s.persist(ctx, tx, m)
}
