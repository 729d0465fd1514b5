package memory

import (
	"context"
	"database/sql"
	"strings"
)

// preparedTurn is a message as a session stores it.
type preparedTurn struct {
	role, content string
	cutBytes      int
	hasID         bool
}

// prepareTurns makes each message what the session stores: trimmed, its secrets redacted, cut
// past MaxTurnContent. A conversation may hold a key the person pasted; the index keeps the turn
// without it (memories refuse secrets; the stored turns are read back into extraction prompts).
// Redacted before the cut: a key across the cut would keep its first characters, no longer a
// whole shape the guard knows. The margin bounds the scan of a huge paste and holds the longest
// one-line shape.
func prepareTurns(turns []TurnInput) []preparedTurn {
	out := make([]preparedTurn, len(turns))
	for i, t := range turns {
		content, cutBytes := storedText(t.Content)
		out[i] = preparedTurn{role: t.Role, content: content, hasID: t.MsgID != "", cutBytes: cutBytes}
	}
	return out
}

// StoredTurnText is the text a session stores for a message's content (SessionTurn.Content):
// a caller matching a message it holds against the stored ones compares this, not the whole
// text, which a message over MaxTurnContent never equals.
func StoredTurnText(content string) string {
	s, _ := storedText(content)
	return s
}

// storedText is StoredTurnText with the bytes it did not keep.
func storedText(content string) (string, int) {
	whole := strings.TrimSpace(content)
	scanned := cut(whole, MaxTurnContent+redactMargin)
	redacted := RedactSecrets(scanned)
	kept := cut(redacted, MaxTurnContent)
	// What was not kept, counted in the redacted text (a key redacted is no loss).
	return kept, len(whole) - len(scanned) + len(redacted) - len(kept)
}

// resentPrefix is how many of the leading messages of a request without message ids the
// session (in this project) already holds: a client that sends its whole conversation with each
// turn (OpenAI's shape, a browser page) sent every earlier message again, and each was stored
// once more — the session showed the conversation twice, three times, and compacted early. The
// request holds its history when the newest messages stored end where it goes on: the stored
// tail (at least two messages, or all the session holds) equals the request's messages up to
// some point, and everything before that point was stored before. Messages with ids are deduped
// by id instead.
func resentPrefix(ctx context.Context, tx *sql.Tx, agent, session, key string, turns []preparedTurn) (int, error) {
	var req []int // the indexes of the messages that would be stored
	for i, t := range turns {
		if t.hasID {
			return 0, nil
		}
		if t.content != "" {
			req = append(req, i)
		}
	}
	if len(req) == 0 {
		return 0, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT role, content FROM session_turns WHERE agent = ? AND session = ? AND scope_key = ?
		ORDER BY seq DESC LIMIT ?`, agent, session, key, len(req)+1)
	if err != nil {
		return 0, err
	}
	var tail []preparedTurn // newest first
	for rows.Next() {
		var t preparedTurn
		if err := rows.Scan(&t.role, &t.content); err != nil {
			rows.Close()
			return 0, err
		}
		tail = append(tail, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	// Whether the session folded messages into a summary: only then may a request's earlier
	// messages be stored before everything the session still holds.
	var folded int
	if err := tx.QueryRowContext(ctx, `SELECT summarized FROM sessions WHERE agent = ? AND id = ?`, agent, session).
		Scan(&folded); err != nil && err != sql.ErrNoRows {
		return 0, err
	}
	for end := len(req); end >= 1; end-- {
		// One message alone matches only when it is all the session holds (a retried first
		// message): "yes" twice in a row is two answers.
		m := min(len(tail), end)
		if m == 0 || m == 1 && len(tail) > 1 {
			continue
		}
		// The whole stored history is shorter than the request's messages up to end: they
		// cannot all have been stored before unless some were folded. [yes, Saved.] stored and
		// then [yes, Saved., yes, Saved.] sent whole is the same answer given twice, not a retry.
		if m < end && folded == 0 {
			continue
		}
		same := true
		for k := 0; k < m && same; k++ { // req[end-1-k] against the k-th newest stored
			r := turns[req[end-1-k]]
			same = r.role == tail[k].role && r.content == tail[k].content
		}
		if same {
			return req[end-1] + 1, nil
		}
	}
	return 0, nil
}
