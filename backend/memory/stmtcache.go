package memory

import (
	"context"
	"database/sql"
)

// stmtCache runs a transaction's statements, preparing each distinct one once and keeping it
// until the transaction ends. A reconcile indexes every file with the same dozen statements;
// preparing them anew for every memory was 12% of a cold build's CPU at 100k memories. It is
// an execer, so the code that writes rows does not know whether it is used.
type stmtCache struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

// stmtCacheMax bounds how many statements one transaction keeps prepared: the multi-row graph
// statements differ by their row count, and a memory with many links must not make the cache
// grow without end (statements past the bound run unprepared, as before).
const stmtCacheMax = 96

func newStmtCache(tx *sql.Tx) *stmtCache {
	return &stmtCache{tx: tx, stmts: map[string]*sql.Stmt{}}
}

// stmt returns q prepared, or nil when it cannot be kept (the cache is full, or preparing it
// failed: running it unprepared then reports the error where it happens).
func (c *stmtCache) stmt(ctx context.Context, q string) *sql.Stmt {
	if st, ok := c.stmts[q]; ok {
		return st
	}
	if len(c.stmts) >= stmtCacheMax {
		return nil
	}
	st, err := c.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	c.stmts[q] = st
	return st
}

func (c *stmtCache) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := c.stmt(ctx, q); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return c.tx.ExecContext(ctx, q, args...)
}

func (c *stmtCache) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := c.stmt(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return c.tx.QueryContext(ctx, q, args...)
}

func (c *stmtCache) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := c.stmt(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return c.tx.QueryRowContext(ctx, q, args...)
}

// close releases the prepared statements (the transaction's end releases them too).
func (c *stmtCache) close() {
	for q, st := range c.stmts {
		_ = st.Close()
		delete(c.stmts, q)
	}
}
