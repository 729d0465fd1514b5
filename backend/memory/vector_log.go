package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The vector change log, whole (migration 20). A process with nothing running beside it loads
// every stored vector before its first search: at 100k memories most of a cold `engram
// search`'s time, through SQLite and the driver. The vector index keeps what it loaded beside
// the index (backend/vector's snapshot) with the change-log row it was read at, and a later
// process starts from it and applies the rows logged since — which is exact only if every
// change a load could see is a row of the log. So:
//   - memory_vec's triggers log each insert, update and delete (migration 4), and now so do
//     memory_meta's for each insert, delete, and change of a column a load reads (its id,
//     scope, type, archived and reviewed flags, and the version a vector must match): a
//     running process's index also hears of a memory archived, reviewed or moved (before,
//     only of its vector's own changes);
//   - a bulk build, which holds memory_meta's triggers (stamp_snapshot.go), logs one row for
//     the memory VectorLogReload before it commits: load everything again;
//   - each row carries a random tag. A snapshot names its row by sequence number and tag, and
//     is used only when the log still holds that row with that tag: a rebuilt, replaced or
//     restored index (whose log may come back to the same sequence numbers with other changes)
//     does not, nor does a log pruned past it.

// VectorLogReload is the memory id a change-log row names when every vector must be loaded
// again (after a bulk build, whose row changes are not logged one by one). Row ids start at 1.
const VectorLogReload = -1

// vectorTriggers log memory_meta's changes that a vector load reads. A bulk build holds them
// with the stamps' (holdStampTriggers) and logs VectorLogReload instead.
var vectorTriggers = []string{
	`CREATE TRIGGER memory_meta_vectors_insert AFTER INSERT ON memory_meta BEGIN INSERT INTO recall_vec_log(rid, tag) VALUES (NEW.rid, random()); END`,
	`CREATE TRIGGER memory_meta_vectors_delete AFTER DELETE ON memory_meta BEGIN INSERT INTO recall_vec_log(rid, tag) VALUES (OLD.rid, random()); END`,
	`CREATE TRIGGER memory_meta_vectors_update AFTER UPDATE OF rid, id, scope, scope_key, type, archived, reviewed, version ON memory_meta BEGIN
  INSERT INTO recall_vec_log(rid, tag) VALUES (OLD.rid, random());
  INSERT INTO recall_vec_log(rid, tag) SELECT NEW.rid, random() WHERE NEW.rid != OLD.rid;
END`,
}

// logReload is what a bulk build runs in place of the held triggers (releaseStampTriggers).
var logReload = fmt.Sprintf(`INSERT INTO recall_vec_log(rid, tag) VALUES (%d, random())`, VectorLogReload)

// VectorState is the change-log row a load of every vector was read at: its sequence number
// and tag. Known is false for an index whose log has no tags (opened read-only as it is, from
// an older build) or no rows: its loads cannot be snapshotted.
type VectorState struct {
	Head  int64
	Tag   int64
	Known bool
}

// VectorLogTag returns the tag of the change log's row seq; ok is false when the log no
// longer holds it (pruned, or another index's log).
func (s *Store) VectorLogTag(ctx context.Context, seq int64) (tag int64, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT tag FROM recall_vec_log WHERE seq = ?`, seq).Scan(&tag)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("memory: unable to read vector log: %w", err)
	}
	return tag, tag != 0, nil
}

// ScanVectorsAt calls fn for every stored vector of model, as ScanVectors does, and returns
// the change log's newest row read in the same transaction: what was read is the index's as
// of that row.
func (s *Store) ScanVectorsAt(ctx context.Context, model string, fn func(VectorEntry)) (VectorState, error) {
	var st VectorState
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("memory: unable to read vectors: %w", err)
	}
	defer tx.Rollback()
	err = tx.QueryRowContext(ctx, `SELECT seq, tag FROM recall_vec_log ORDER BY seq DESC LIMIT 1`).Scan(&st.Head, &st.Tag)
	switch {
	case err == nil:
		st.Known = st.Tag != 0
	case errors.Is(err, sql.ErrNoRows):
	default: // an older index without tags: read, but not snapshotted
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM recall_vec_log`).Scan(&st.Head); err != nil {
			return VectorState{}, fmt.Errorf("memory: unable to read vector log: %w", err)
		}
	}
	if err := scanVectors(ctx, tx, model, nil, fn); err != nil {
		return VectorState{}, err
	}
	return st, nil
}

// VectorSnapshotPath is where the vector index keeps its snapshot: beside the index, named
// like the index's own files, which the watcher, the restore, the backup and the home's walk
// leave alone.
func (s *Store) VectorSnapshotPath() string { return s.indexPath() + "-vectors" }

// CachePath is where a service above the store keeps a cache of its own (kind names it):
// beside the index and named like it, so the same walks leave it alone; deleting it loses
// nothing.
func (s *Store) CachePath(kind string) string { return s.indexPath() + "-" + kind }
