package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
)

// pathFree refuses a write to rel when a file is already there: a file that does not parse
// (recorded as a problem, or failing to parse now) gets its own code naming the path, so the
// person fixes that file instead of looking for a memory to update.
func (s *Store) pathFree(ctx context.Context, x execer, rel, slug string) error {
	if _, err := os.Lstat(s.abs(rel)); err != nil {
		return nil // nothing there (or no folder yet): the write itself reports real failures
	}
	data, err := os.ReadFile(s.abs(rel))
	detail := ""
	var code string
	qerr := x.QueryRowContext(ctx, `SELECT detail FROM memory_problems WHERE path = ?`, rel).Scan(&detail)
	switch {
	case qerr == nil:
	case !errors.Is(qerr, sql.ErrNoRows):
		return fmt.Errorf("memory: unable to read problems: %w", qerr)
	case err != nil:
		detail = err.Error()
	default:
		if _, perr := parseHand(data, rel); perr != nil {
			detail = perr.Error()
		} else {
			code = CodeAlreadyExists
		}
	}
	if code == CodeAlreadyExists {
		return codeErr(CodeAlreadyExists, map[string]any{"Slug": slug, "Path": rel},
			"a file already exists at %s but is not indexed yet", rel)
	}
	return codeErr(CodeSlugHeldByUnparsable, map[string]any{"Slug": slug, "Path": rel, "Detail": detail},
		"slug %s is held by %s, a file that cannot be read (%s); fix or remove it first", slug, rel, detail)
}
