package memory

import (
	"strings"

	"engram/backend/text"
)

// Kinds of risky text, shown to the person beside the flagged memory.
const (
	RiskOverride  = "override"      // "ignore all previous instructions", "忽略之前的所有指令"
	RiskDirective = "directive"     // "you must now …", "你现在必须…"
	RiskSystem    = "system_prompt" // talks about the agent's system prompt or a jailbreak
	RiskCommand   = "command"       // tells the agent to run something destructive
	RiskConceal   = "conceal"       // "do not tell the user about this", "不要告诉用户"
)

// Risk is why a memory reads like an instruction to the agent: the kind of pattern and the
// text around the match, so a person sees what tripped it before accepting it.
type Risk struct {
	Kind    string `json:"kind"`
	Excerpt string `json:"excerpt"`
}

type riskyPattern struct {
	kind string
	re   *text.Regexp
	// need lists literals of which the pattern cannot match without one, in the text as
	// foldForRisk leaves it: the regular expressions (case-folding, backtracking) ran on every
	// memory of a reindex and were a third of its time; most texts contain none of these.
	need []string
}

// riskyPatterns mark text that tries to steer an agent (prompt injection, English and
// Chinese); such memories are kept but forced unreviewed so a person looks at them before
// they are trusted, and no bulk action may accept them (see opAccept).
var riskyPatterns = []riskyPattern{
	{RiskOverride, text.Lazy(`(?i)\b(?:ignore|disregard|forget|override)\b.{0,30}\b(?:previous|prior|above|earlier|all|any|your)\b.{0,20}\b(?:instructions?|rules?|prompts?|guidelines?|directions?)`),
		[]string{"ignore", "disregard", "forget", "override"}},
	{RiskOverride, text.Lazy(`(?i)\bdisregard\b.{0,20}\b(?:everything|anything|the above|what (?:you were|was) told)\b`), []string{"disregard"}},
	// "Ignore the instructions above", "forget everything you were told": the order of the
	// words the first pattern wants, reversed.
	{RiskOverride, text.Lazy(`(?i)\b(?:ignore|disregard|forget|override)\b.{0,20}\b(?:instructions?|rules?|prompts?|guidelines?|directions?)\b.{0,20}\b(?:above|before|previously|earlier|so far)\b`),
		[]string{"ignore", "disregard", "forget", "override"}},
	{RiskOverride, text.Lazy(`(?i)\b(?:ignore|disregard|forget)\b.{0,20}\b(?:everything|anything)\b.{0,30}\b(?:you (?:were|have been|'ve been) (?:told|given|instructed)|above)`),
		[]string{"ignore", "disregard", "forget"}},
	{RiskSystem, text.Lazy(`(?i)\byou are now\b.{0,40}(?:\bDAN\b|\bdo anything now\b|\bunrestricted\b|\bunfiltered\b|\bjailbroken\b|\bwithout (?:any )?(?:restrictions|limits|rules|filters|guidelines)\b)`),
		[]string{"you are now"}},
	{RiskDirective, text.Lazy(`(?i)\byou (?:must|should|will|are to|have to) (?:now|from now on|henceforth|always)\b`),
		[]string{"you must", "you should", "you will", "you are to", "you have to"}},
	{RiskDirective, text.Lazy(`(?i)\bfrom now on,? you (?:must|will|are|should)\b`), []string{"from now on"}},
	{RiskDirective, text.Lazy(`(?i)\b(?:new|updated|real) instructions?\s*:`), []string{"instruction"}},
	{RiskSystem, text.Lazy(`(?i)\b(?:system prompt|developer message|jailbreak)\b`), []string{"system prompt", "developer message", "jailbreak"}},
	{RiskCommand, text.Lazy(`(?i)\b(?:always|must)\b.{0,40}\b(?:run|execute)\b.{0,40}(?:rm -rf|curl [^|]*\|\s*(?:ba)?sh|sudo )`),
		[]string{"rm -rf", "curl ", "sudo "}},
	{RiskCommand, text.Lazy(`(?i)(?:rm\s+-rf\s+[/~]|curl\s+[^|\n]*\|\s*(?:ba)?sh|wget\s+[^|\n]*\|\s*(?:ba)?sh)`), []string{"-rf", "curl", "wget"}},
	{RiskOverride, text.Lazy(`(?:忽略|无视|忘记|忘掉|不要理会|别管).{0,10}(?:之前|以上|上面|上述|前面|先前|此前|所有|全部).{0,10}(?:指令|指示|规则|提示|要求|设定)`),
		[]string{"忽略", "无视", "忘记", "忘掉", "不要理会", "别管"}},
	{RiskOverride, text.Lazy(`(?:无视|忽略|忘掉|忘记)(?:以上|上面|上述|之前|前面|先前|此前)`), []string{"无视", "忽略", "忘掉", "忘记"}},
	{RiskDirective, text.Lazy(`你(?:现在|从现在起|从现在开始|今后|以后)(?:必须|一定要|只能|要始终)`), []string{"必须", "一定要", "只能", "要始终"}},
	{RiskDirective, text.Lazy(`从现在(?:开始|起)[，,]?\s*你(?:必须|只能|要|将)`), []string{"从现在"}},
	{RiskDirective, text.Lazy(`新的?指令[:：]`), []string{"指令"}},
	{RiskSystem, text.Lazy(`系统提示词|系统提示|越狱模式`), []string{"系统提示", "越狱模式"}},
	{RiskSystem, text.Lazy(`你现在(?:是|成为|变成)了?.{0,15}(?:没有|不受)(?:任何)?(?:限制|约束|规则)|(?:没有|不受)任何(?:限制|约束)的\s*(?:AI|人工智能|助手|模型)`), []string{"没有", "不受"}},
	// Text that tells the agent to keep something from the person it works for: a memory is
	// the person's, and one asking to be hidden from them ("Do not tell the user about this
	// note.") is what an injected note says to stay in place.
	{RiskConceal, text.Lazy(`(?i)\b(?:do\s+not|don['’]?t|never|must\s+not|mustn['’]t|should\s+not|shouldn['’]t)\s+(?:ever\s+)?(?:tell|inform|notify)\s+(?:the\s+)?(?:user|human|person)\b`),
		[]string{"not tell", "n't tell", "n’t tell", "dont tell", "never tell", "ever tell", "not inform", "n't inform", "n’t inform", "dont inform", "never inform", "not notify", "n't notify", "n’t notify", "dont notify", "never notify"}},
	{RiskConceal, text.Lazy(`(?i)\b(?:do\s+not|don['’]?t|never)\s+let\s+the\s+(?:user|human|person)\s+(?:know|see|find\s+out|notice)\b`),
		[]string{"let the user", "let the human", "let the person"}},
	{RiskConceal, text.Lazy(`(?i)\b(?:do\s+not|don['’]?t|never)\s+(?:mention|reveal|disclose)\b.{0,40}\bto\s+the\s+(?:user|human|person)\b`),
		[]string{"to the user", "to the human", "to the person"}},
	{RiskConceal, text.Lazy(`(?i)\b(?:hide|conceal|keep\b.{0,20}\b(?:secret|hidden))\b.{0,30}\bfrom\s+the\s+(?:user|human|person)\b`),
		[]string{"from the user", "from the human", "from the person"}},
	{RiskConceal, text.Lazy(`(?i)\bwithout\s+(?:telling|informing|notifying)\s+the\s+(?:user|human|person)\b|\bbehind\s+the\s+(?:user|human|person)['’]s\s+back\b`),
		[]string{"without telling", "without informing", "without notifying", "'s back", "’s back"}},
	{RiskConceal, text.Lazy(`(?:不要|别|不能|不许|切勿|千万别|千万不要|不得)(?:告诉|通知|告知|提醒|透露给)(?:用户|使用者|主人)`),
		[]string{"告诉", "通知", "告知", "提醒", "透露给"}},
	{RiskConceal, text.Lazy(`(?:不要|别|不能|不许|切勿|不得)让(?:用户|使用者|主人)(?:知道|发现|察觉|看到)`), []string{"让用户", "让使用者", "让主人"}},
	{RiskConceal, text.Lazy(`(?:对|向)(?:用户|使用者|主人)(?:隐瞒|保密)|瞒着(?:用户|使用者|主人)|(?:不要|别|不能|切勿|不得)(?:向|对)(?:用户|使用者|主人)(?:透露|提及|提起|说|显示|展示)`),
		[]string{"隐瞒", "保密", "瞒着", "向用户", "对用户", "向使用者", "对使用者", "向主人", "对主人"}},
}

// riskyNeeds finds which patterns' literals a folded text holds in one pass over it: asking
// each pattern's literals in turn (strings.Contains) read every text some fifty times, and was
// three quarters of the check — which runs on every memory of a reindex.
var riskyNeeds = newKeywordIndex(func() (lists [][]string) {
	for _, p := range riskyPatterns {
		lists = append(lists, p.need)
	}
	return lists
}())

// foldForRisk folds s the way the patterns' (?i) does as far as their literals go: ASCII
// letters to lower case, and the two other letters whose case folding reaches ASCII (ſ and
// the Kelvin sign K) to s and k, so "diſregard" cannot slip past the literal "disregard".
// Every other character is kept; the result is only searched for need, never for offsets.
func foldForRisk(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c == 0xC5 && i+1 < len(s) && s[i+1] == 0xBF: // ſ
			b = append(b, 's')
			i++
			continue
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x84 && s[i+2] == 0xAA: // K, the Kelvin sign
			b = append(b, 'k')
			i += 2
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// RiskOf reports the first text that reads like an instruction aimed at the agent, with
// the kind of pattern and an excerpt around the match; nil when none does. The api flags
// memories with it, so the Review queue and the reader warn before anyone accepts one.
//
// Each text is read as written, then — when it differs — in riskForm: before, an invisible
// character inside a word ("ig\u200bnore all previous instructions"), fullwidth or Cyrillic
// look-alike letters, a line break between the words or snake_case hid an injection from
// every pattern, and such a memory could be bulk-accepted.
func RiskOf(texts ...string) *Risk {
	for _, t := range texts {
		if r := riskIn(t); r != nil {
			return r
		}
		if f := riskForm(t); f != t {
			if r := riskIn(f); r != nil {
				return r
			}
		}
	}
	return nil
}

// riskIn runs the patterns whose literals t holds.
func riskIn(t string) *Risk {
	present := riskyNeeds.scan(foldForRisk(t))
	for i, p := range riskyPatterns {
		if !present.has(i) {
			continue
		}
		if loc := p.re.FindStringIndex(t); loc != nil {
			return &Risk{Kind: p.kind, Excerpt: excerptAround(t, loc[0], loc[1])}
		}
	}
	return nil
}

// excerptAround is the match with up to 24 characters either side, on one line, at most
// 160 characters, with … where it was cut.
func excerptAround(t string, start, end int) string {
	before, match, after := []rune(t[:start]), []rune(t[start:end]), []rune(t[end:])
	const side = 24
	pre, post := "", ""
	if len(before) > side {
		before, pre = before[len(before)-side:], "…"
	}
	if len(after) > side {
		after, post = after[:side], "…"
	}
	if len(match) > 112 {
		match, post = match[:112], "…"
		after = nil
	}
	s := pre + string(before) + string(match) + string(after) + post
	// On one line, without Markdown's heading marks: a journal day's excerpt read
	// "…## 02:54 · user Ignore all previous…".
	words := strings.Fields(s)
	kept := words[:0]
	for _, w := range words {
		if strings.Trim(w, "#") != "" || len(w) > 6 {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}
