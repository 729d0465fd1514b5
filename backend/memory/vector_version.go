package memory

import (
	"context"
	"fmt"
)

// The vector version (migration 20). A process with nothing running beside it loads every
// stored vector before its first search: at 100k memories most of a cold `engram search`'s
// time, through SQLite and the driver. The vector index keeps what it loaded beside the index
// (backend/vector's snapshot) and uses it while it is exactly what a load would read now:
// vector_version.v moves to a new random value in the transaction of every change a load
// could see — any change of memory_vec (through its change log, recall_vec_log) and any
// insert, delete, or change of the memory_meta columns a load reads (its id, scope, type,
// archived and reviewed flags, and the version a vector must match). A random value, not a
// counter: a restored copy of the index could come back to a counter's value with other rows.
//
// The memory_meta triggers write to the change log, not to the version directly, so a running
// process's vector index also hears of a memory archived, reviewed or moved to another scope
// (before, only of its vector's own changes).

// vectorTriggers keep vector_version and log memory_meta's changes that a vector load reads.
// A bulk build holds them with the stamps' (holdStampTriggers).
var vectorTriggers = []string{
	`CREATE TRIGGER recall_vec_log_version AFTER INSERT ON recall_vec_log BEGIN UPDATE vector_version SET v = random() WHERE id = 1; END`,
	`CREATE TRIGGER memory_meta_vectors_insert AFTER INSERT ON memory_meta BEGIN INSERT INTO recall_vec_log(rid) VALUES (NEW.rid); END`,
	`CREATE TRIGGER memory_meta_vectors_delete AFTER DELETE ON memory_meta BEGIN INSERT INTO recall_vec_log(rid) VALUES (OLD.rid); END`,
	`CREATE TRIGGER memory_meta_vectors_update AFTER UPDATE OF rid, id, scope, scope_key, type, archived, reviewed, version ON memory_meta BEGIN
  INSERT INTO recall_vec_log(rid) VALUES (OLD.rid);
  INSERT INTO recall_vec_log(rid) SELECT NEW.rid WHERE NEW.rid != OLD.rid;
END`,
}

// VectorVersion is the version the stored vectors are at: it changes in the transaction of
// every change a load of the vectors (ScanVectors) could see.
func (s *Store) VectorVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := s.db.QueryRowContext(ctx, `SELECT v FROM vector_version WHERE id = 1`).Scan(&v); err != nil {
		return 0, fmt.Errorf("memory: unable to read the vector version: %w", err)
	}
	return v, nil
}

// VectorState is what a load of every vector was read at: the vector version and the change
// log's newest sequence number. Known is false for an index without the version (one opened
// read-only as it is, from an older build): its loads cannot be snapshotted.
type VectorState struct {
	Version int64
	Head    int64
	Known   bool
}

// ScanVectorsAt calls fn for every stored vector of model, as ScanVectors does, and returns
// the state read in the same transaction: what was read is the index's at that version.
func (s *Store) ScanVectorsAt(ctx context.Context, model string, fn func(VectorEntry)) (VectorState, error) {
	var st VectorState
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("memory: unable to read vectors: %w", err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE((SELECT MAX(seq) FROM recall_vec_log), 0)`).Scan(&st.Head); err != nil {
		return st, fmt.Errorf("memory: unable to read vector log: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT v FROM vector_version WHERE id = 1`).Scan(&st.Version); err == nil {
		st.Known = true
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
