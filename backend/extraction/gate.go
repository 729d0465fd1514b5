package extraction

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/rivo/uniseg"
)

// Skip reasons: why a request did not become a run (recorded on the skipped run, translated
// through extraction.skip.<reason>).
const (
	SkipDisabled       = "disabled"
	SkipAgentOff       = "agent-off"
	SkipEmpty          = "empty"
	SkipTooShort       = "too-short"
	SkipGreeting       = "greeting"
	SkipThanks         = "thanks"
	SkipThrottled      = "throttled"
	SkipAlreadyCovered = "already-covered"
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
func isConfirmation(text string) bool { return confirmations[normalizeReply(text)] }

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

func startsWithAny(text string, list []string) bool {
	s := strings.ToLower(strings.TrimSpace(text))
	for _, p := range list {
		if hasPrefixWord(s, p) {
			return true
		}
	}
	return false
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
	n := Graphemes(text)
	confirming := isConfirmation(text) && asksQuestion(in.PrevAssistant)
	if n < s.MinGraphemes && !confirming {
		return SkipTooShort
	}
	if n <= s.GreetingMaxGraphemes && !confirming {
		if startsWithAny(text, thanks) {
			return SkipThanks
		}
		if startsWithAny(text, greetings) {
			return SkipGreeting
		}
	}
	return ""
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
	for i := idx - 1; i >= 0; i-- {
		if msgs[i].Role == "assistant" {
			prevAssistant = msgs[i].Content
			break
		}
		if msgs[i].Role == "user" {
			break
		}
	}
	return msgs[idx], prevAssistant, turn
}

// messageHash identifies a user message: its source id when the transcript gives one, else
// its position among the user messages and its text.
func messageHash(m Message, turn int) string {
	key := "id:" + m.ID
	if m.ID == "" {
		key = "turn:" + strconv.Itoa(turn) + "\x00" + strings.TrimSpace(m.Content)
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}
