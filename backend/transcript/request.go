package transcript

import (
	"strings"
	"unicode/utf8"

	"engram/backend/extraction/turn"
)

// Bounds of one request built from a transcript. The first run of the hook on a long session
// sees every earlier turn as new; extraction only reads the last few person turns anyway
// (DESIGN §6), and the bridge takes messages up to 1 MiB, so the request carries the newest
// turns within these bounds.
const (
	// MaxPersonTurns is how many of the person's messages a request carries.
	MaxPersonTurns = 8
	// MaxMessageBytes bounds one message's content (cut on a rune boundary).
	MaxMessageBytes = 16 << 10
	// MaxRequestBytes bounds the content of all messages of a request.
	MaxRequestBytes = 256 << 10
	// MaxMutations bounds the workspace mutations of a request.
	MaxMutations = 64
)

// Request turns entries (in file order, already the new ones) into an extraction request:
// the newest MaxPersonTurns person messages and what followed each, within the byte bounds.
// Entries before the window are left out of the request (Dropped counts them). The request
// has no person message when entries hold none.
func Request(entries []Entry, sessionID, agent, workdir string) (req turn.Request, dropped int) {
	req = turn.Request{SessionID: sessionID, Agent: agent, Workdir: workdir, Messages: []turn.Message{}}
	start := len(entries)
	persons, total := 0, 0
	for i := len(entries) - 1; i >= 0; i-- {
		size := min(len(entries[i].Text), MaxMessageBytes)
		if total+size > MaxRequestBytes {
			break
		}
		if entries[i].Role == RoleUser {
			if persons == MaxPersonTurns {
				break
			}
			persons++
		}
		total += size
		start = i
	}
	// A window that would begin with the assistant's answer to a turn left out begins at the
	// next person message instead: an answer without its question misleads more than it helps.
	for start < len(entries) && entries[start].Role != RoleUser && persons > 0 {
		start++
	}
	if persons == 0 {
		start = len(entries)
	}
	dropped = start
	for _, e := range entries[start:] {
		for _, m := range e.Mutations {
			if len(req.WorkspaceMutations) < MaxMutations {
				req.WorkspaceMutations = append(req.WorkspaceMutations, m)
			}
		}
		if e.Text == "" {
			continue
		}
		req.Messages = append(req.Messages, turn.Message{Role: e.Role, Content: Cut(e.Text, MaxMessageBytes), ID: e.UUID})
	}
	return req, dropped
}

// HasPerson reports whether req carries at least one of the person's messages.
func HasPerson(req turn.Request) bool {
	for _, m := range req.Messages {
		if m.Role == RoleUser {
			return true
		}
	}
	return false
}

// CutMark stands where Cut took text out of a message: language-neutral, on lines of its own,
// so `engram sessions show` and the extraction model see that something is missing.
const CutMark = "\n\n[…]\n\n"

// Cut shortens s to at most n bytes, keeping its head and its tail with CutMark between, each
// cut on a rune boundary (and at a space or line break near it when there is one). The trigger:
// a pasted 200-line log followed by "Remember that I prefer kebab-case for URL paths." was cut
// to its first 16 KiB and the request at its end was lost, the stored message ending mid-word
// with no mark. The last words of a message are most often what the person asks, so the tail
// gets three quarters of the room.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	room := n - len(CutMark)
	if room < 8 {
		return s[:runeStart(s, n)]
	}
	head := room / 4
	h := runeStart(s, head)
	if i := strings.LastIndexAny(s[:h], " \n\t"); i > h-h/8 && i > 0 {
		h = i
	}
	t := len(s) - (room - head)
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	if i := strings.IndexAny(s[t:], " \n\t"); i >= 0 && i < (len(s)-t)/8 {
		t += i + 1
	}
	return strings.TrimRight(s[:h], " \t") + CutMark + strings.TrimLeft(s[t:], " \t")
}

// runeStart is the largest index ≤ i (and ≤ len(s)) at which a rune of s begins.
func runeStart(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
