package extraction

import (
	"context"
	"fmt"
	"strings"
	"time"

	"engram/backend/coded"
	"engram/backend/llm"
	"engram/backend/memory"
	"engram/backend/prompts"
)

// Bounds of one session-summary call.
const (
	SummaryTimeout   = 60 * time.Second
	summaryMaxTokens = 1500
	// summaryLineChars bounds one folded message in the prompt: a summary needs the gist of a
	// long tool-heavy message, not all of it.
	summaryLineChars = 1200
)

// SessionSummariser folds a long session's older messages with the configured model (usage
// purpose session_summary). With no model configured it returns "" and no error, which the
// store reads as "keep the extractive summary"; any failure is returned so the store logs it
// and falls back to the extractive summary too, so the session's bound always holds.
func SessionSummariser(src llm.Source) memory.Summariser {
	if src == nil {
		return nil
	}
	return func(ctx context.Context, in memory.SummaryInput) (string, error) {
		client, err := src()
		if err != nil {
			if ce, ok := coded.As(err); ok && ce.ErrorCode() == llm.CodeNotConfigured {
				return "", nil
			}
			return "", err
		}
		if client == nil {
			return "", nil
		}
		resp, err := client.Complete(ctx, llm.Request{Purpose: llm.PurposeSummary, System: prompts.SessionSummarySystem,
			Messages:  []llm.Message{{Role: llm.RoleUser, Content: summaryPrompt(in)}},
			MaxTokens: summaryMaxTokens, Timeout: SummaryTimeout})
		if err != nil {
			return "", fmt.Errorf("extraction: unable to summarise session %s: %w", in.Session.ID, err)
		}
		// The model's text is stored as written (the store bounds its length); a model that
		// answered with a tool call or nothing leaves the extractive summary in place. The
		// folded messages are deleted once the summary is stored, so an answer cut at its
		// token limit (often inside a reasoning block) or a refusal is not a summary: the store
		// keeps the extractive one instead.
		if cutAnswer(resp.StopReason) || resp.Refused() {
			return "", fmt.Errorf("extraction: unable to summarise session %s: the model's answer was cut or refused (%s)", in.Session.ID, resp.StopReason)
		}
		text, ok := withoutReasoning(resp.Text)
		if !ok {
			return "", fmt.Errorf("extraction: unable to summarise session %s: the model's answer is a reasoning block that never closed", in.Session.ID)
		}
		return text, nil
	}
}

// withoutReasoning removes the reasoning a model wrote before its answer in the text itself
// ("<think>…</think>", as DeepSeek-R1 and Qwen3 do behind Ollama, LM Studio or vLLM without a
// reasoning parser), which was stored as the session's summary: the model's private musings,
// quoting the conversation, where the summary should be. ok is false when a reasoning block
// opens and never closes (the answer holds no summary).
func withoutReasoning(text string) (string, bool) {
	t := strings.TrimSpace(text)
	for _, tag := range []string{"think", "thinking", "reasoning"} {
		open, end := "<"+tag+">", "</"+tag+">"
		if !strings.HasPrefix(t, open) {
			continue
		}
		i := strings.Index(t, end)
		if i < 0 {
			return "", false
		}
		return strings.TrimSpace(t[i+len(end):]), true
	}
	return t, true
}

// summaryPrompt lays out the previous summary and the folded messages, each on one line.
func summaryPrompt(in memory.SummaryInput) string {
	var b strings.Builder
	b.WriteString(prompts.SessionSummaryPrevious)
	b.WriteByte('\n')
	if p := strings.TrimSpace(in.Previous); p != "" {
		b.WriteString(p)
	} else {
		b.WriteString(prompts.SessionSummaryNone)
	}
	b.WriteString("\n\n")
	b.WriteString(prompts.SessionSummaryMessages)
	b.WriteByte('\n')
	for _, t := range in.Turns {
		mark := ""
		if in.Produced[t.Seq] {
			mark = " *"
		}
		line := cut(strings.Join(strings.Fields(t.Content), " "), summaryLineChars)
		fmt.Fprintf(&b, "#%d %s%s: %s\n", t.Seq, t.Role, mark, line)
	}
	return b.String()
}
