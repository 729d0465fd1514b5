package extraction

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"engram/backend/text"
)

// Skip reasons: why a request did not become a run (recorded on the skipped run, translated
// through extraction.skip.<reason>).
const (
	SkipDisabled = "disabled"
	SkipAgentOff = "agent-off"
	SkipEmpty    = "empty"
	// SkipNoPersonMessage: the request holds no message of the person at all (a client sent
	// only its system prompt, tool output or the assistant's words, which are left out as no
	// one's): said apart from an empty message of the person's.
	SkipNoPersonMessage = "no-person-message"
	SkipTooShort        = "too-short"
	SkipGreeting        = "greeting"
	SkipThanks          = "thanks"
	SkipThrottled       = "throttled"
	SkipAlreadyCovered  = "already-covered"
	// SkipSuperseded ends a request that waited behind a running run when a newer one came:
	// the newer one's context holds the same turns.
	SkipSuperseded = "superseded"
	// SkipDisposed ends a waiting request of a session that was deleted.
	SkipDisposed = "disposed"
)

// Graphemes counts user-perceived characters (a flag or a family emoji is one).
func Graphemes(s string) int { return uniseg.GraphemeClusterCount(s) }

// confirmations are short answers that may confirm (or refuse) what the assistant just offered
// to remember; they pass the length gates when the assistant's last message asked a question.
var confirmations = map[string]bool{
	"yes": true, "y": true, "yep": true, "yeah": true, "yup": true, "sure": true, "ok": true, "okay": true,
	"correct": true, "right": true, "exactly": true, "please do": true, "do it": true, "no": true, "nope": true,
	"nah": true, "n": true, "don't": true, "dont": true,
	"是": true, "是的": true, "对": true, "对的": true, "好": true, "好的": true, "嗯": true, "行": true,
	"可以": true, "没错": true, "记住": true, "不": true, "不是": true, "不对": true, "不用": true, "否": true, "别": true,
}

var (
	greetings = []string{"hi", "hello", "hey", "hiya", "yo", "good morning", "good afternoon", "good evening",
		"good night", "morning", "你好", "您好", "嗨", "哈喽", "哈啰", "早上好", "上午好", "下午好", "晚上好", "早安", "晚安", "早"}
	thanks = []string{"thanks", "thank you", "thank u", "thx", "ty", "cheers", "much appreciated", "appreciate it",
		"great, thanks", "谢谢", "多谢", "感谢", "谢了", "辛苦了", "太感谢", "非常感谢"}
)

// normalizeReply lowercases and strips the punctuation and spaces a short reply carries.
func normalizeReply(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r) })
	return strings.Join(strings.Fields(s), " ")
}

// isConfirmation reports whether text is a bare yes/no answer.
// A long message is none (a pasted log is not lowered and split whole to learn that).
func isConfirmation(text string) bool {
	return len(text) <= maxConfirmationBytes && confirmations[normalizeReply(text)]
}

// maxConfirmationBytes is more than any confirmation with its punctuation and spaces takes.
const maxConfirmationBytes = 64

// hasPrefixWord reports whether s starts with p as a whole word (Latin prefixes must be
// followed by a non-letter, so "history" is no "hi"; CJK prefixes need no boundary).
func hasPrefixWord(s, p string) bool {
	if !strings.HasPrefix(s, p) {
		return false
	}
	rest := s[len(p):]
	if rest == "" {
		return true
	}
	last := []rune(p)
	if unicode.Is(unicode.Han, last[len(last)-1]) {
		return true
	}
	r := []rune(rest)[0]
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// longestPrefix returns the longest entry of list that s starts with as a whole word.
func longestPrefix(s string, list []string) string {
	best := ""
	for _, p := range list {
		if len(p) > len(best) && hasPrefixWord(s, p) {
			best = p
		}
	}
	return best
}

// asksQuestion reports whether the assistant's message ends by asking the person something
// (a pending suggestion a bare "yes" can answer).
func asksQuestion(s string) bool {
	s = strings.TrimRightFunc(strings.TrimSpace(s), func(r rune) bool { return unicode.IsSpace(r) || r == ')' || r == '）' })
	return strings.HasSuffix(s, "?") || strings.HasSuffix(s, "？") || strings.HasSuffix(s, "吗") || strings.HasSuffix(s, "呢")
}

// gateInput is everything the synchronous gates look at; the controller fills it under its lock.
type gateInput struct {
	Text          string // the last user message
	PrevAssistant string // the assistant message right before it, if any
	Hash          string
	LastHash      string
	LastRunAt     time.Time
	Now           time.Time
	FromQueue     bool // the request waited behind a run: the wait itself was the throttle
}

// contentGate is the part of the gates that reads only the message: empty, too short (yes/no
// confirmations of a pending question excepted) and greetings or thanks.
func contentGate(s Settings, in gateInput) string {
	text := strings.TrimSpace(in.Text)
	if text == "" {
		return SkipEmpty
	}
	confirming := isConfirmation(text) && asksQuestion(in.PrevAssistant)
	// Counted only as far as the bounds: a message of megabytes (a pasted log) was counted
	// whole, twice per request, at seconds a megabyte before the run even began.
	if denseLengthUpTo(text, 2*s.MinGraphemes) < 2*s.MinGraphemes && !confirming {
		return SkipTooShort
	}
	if graphemesUpTo(text, s.GreetingMaxGraphemes+1) <= s.GreetingMaxGraphemes && !confirming {
		return smallTalk(text)
	}
	return ""
}

// denseLengthUpTo is twice the message's length in graphemes, where a CJK grapheme counts one
// and a half: Chinese says in five characters what English says in five words ("我住在上海"),
// so the minimum length that stops "ok", "继续吧" or "好的" must not stop a fact written in
// Chinese. Doubled to stay in integers; counted until it reaches limit.
func denseLengthUpTo(s string, limit int) int {
	n, state := 0, -1
	for s != "" && n < limit {
		var c string
		c, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		n += 2
		if r, _ := utf8.DecodeRuneInString(c); isDenseScript(r) {
			n++
		}
	}
	return n
}

// graphemesUpTo is Graphemes, counted until it reaches limit.
func graphemesUpTo(s string, limit int) int {
	n, state := 0, -1
	for s != "" && n < limit {
		_, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		n++
	}
	return n
}

func isDenseScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// Small talk around a greeting or thanks. ackLead are the acknowledgements that may open one
// ("ok thanks", "好的，谢谢"); smallTalkFiller are the words that may follow one without
// saying anything about the person: whom they greet (the assistant's name), how much they
// thank, interjections.
var (
	ackLead = []string{"ok", "okay", "k", "great", "perfect", "cool", "nice", "awesome", "got it", "alright",
		"all right", "好的", "好", "嗯", "行", "收到", "明白了", "明白", "了解", "哦", "噢", "太好了"}
	smallTalkFiller = map[string]bool{"there": true, "all": true, "everyone": true, "everybody": true,
		"guys": true, "folks": true, "friend": true, "buddy": true, "mate": true, "man": true, "dude": true,
		"bro": true, "again": true, "so": true, "much": true, "very": true, "a": true, "lot": true, "lots": true,
		"tons": true, "you": true, "u": true, "ya": true, "sir": true, "dear": true, "for": true, "the": true,
		"help": true, "your": true, "it": true, "that": true, "really": true, "anyway": true, "in": true,
		"advance": true, "claude": true, "chatgpt": true, "gpt": true, "copilot": true, "gemini": true, "codex": true,
		"assistant": true, "bot": true, "ai": true, "engram": true, "appreciate": true, "appreciated": true,
		"你": true, "您": true, "大家": true, "呀": true, "啊": true, "哈": true, "啦": true, "了": true,
		"哦": true, "喔": true, "嘛": true, "哈哈": true, "非常": true, "很": true, "太": true, "多": true,
		"真的": true, "啊啊": true, "一下": true, "助手": true, "小助手": true, "老师": true, "兄弟": true,
		"朋友": true, "帮忙": true, "帮助": true, "的": true}
	// smallTalkSays finds what makes more than small talk of the rest of a greeting or thanks:
	// the person speaking of themselves or their team, or an instruction or "remember" for the
	// agent. "Thanks, that works now!" and "你好呀，今天怎么样" stay small talk.
	smallTalkSays = text.Lazy(`(?i)\b(?:i|i'm|im|i’m|i've|i’ve|i'd|i’d|i'll|my|me|mine|myself|we|we're|we’re|our|us|call me|remember|keep in mind|note that|always|never|don't|don’t|do not|stop|avoid|prefer|use|from now on)\b|我|咱|记住|记得|记一下|以后|今后|不要|别再|总是|永远|一律|请用|叫我`)
)

// smallTalk returns SkipGreeting or SkipThanks for a message that is only a greeting or a
// thanks, with at most trivial additions (the assistant's name, "so much", emoji,
// punctuation) or small talk that says nothing about the person; "" for anything else.
// "Hi, my name is Alice" and "谢谢！记住我用 zsh" carry a fact after the greeting and run.
func smallTalk(msg string) string {
	s := trimMarks(stripLead(strings.ToLower(strings.TrimSpace(msg)), ackLead))
	reason := ""
	for s != "" {
		if p := longestPrefix(s, thanks); p != "" {
			reason, s = firstOf(reason, SkipThanks), s[len(p):]
		} else if p := longestPrefix(s, greetings); p != "" {
			reason, s = firstOf(reason, SkipGreeting), s[len(p):]
		} else {
			break
		}
		s = trimSmallTalk(s)
	}
	if reason == "" || (s != "" && smallTalkSays.MatchString(s)) {
		return ""
	}
	return reason
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// stripLead drops the leading words of list (as whole words) from s, with what follows them.
func stripLead(s string, list []string) string {
	for {
		p := longestPrefix(s, list)
		if p == "" {
			return s
		}
		rest := trimMarks(s[len(p):])
		if rest == "" {
			return s // "ok" alone is not an acknowledgement of anything
		}
		s = rest
	}
}

// trimMarks drops leading punctuation, symbols (emoji and their joiners) and spaces.
func trimMarks(s string) string {
	return strings.TrimLeftFunc(s, func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r) || unicode.Is(unicode.Mn, r) || r == '\u200d' || r == '\ufe0f'
	})
}

// trimSmallTalk drops leading punctuation, symbols, spaces and filler words.
func trimSmallTalk(s string) string {
	for {
		s = trimMarks(s)
		w := fillerAt(s)
		if w == 0 {
			return s
		}
		s = s[w:]
	}
}

// fillerAt returns the byte length of the filler word s starts with, 0 when none: a Latin word
// up to the next non-letter, or the longest Chinese filler.
func fillerAt(s string) int {
	if s == "" {
		return 0
	}
	if s[0] < 0x80 {
		end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
		if end < 0 {
			end = len(s)
		}
		if smallTalkFiller[s[:end]] {
			return end
		}
		return 0
	}
	best := 0
	for w := range smallTalkFiller {
		if len(w) > best && w[0] >= 0x80 && strings.HasPrefix(s, w) {
			best = len(w)
		}
	}
	return best
}

// gate decides a request before any run starts; "" lets it run.
func gate(s Settings, in gateInput) string {
	if r := contentGate(s, in); r != "" {
		return r
	}
	if in.LastHash != "" && in.Hash == in.LastHash {
		return SkipAlreadyCovered
	}
	if !in.FromQueue && !in.LastRunAt.IsZero() && in.Now.Sub(in.LastRunAt) < time.Duration(s.MinIntervalSeconds)*time.Second {
		return SkipThrottled
	}
	return ""
}

// lastUser returns the last user message, the assistant message before it and how many user
// messages the request holds (the turn number).
func lastUser(msgs []Message) (user Message, prevAssistant string, turn int) {
	idx := -1
	for i, m := range msgs {
		if m.Role == "user" {
			turn++
			idx = i
		}
	}
	if idx < 0 {
		return Message{}, "", 0
	}
	return msgs[idx], assistantBefore(msgs, idx), turn
}

// assistantBefore is the assistant message right before msgs[i] ("" when a user message or
// nothing comes first).
func assistantBefore(msgs []Message, i int) string {
	for j := i - 1; j >= 0; j-- {
		if msgs[j].Role == "assistant" {
			return msgs[j].Content
		}
		if msgs[j].Role == "user" {
			break
		}
	}
	return ""
}

// messageHash identifies a user message: its source id when the transcript gives one, else
// its position among the user messages, its text and the assistant message it answers
// (prevAssistant, "" for none). A client without ids that sends only its new messages put the
// person's second "yes" — to another question — at the same position with the same text, and
// it was skipped as already extracted; a retry repeats the question too, so it still is.
func messageHash(m Message, turn int, prevAssistant string) string {
	key := "id:" + m.ID
	if m.ID == "" {
		key = "turn:" + strconv.Itoa(turn) + "\x00" + strings.TrimSpace(m.Content)
		if p := strings.TrimSpace(prevAssistant); p != "" {
			key += "\x00after:" + p
		}
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}
