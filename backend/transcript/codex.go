package transcript

import (
	"encoding/json"
	"strings"

	"engram/backend/extraction/turn"
)

// Codex CLI writes each session as a rollout (~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl):
// one JSON object a line, {"timestamp", "type", "payload"}, where session_meta names the
// session and its folder, response_item holds the conversation (messages, tool calls) and
// event_msg / turn_context hold what the interface showed and the turn's settings. Older
// versions wrote the response items bare, one a line. Its hooks hand the rollout's path to a
// Stop hook as transcript_path, so the turns are read from it as from Claude Code's
// transcript: what the person typed, what the assistant answered, and the files it patched.

// codexPayload is the part of a rollout line's payload (or a bare response item) Engram reads.
type codexPayload struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Cwd       string          `json:"cwd"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
}

// codexToolTypes are the response items of a tool call, which older rollouts wrote bare.
var codexToolTypes = map[string]bool{"function_call": true, "custom_tool_call": true, "local_shell_call": true}

// codexInjected mark user messages Codex writes on the person's behalf: the environment, the
// AGENTS.md instructions, a shell command's record, an aborted turn.
var codexInjected = []string{"<environment_context>", "<user_instructions>", "<user_shell_command>", "<turn_aborted>",
	"# AGENTS.md instructions", "<permissions instructions>", "<developer_instructions>"}

// addCodex reads one rollout line (e: its envelope; bare: the line is a response item
// itself). Lines that are not the conversation are read for the session and folder only.
func (p *Parsed) addCodex(e *rawEntry, line []byte, lineNo int, seen map[string]bool) {
	var pl codexPayload
	raw := e.Payload
	if len(raw) == 0 {
		raw = line
	}
	if json.Unmarshal(raw, &pl) != nil {
		return
	}
	switch e.Type {
	case "session_meta":
		if p.SessionID == "" {
			p.SessionID = pl.ID
		}
		if p.Cwd == "" {
			p.Cwd = pl.Cwd
		}
		return
	case "turn_context":
		if p.Cwd == "" {
			p.Cwd = pl.Cwd
		}
		return
	case "response_item", "message", "function_call", "custom_tool_call", "local_shell_call":
	default:
		return
	}
	out := Entry{Timestamp: e.Timestamp, Line: lineNo}
	switch pl.Type {
	case "message":
		text := codexText(pl.Content)
		switch pl.Role {
		case RoleUser:
			if text == "" || codexInjectedText(text) {
				return
			}
			out.Role = RoleUser
		case RoleAssistant:
			if text == "" {
				return
			}
			out.Role = RoleAssistant
		default:
			return // developer and system messages are instructions, not the conversation
		}
		out.Text = text
	case "function_call", "custom_tool_call", "local_shell_call":
		ms := codexMutations(pl)
		if len(ms) == 0 {
			return
		}
		out.Role, out.Mutations = RoleAssistant, ms
	default:
		return // reasoning, tool output, web searches
	}
	out.UUID = lineID(line)
	if seen[out.UUID] {
		p.Duplicates++
		return
	}
	seen[out.UUID] = true
	p.Entries = append(p.Entries, out)
}

// codexText joins the text parts of a message's content (input_text, output_text, text), or
// reads it as a plain string.
func codexText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return strings.TrimSpace(s)
	}
	var parts []part
	if json.Unmarshal(content, &parts) != nil {
		return ""
	}
	var texts []string
	for _, pt := range parts {
		switch pt.Type {
		case "input_text", "output_text", "text":
			if t := strings.TrimSpace(pt.Text); t != "" {
				texts = append(texts, t)
			}
		}
	}
	return strings.Join(texts, "\n\n")
}

// codexInjectedText reports a user message Codex wrote itself (codexInjected).
func codexInjectedText(text string) bool {
	for _, pre := range codexInjected {
		if strings.HasPrefix(text, pre) {
			return true
		}
	}
	return false
}

// codexMutations reads a tool call that changes the workspace: a patch (the files it adds,
// updates or deletes) or a shell command.
func codexMutations(pl codexPayload) []turn.Mutation {
	switch {
	case pl.Name == "apply_patch":
		patch := pl.Input
		if patch == "" {
			var args struct {
				Input string `json:"input"`
			}
			if json.Unmarshal([]byte(pl.Arguments), &args) == nil {
				patch = args.Input
			}
			if patch == "" {
				patch = pl.Arguments
			}
		}
		return patchMutations(pl.Name, patch)
	case pl.Type == "local_shell_call", pl.Name == "shell", pl.Name == "shell_command", pl.Name == "exec_command", pl.Name == "local_shell", pl.Name == "container.exec":
		// Codex also applies patches through its shell tool ({"command": ["apply_patch", "***
		// Begin Patch…"]}): the files are read from the patch.
		if strings.Contains(pl.Arguments, "*** Begin Patch") {
			var args struct {
				Command []string `json:"command"`
			}
			if json.Unmarshal([]byte(pl.Arguments), &args) == nil {
				for _, arg := range args.Command {
					if ms := patchMutations("apply_patch", arg); len(ms) > 0 {
						return ms
					}
				}
			}
		}
		tool := pl.Name
		if tool == "" {
			tool = "shell"
		}
		return []turn.Mutation{{Tool: tool, Kind: "command"}}
	}
	return nil
}

// patchMutations lists the files a Codex patch touches ("*** Add File: p", "*** Update File:
// p", "*** Delete File: p", "*** Move to: p").
func patchMutations(tool, patch string) []turn.Mutation {
	var out []turn.Mutation
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, h := range []struct{ prefix, kind string }{
			{"*** Add File:", "write"}, {"*** Update File:", "edit"}, {"*** Delete File:", "delete"}, {"*** Move to:", "write"},
		} {
			if rest, ok := strings.CutPrefix(line, h.prefix); ok {
				if path := strings.TrimSpace(rest); path != "" {
					out = append(out, turn.Mutation{Tool: tool, Kind: h.kind, Path: path})
				}
			}
		}
	}
	return out
}
