package extraction

import (
	"fmt"
	"slices"
	"strings"

	"engram/backend/prompts"
	"engram/backend/recall"
)

// renderInput writes the compact context of one run as the model's user message: the turns,
// the workspace changes, the candidates, the rejections and what this turn already wrote, each
// in its own block and escaped so that no text can open or close a block.
func renderInput(in Input) string {
	var b strings.Builder
	fmt.Fprintf(&b, prompts.ExtractionWorkspace, in.Request.Workdir != "", recall.Escape(oneLine(in.Request.Agent)))
	b.WriteString(prompts.ExtractionConversationOpen)
	n := 0
	last := -1
	for i, m := range in.Turns {
		if m.Role == "user" {
			last = i
		}
	}
	for i, m := range in.Turns {
		text := recall.Escape(m.Content)
		if m.Role == "user" {
			n++
			// A turn an earlier run planned is context; the others are new (the last, and one
			// whose own run failed: replan.go).
			if i != last && slices.Contains(in.Planned, ContentHash(m.Content)) {
				fmt.Fprintf(&b, prompts.ExtractionUserTurnPlanned, n, text)
			} else {
				fmt.Fprintf(&b, prompts.ExtractionUserTurn, n, text)
			}
		} else {
			fmt.Fprintf(&b, prompts.ExtractionAssistantTurn, text)
		}
	}
	b.WriteString(prompts.ExtractionConversationClose)
	if len(in.Request.WorkspaceMutations) == 0 {
		b.WriteString(prompts.ExtractionNoMutations)
	} else {
		var lines strings.Builder
		for _, mu := range in.Request.WorkspaceMutations {
			fmt.Fprintf(&lines, "- %s %s %s\n", recall.Escape(oneLine(mu.Tool)), recall.Escape(oneLine(mu.Kind)), recall.Escape(oneLine(mu.Path)))
		}
		fmt.Fprintf(&b, prompts.ExtractionMutations, lines.String())
	}
	if in.ProjectPinned {
		b.WriteString(prompts.ExtractionPinned)
	}
	if len(in.Candidates) == 0 {
		b.WriteString(prompts.ExtractionNoCandidates)
	} else {
		var lines strings.Builder
		for _, c := range in.Candidates {
			mark := ""
			if c.Reviewed {
				mark = prompts.ExtractionReviewedMark
			}
			fmt.Fprintf(&lines, "- %s [%s/%s] %s%s\n", recall.Escape(c.Slug), c.Scope, c.Type, recall.Escape(oneLine(c.Title)), mark)
		}
		fmt.Fprintf(&b, prompts.ExtractionCandidates, lines.String())
	}
	if len(in.Rejected) > 0 {
		fmt.Fprintf(&b, prompts.ExtractionRejections, bulletList(in.Rejected))
	}
	if len(in.WrittenThisTurn) > 0 {
		fmt.Fprintf(&b, prompts.ExtractionWritten, bulletList(in.WrittenThisTurn))
	}
	b.WriteString(prompts.ExtractionAsk)
	return b.String()
}

func bulletList(v []string) string {
	var b strings.Builder
	for _, s := range v {
		b.WriteString("- " + recall.Escape(oneLine(s)) + "\n")
	}
	return b.String()
}

// oneLine folds whitespace so that a value cannot start a new line of a block.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// unescape undoes recall.Escape on what a model copied out of a block (a quote).
func unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}
