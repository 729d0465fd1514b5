// Package transcript reads a Claude Code session transcript or a Codex CLI rollout (codex.go),
// JSON Lines with one entry a line, into the turns extraction learns from: what the person
// said, what the assistant answered, and which files the assistant changed. It is a leaf: it
// reads bytes and knows nothing of the store.
package transcript

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"engram/backend/extraction/turn"
)

// MaxLine bounds one transcript line. A longer line (a huge pasted file, a tool's dump) is
// skipped and counted, never held in memory whole.
const MaxLine = 4 << 20

// Roles of an Entry.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Entry is one message of the conversation, in file order.
type Entry struct {
	// UUID is the entry's uuid; an entry without one gets "sha256:<hex of the line>" so it can
	// still be told apart from the others.
	UUID string `json:"uuid"`
	// Role is user (the person's own words: never tool output, slash-command noise or a
	// sub-agent's prompt) or assistant.
	Role string `json:"role"`
	// Text is what was said: the person's message, or the assistant's text parts. Empty for an
	// assistant entry that only used tools.
	Text string `json:"text,omitempty"`
	// Mutations are the workspace changes of an assistant entry's tool uses.
	Mutations []turn.Mutation `json:"mutations,omitempty"`
	// Timestamp is the entry's own, as written (RFC 3339), when present.
	Timestamp string `json:"timestamp,omitempty"`
	// Line is the 1-based line number in the read (in the file when read from its start).
	Line int `json:"line"`
}

// Parsed is what one read of a transcript found.
type Parsed struct {
	Entries []Entry `json:"entries"`
	// SessionID and Cwd are the first ones the entries name.
	SessionID string `json:"session_id,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	// Oversized counts lines over MaxLine, skipped.
	Oversized int `json:"oversized"`
	// Malformed counts complete lines that are not a JSON object.
	Malformed int `json:"malformed"`
	// Partial is set when the last line was still being written (no newline, not yet valid
	// JSON): it is left for the next read.
	Partial bool `json:"partial"`
	// Duplicates counts entries whose uuid appeared earlier in the read.
	Duplicates int `json:"duplicates"`
	// Start is the byte offset the read began at; End is the offset just past the last
	// newline-terminated line read, where the next read of the grown file may begin.
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// ReadFile parses the transcript at path.
func ReadFile(path string) (Parsed, error) { return ReadFileFrom(path, 0) }

// ReadFileFrom parses the transcript at path from byte offset (a previous read's End), so
// each turn reads only what was appended. An offset the file cannot have come from (past its
// end, or not just after a newline: the file was replaced or rewritten) reads it whole.
func ReadFileFrom(path string, offset int64) (Parsed, error) {
	f, err := os.Open(path)
	if err != nil {
		return Parsed{}, fmt.Errorf("transcript: unable to open %s: %w", path, err)
	}
	defer f.Close()
	if offset > 0 {
		var b [1]byte
		if _, err := f.ReadAt(b[:], offset-1); err != nil || b[0] != '\n' {
			offset = 0
		}
	}
	if offset < 0 {
		offset = 0
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return Parsed{}, fmt.Errorf("transcript: unable to read %s: %w", path, err)
	}
	p, err := Parse(f)
	p.Start, p.End = offset, offset+p.End
	return p, err
}

// Parse reads a transcript. Only a failing reader is an error: lines it cannot use are
// counted and skipped, so a transcript Claude Code is still appending to always parses.
func Parse(r io.Reader) (Parsed, error) {
	p := Parsed{Entries: []Entry{}}
	seen := map[string]bool{}
	br := bufio.NewReaderSize(r, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, n, complete, oversized, err := readLine(br)
		if err != nil {
			return p, fmt.Errorf("transcript: unable to read: %w", err)
		}
		if complete {
			p.End += n
		}
		if oversized {
			p.Oversized++
		} else if len(bytes.TrimSpace(line)) > 0 {
			ok := p.add(line, lineNo, seen)
			if !ok && complete {
				p.Malformed++
			}
			if !ok && !complete {
				p.Partial = true
			}
		}
		if !complete {
			return p, nil
		}
	}
}

// readLine returns the next line without its newline, and n, the bytes it took (newline
// included). complete is false at the end of the input (the last line had no newline, or
// there was nothing left). A line over MaxLine is read to its end and dropped (oversized).
func readLine(br *bufio.Reader) (line []byte, n int64, complete, oversized bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if !oversized {
			if len(buf)+len(chunk) > MaxLine+1 {
				oversized, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if oversized {
				return nil, n, true, true, nil
			}
			return buf[:len(buf)-1], n, true, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return buf, n, false, oversized, nil
		default:
			return nil, n, false, false, err
		}
	}
}

// rawEntry is the part of a transcript entry Engram reads.
type rawEntry struct {
	Type             string          `json:"type"`
	UUID             string          `json:"uuid"`
	SessionID        string          `json:"sessionId"`
	Cwd              string          `json:"cwd"`
	Timestamp        string          `json:"timestamp"`
	IsMeta           bool            `json:"isMeta"`
	IsSidechain      bool            `json:"isSidechain"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	ToolUseResult    json.RawMessage `json:"toolUseResult"`
	Message          *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	// Payload and Role are a Codex rollout's (codex.go): the envelope's payload, and the role
	// of a response item written bare by older versions.
	Payload json.RawMessage `json:"payload"`
	Role    string          `json:"role"`
}

// part is one element of a message's content list.
type part struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// add reads one line; false when it is not a JSON object (so the caller can tell a partial
// last line from a malformed one). Entries of other types, and user entries that are not the
// person, are read and skipped.
func (p *Parsed) add(line []byte, lineNo int, seen map[string]bool) bool {
	var e rawEntry
	if err := json.Unmarshal(line, &e); err != nil {
		return false
	}
	if len(e.Payload) > 0 || (e.Message == nil && (e.Role != "" || codexToolTypes[e.Type])) {
		p.addCodex(&e, line, lineNo, seen)
		return true
	}
	if p.SessionID == "" {
		p.SessionID = e.SessionID
	}
	if p.Cwd == "" {
		p.Cwd = e.Cwd
	}
	if e.Message == nil || (e.Type != RoleUser && e.Type != RoleAssistant) {
		return true
	}
	id := e.UUID
	if id == "" {
		id = lineID(line)
	}
	if seen[id] {
		p.Duplicates++
		return true
	}
	seen[id] = true
	out := Entry{UUID: id, Role: e.Type, Timestamp: e.Timestamp, Line: lineNo}
	if e.Type == RoleUser {
		text, ok := personText(&e)
		if !ok {
			return true
		}
		out.Text = text
	} else {
		var parts []part
		if json.Unmarshal(e.Message.Content, &parts) != nil {
			var s string
			if json.Unmarshal(e.Message.Content, &s) != nil {
				return true
			}
			parts = []part{{Type: "text", Text: s}}
		}
		var texts []string
		for _, pt := range parts {
			switch pt.Type {
			case "text":
				if t := strings.TrimSpace(pt.Text); t != "" {
					texts = append(texts, t)
				}
			case "tool_use":
				if m, ok := mutation(pt); ok {
					out.Mutations = append(out.Mutations, m)
				}
			}
			// thinking parts are the assistant's private reasoning, never shown to the person:
			// they are not what the conversation said.
		}
		out.Text = strings.Join(texts, "\n\n")
		if out.Text == "" && len(out.Mutations) == 0 {
			return true
		}
	}
	p.Entries = append(p.Entries, out)
	return true
}

// lineID names an entry without a uuid by its line's hash.
func lineID(line []byte) string {
	sum := sha256.Sum256(line)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// noisePrefixes mark user entries Claude Code writes on the person's behalf: a slash
// command, its output, a caveat. They are not the person's words even when isMeta is unset.
// The bash-mode tags are a "!cmd" the person ran and its output (a file's text, a log): the
// output is not what the person said, and "My name is …" in a cat'ed file is not their name.
var noisePrefixes = []string{"<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
	"<local-command-stderr>", "Caveat: The messages below were generated by the user while running local commands",
	"<bash-input>", "<bash-stdout>", "<bash-stderr>", "[Request interrupted by user"}

// contextTags wrap what Claude Code adds to a person's message on its own — the file open in
// the IDE, the selection, a system reminder — which the person did not write: each block is cut
// out and the rest of the message kept.
var contextTags = []string{"ide_opened_file", "ide_selection", "ide_diagnostics", "system-reminder"}

// cutContext removes the contextTags blocks from text. A tag left open is the person's own
// words about it ("why is there a <system-reminder> in my prompt?"): it stays.
func cutContext(text string) string {
	for _, tag := range contextTags {
		open, end := "<"+tag+">", "</"+tag+">"
		for from := 0; ; {
			i := strings.Index(text[from:], open)
			if i < 0 {
				break
			}
			i += from
			j := strings.Index(text[i:], end)
			if j < 0 {
				break
			}
			text = text[:i] + text[i+j+len(end):]
			from = i
		}
	}
	return text
}

// personText returns the person's words of a user entry, or false when the entry is not the
// person: metadata, a sub-agent's prompt, a compaction summary, or tool output (any
// tool_result part, or a toolUseResult beside it).
func personText(e *rawEntry) (string, bool) {
	if e.IsMeta || e.IsSidechain || e.IsCompactSummary || e.Message.Role != RoleUser ||
		(len(e.ToolUseResult) > 0 && string(e.ToolUseResult) != "null") {
		return "", false
	}
	var text string
	var s string
	if err := json.Unmarshal(e.Message.Content, &s); err == nil {
		text = s
	} else {
		var parts []part
		if json.Unmarshal(e.Message.Content, &parts) != nil {
			return "", false
		}
		var texts []string
		for _, pt := range parts {
			switch pt.Type {
			case "tool_result":
				return "", false
			case "text":
				texts = append(texts, pt.Text)
			}
		}
		text = strings.Join(texts, "\n\n")
	}
	text = strings.TrimSpace(cutContext(text))
	if text == "" {
		return "", false
	}
	for _, pre := range noisePrefixes {
		if strings.HasPrefix(text, pre) {
			return "", false
		}
	}
	return text, true
}

// mutation reads a tool use that changes the workspace: the file-writing tools (path from
// file_path or notebook_path) and Bash (a command, no path).
func mutation(pt part) (turn.Mutation, bool) {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	_ = json.Unmarshal(pt.Input, &in)
	m := turn.Mutation{Tool: pt.Name}
	switch pt.Name {
	case "Write":
		m.Kind, m.Path = "write", in.FilePath
	case "Edit", "MultiEdit":
		m.Kind, m.Path = "edit", in.FilePath
	case "NotebookEdit":
		m.Kind, m.Path = "edit", in.NotebookPath
		if m.Path == "" {
			m.Path = in.FilePath
		}
	case "Bash":
		m.Kind = "command"
	default:
		return turn.Mutation{}, false
	}
	return m, true
}

// TailStart returns where a first read of a long transcript may begin, since a request carries
// only its newest turns: the start of the line that holds the first of the last n bytes of the
// file at path (0 when the file is smaller). The trigger: it began at the first line that began
// in the tail, so a last message longer than n (a pasted log with the request at its end) was
// skipped unseen and unlogged. A line that began more than MaxLine bytes before is skipped
// there and counted in oversized, as Parse counts one, so the hook's log says it was dropped.
func TailStart(path string, n int64) (offset int64, oversized int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("transcript: unable to open %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("transcript: unable to read %s: %w", path, err)
	}
	if fi.Size() <= n {
		return 0, 0, nil
	}
	start := fi.Size() - n
	// Back to the newline that ends the line before, within MaxLine (the byte at start too: a
	// tail that begins with a newline begins with the next line).
	buf := make([]byte, 64<<10)
	for end := start + 1; end > 0 && start-end <= MaxLine; {
		from := max(end-int64(len(buf)), 0)
		k, err := f.ReadAt(buf[:end-from], from)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, 0, fmt.Errorf("transcript: unable to read %s: %w", path, err)
		}
		if i := bytes.LastIndexByte(buf[:k], '\n'); i >= 0 {
			if at := from + int64(i) + 1; start-at <= MaxLine {
				return at, 0, nil
			}
			break
		}
		end = from
		if end == 0 {
			return 0, 0, nil // the first line of the file
		}
	}
	// The line is longer than MaxLine: read on from the line after it.
	br := bufio.NewReaderSize(io.NewSectionReader(f, start, n), 64<<10)
	skipped := int64(0)
	for {
		chunk, err := br.ReadSlice('\n')
		skipped += int64(len(chunk))
		if err == nil {
			return start + skipped, 1, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return fi.Size(), 1, nil // the oversized line is the last: nothing complete after it
		}
	}
}
