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
	var why fault
	var key, args string
	qerr := x.QueryRowContext(ctx, `SELECT detail, detail_key, detail_args FROM memory_problems WHERE path = ?`, rel).Scan(&why.text, &key, &args)
	switch {
	case qerr == nil:
		why.key, why.args = key, decodeArgs(args)
	case !errors.Is(qerr, sql.ErrNoRows):
		return fmt.Errorf("memory: unable to read problems: %w", qerr)
	case err != nil:
		why = readFault(err)
	default:
		if _, perr := parseHand(data, rel); perr != nil {
			why = faultOf(perr)
		} else {
			return codeErr(CodeAlreadyExists, map[string]any{"Slug": slug, "Path": rel},
				"a file already exists at %s but is not indexed yet", rel)
		}
	}
	return codeErr(CodeSlugHeldByUnparsable, heldArgs(slug, rel, why),
		"slug %s is held by %s, a file that cannot be read (%s); fix or remove it first", slug, rel, why.text)
}

// heldArgs are the arguments of slug_held_by_unparsable_file: the file's reason with its
// catalog key and arguments (DetailKey), so the message says it in the person's language — a
// Chinese refusal carried the YAML parser's English.
func heldArgs(slug, rel string, why fault) map[string]any {
	args := map[string]any{}
	if why.key != "" {
		for k, v := range why.args {
			args[k] = v
		}
		args["DetailKey"] = why.key
	}
	args["Slug"], args["Path"], args["Detail"] = slug, rel, why.text
	return args
}
