package memory

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// metaTime is how memory_meta keeps a memory's created and updated times since migration 16:
// Unix milliseconds, which sort as the times do and take 6 bytes in the row and in each index
// that ends in updated, where the index form above took 30. The files keep whole seconds.
func metaTime(t time.Time) int64 { return t.UnixMilli() }

// fromMetaTime reads a metaTime back, in UTC.
func fromMetaTime(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// metaStamp scans a created or updated column: Unix milliseconds, or the index-form text an
// older build (before migration 16) still writes while it runs beside a newer one during an
// upgrade — its rows stay readable instead of failing every read that meets them.
type metaStamp struct{ t time.Time }

func (s *metaStamp) Scan(v any) error {
	switch x := v.(type) {
	case int64:
		s.t = fromMetaTime(x)
	case string:
		return s.parse(x)
	case []byte:
		return s.parse(string(x))
	case nil:
		s.t = time.Time{}
	default:
		return fmt.Errorf("memory: unable to read a time of type %T", v)
	}
	return nil
}

// parse reads the older build's text. A text that is no time at all is an error, not the zero
// time: a zero sorted the row first and made it look unreviewed-for-ever in the quota.
func (s *metaStamp) parse(x string) error {
	t, err := time.Parse(time.RFC3339Nano, x)
	if err != nil {
		return fmt.Errorf("memory: unable to read the time %q: %w", x, err)
	}
	s.t = t
	return nil
}

// normaliseMetaTimes rewrites the created and updated columns an older build left as text into
// metaTime, as migration 16 did (the same expression). Text sorts above every integer in
// SQLite, so until then such rows listed as the newest, counted as created since any time, and
// were skipped by MIN over the integers. At open only rows whose updated is text are looked at
// (every text compares above the empty text; an index range on memory_meta_updated, so a cold open does not
// read every row); a full reconcile, which reads the index anyway, looks at both columns.
func normaliseMetaTimes(ctx context.Context, q interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, all bool) (int64, error) {
	where := `rid IN (SELECT rid FROM memory_meta WHERE updated >= '')`
	if all {
		where = `typeof(created) = 'text' OR typeof(updated) = 'text'`
	} else {
		// Looked for first, so an open with nothing to do (every open after the upgrade)
		// takes no write lock: an UPDATE that changes nothing still waits for the writer.
		var any int
		if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM memory_meta WHERE updated >= '')`).Scan(&any); err != nil {
			return 0, fmt.Errorf("memory: unable to look for older index times: %w", err)
		}
		if any == 0 {
			return 0, nil
		}
	}
	res, err := q.ExecContext(ctx, `UPDATE memory_meta SET
  created = CASE WHEN typeof(created) = 'text' THEN COALESCE(CAST(round(unixepoch(created, 'subsec') * 1000) AS INTEGER), 0) ELSE created END,
  updated = CASE WHEN typeof(updated) = 'text' THEN COALESCE(CAST(round(unixepoch(updated, 'subsec') * 1000) AS INTEGER), 0) ELSE updated END
  WHERE `+where)
	if err != nil {
		return 0, fmt.Errorf("memory: unable to normalise index times: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
