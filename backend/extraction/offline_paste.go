package extraction

import (
	"strings"

	"engram/backend/text"
)

// Material the person pastes is someone else's words: a README, an email, a log, a text to
// translate. Read as the person speaking, its "I am the system administrator" or "remember
// that the user wants …" would become memories about them (or instructions planted by
// whoever wrote it). maskPasted blanks such material in the mask (keeping byte offsets and
// line breaks) so no rule reads it; the person's own framing ("Summarize this README for
// me:") stays readable. It prefers missing a fact in a long paste to inventing one.
var (
	// pasteVerb opens a request for work on material ("Summarize …", "Can you review …",
	// "帮我总结…"); pasteThis points at the material ("this", "the following", "以下");
	// pasteSure names it outright (a text to translate or proofread is never the person
	// speaking). A line opened by a verb and ending in a colon hands the agent what follows
	// when the colon ends the line or the line points at it: "Summarize this README for me:",
	// "Translate this: …". "Remember:", "Note:" and "When you answer:" (the verb not
	// opening the request) introduce the person's own words.
	pasteVerb = text.Lazy(`(?i)^\s*(?:(?:please|pls|can you|could you|would you|will you|help me|i need you to|i want you to|now|ok|okay|hey|hi|also|and|so)[,!]?\s+)*(?:summari[sz]e|sum up|tl;?dr|translate|review|proofread|explain|rewrite|rephrase|paraphrase|edit|improve|polish|fix|correct|check|analy[sz]e|critique|comment on|respond to|reply to|answer|simplify|shorten|format|convert|parse|classify|grade|evaluate|look at|read)\b|^\s*(?:请|麻烦你?|帮忙|帮我|你|能不能|可以|再|给我)*(?:总结|概括|归纳|摘要|翻译|译成|润色|校对|审阅|审查|检查|看看|看一下|看下|解释|分析|改写|修改|优化|点评|评价|回复)`)
	pasteThis = text.Lazy(`(?i)\b(?:this|that|these|those|the following|below|as follows|here(?:'s| is| are))\b|这|那|以下|下面|如下`)
	pasteSure = text.Lazy(`(?i)\b(?:translate|proofread|rephrase|paraphrase|rewrite|the following|as follows|here(?:'s| is| are) (?:the|a|an|this|that|some) (?:text|email|e-mail|mail|article|readme|doc|document|message|post|code|snippet|log|logs|output|paragraph|essay|letter|passage|file|page|comment|thread|transcript|review|diff|patch|chat|conversation|story|poem|quote|excerpt))\b|翻译|译成|润色|校对|改写|以下是|下面是|如下|以下内容|下面的内容`)
	// pasteRule is a line of only dashes, equals signs, stars or underscores: a separator a
	// person puts around a paste (or Markdown's rule).
	pasteRule  = text.Lazy(`^\s*(?:-{3,}|={3,}|\*{3,}|_{3,}|—{2,})\s*$`)
	pasteFence = text.Lazy("^\\s*(?:```|~~~)")
	pasteQuote = text.Lazy(`^\s*(?:>|＞)`)
	// pasteHeader is a mail header line; pasteForward a forwarded or replied-to message's opening.
	pasteHeader  = text.Lazy(`(?i)^\s*(?:from|to|cc|bcc|subject|date|sent|reply-to|发件人|收件人|抄送|主题|日期|发送时间|时间)\s*[:：]`)
	pasteForward = text.Lazy(`(?i)^\s*(?:-{2,}\s*(?:forwarded message|original message)|begin forwarded message|(?:-{2,}\s*)?(?:转发的邮件|原始邮件|转发邮件|以下为转发)|on .{3,80} wrote:\s*$|在.{3,60}写道[:：]\s*$)`)
)

// pasteParagraphBytes: in a long message of several paragraphs, a paragraph longer than this
// is taken for pasted material; pasteLongBytes is how long such a message must be.
const (
	pasteLeadBytes      = 200 // the words before an introducing colon, at most
	pasteParagraphBytes = 240
	pasteLongBytes      = 800
)

// maskPasted returns mask with pasted material blanked ('~', line breaks kept).
func maskPasted(msg, mask string) string {
	b := []byte(mask)
	blank := func(from, to int) {
		for i := from; i < to && i < len(b); i++ {
			if b[i] != '\n' {
				b[i] = '~'
			}
		}
	}
	type line struct{ start, end int }
	var lines []line
	for i := 0; i <= len(msg); {
		j := strings.IndexByte(msg[i:], '\n')
		if j < 0 {
			lines = append(lines, line{i, len(msg)})
			break
		}
		lines = append(lines, line{i, i + j})
		i += j + 1
	}
	rule := -1 // the line of an opening separator not yet closed
	for k := 0; k < len(lines); k++ {
		l := lines[k]
		s := msg[l.start:l.end]
		switch {
		case pasteFence.MatchString(s):
			// A fenced block up to its closing fence, or to the end when it is not closed.
			end := len(msg)
			for m := k + 1; m < len(lines); m++ {
				if pasteFence.MatchString(msg[lines[m].start:lines[m].end]) {
					end, k = lines[m].end, m
					break
				}
				k = m
			}
			blank(l.start, end)
		case pasteRule.MatchString(s):
			if rule >= 0 {
				blank(lines[rule].start, l.end)
				rule = -1
			} else {
				rule = k
			}
		case pasteQuote.MatchString(s):
			blank(l.start, l.end)
		case pasteForward.MatchString(s), pasteHeader.MatchString(s) && k+1 < len(lines) && pasteHeader.MatchString(msg[lines[k+1].start:lines[k+1].end]):
			blank(l.start, len(msg))
			return string(b)
		}
		// "Summarize this README for me:" — the rest of the message is the material.
		if c := introColon(string(b[l.start:l.end])); c >= 0 {
			blank(l.start+c, len(msg))
			return string(b)
		}
	}
	blankLongParagraphs(msg, blank)
	return string(b)
}

// introColon returns the offset just past the colon of a line that hands the agent material
// ("Translate this into French: …", "帮我总结一下这篇文章："), or -1.
func introColon(line string) int {
	for i := 0; i < len(line); i++ {
		c := strings.IndexAny(line[i:], ":：")
		if c < 0 || i+c > pasteLeadBytes {
			return -1
		}
		i += c
		end := i + 1
		if line[i] != ':' {
			end = i + len("：")
		}
		// A colon inside a URL, a time or a port ("http://", "10:30") introduces nothing.
		if strings.HasPrefix(line[i:], "://") || (i > 0 && line[i-1] >= '0' && line[i-1] <= '9') {
			continue
		}
		lead := line[:i]
		endsLine := strings.TrimSpace(line[end:]) == ""
		if pasteSure.MatchString(lead) || pasteVerb.MatchString(lead) && (endsLine || pasteThis.MatchString(lead)) {
			return end
		}
		i = end - 1
	}
	return -1
}

// blankLongParagraphs: a long message of three or more paragraphs whose middle holds long
// paragraphs is a paste framed by the person's short lines ("Thoughts on this post?"): the
// span from the first long paragraph to the last is blanked.
func blankLongParagraphs(msg string, blank func(from, to int)) {
	if len(msg) < pasteLongBytes {
		return
	}
	type para struct{ start, end int }
	var paras []para
	for i := 0; i < len(msg); {
		j := strings.Index(msg[i:], "\n\n")
		end := len(msg)
		if j >= 0 {
			end = i + j
		}
		if strings.TrimSpace(msg[i:end]) != "" {
			paras = append(paras, para{i, end})
		}
		if j < 0 {
			break
		}
		i = end + 2
	}
	if len(paras) < 3 {
		return
	}
	first, last := -1, -1
	for k, p := range paras {
		if p.end-p.start > pasteParagraphBytes {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first >= 0 {
		blank(paras[first].start, paras[last].end)
	}
}
