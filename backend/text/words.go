package text

import (
	"strings"
	"unicode"
)

// Token is a word of alphabetic script (lower-cased, possessive 's dropped) or a run of CJK
// characters.
type Token struct {
	Text string
	CJK  bool
	// Upper is true when the word started with an upper-case letter in the source.
	Upper bool
}

// Split breaks s into tokens. Letters, digits and combining marks make words; an apostrophe
// inside a word is dropped ("don't" → "dont") and a trailing possessive 's removed
// ("Caroline's" → "caroline"); everything else separates.
func Split(s string) []Token {
	var out []Token
	var cur []rune
	curCJK, upper := false, false
	flush := func() {
		if len(cur) == 0 {
			return
		}
		t := string(cur)
		if !curCJK {
			t = strings.ToLower(t)
		}
		out = append(out, Token{Text: t, CJK: curCJK, Upper: upper})
		cur = cur[:0]
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case IsCJK(r):
			if !curCJK {
				flush()
			}
			curCJK = true
			cur = append(cur, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if curCJK {
				flush()
			}
			if len(cur) == 0 {
				upper = unicode.IsUpper(r)
			}
			curCJK = false
			cur = append(cur, r)
		case (r == '\'' || r == '’') && !curCJK && len(cur) > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			// "Caroline's" → "caroline"; "don't" → "dont".
			if (rs[i+1] == 's' || rs[i+1] == 'S') && (i+2 >= len(rs) || !unicode.IsLetter(rs[i+2])) {
				i++
				flush()
				continue
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

// Words returns the lower-cased alphabetic words of s that are not stop words, each with its
// stem, in order (CJK runs are skipped).
func Words(s string) (words, stems []string) {
	for _, t := range Split(s) {
		if t.CJK || IsStop(t.Text) {
			continue
		}
		words = append(words, t.Text)
		stems = append(stems, Stem(t.Text))
	}
	return words, stems
}

// IsStop reports whether an English word (lower case) carries no topic: articles, pronouns,
// auxiliaries, question words, common prepositions.
func IsStop(w string) bool { _, ok := englishStop[w]; return ok }

var englishStop = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`a an the and or but if of at by for with about against between into through
	during before after above below to from up down in out on off over under again further then once here there
	when where why how all any both each few more most other some such no nor not only own same so than too very
	s t can will just don should now i me my myself we our ours ourselves you your yours yourself yourselves he him
	his himself she her hers herself it its itself they them their theirs themselves what which who whom whose
	this that these those am is are was were be been being have has had having do does did doing would could
	ought im youre hes shes its were theyre ive youve weve theyve id youd hed shed wed theyd ill youll hell shell
	well theyll isnt arent wasnt werent hasnt havent hadnt doesnt dont didnt wont wouldnt shant shouldnt cant
	cannot couldnt mustnt lets thats whos whats heres theres whens wheres whys hows also ever kind sort yes yeah
	oh ok okay hey hi hello please thanks thank may might must shall get got gets`) {
		m[w] = struct{}{}
	}
	return m
}()

// chineseStop are function words cut out of CJK runs before bigrams are formed. Only words that
// rarely begin or end a content word are listed as single characters; longer ones are matched
// first.
var chineseStop = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`的 了 吗 呢 吧 啊 呀 嘛 哦 哈 么 着
	什么 为什么 怎么 怎么样 怎样 如何 哪里 哪儿 哪个 哪些 那些 这些 那个 这个 一个 一下 一些 有没有 是不是
	我们 你们 他们 她们 它们 咱们 自己 大家 我的 你的 他的 她的 它的
	是 在 和 与 及 或 或者 还是 而且 但是 可是 不过 因为 所以 如果 虽然 然后 就是 只是 也是 都是 还有
	我 你 他 她 它 您 谁 这 那 哪 也 都 就 还 很 又 才 被 把 给 让 从
	没有 可以 时候 什么时候 多久 多少 哪天 哪年 何时 请 请问 一直 已经 曾经 正在 现在 知道 觉得 认为`) {
		m[w] = struct{}{}
	}
	return m
}()

// maxChineseStop is the longest stop word in runes.
const maxChineseStop = 4

// IsChineseStop reports whether w is a Chinese function word.
func IsChineseStop(w string) bool { _, ok := chineseStop[w]; return ok }

// Chunks cuts a CJK run at function words, longest match first, and returns the content
// chunks in order: "卡罗琳什么时候去的支持小组" → ["卡罗琳", "支持小组"]. A run of two
// characters is a word as typed ("的确", "他们" stays a query of its own): it is never cut,
// unless it is a function word itself.
func Chunks(run string) []string {
	rs := []rune(run)
	if len(rs) <= 2 {
		if IsChineseStop(run) {
			return nil
		}
		return []string{run}
	}
	var out []string
	start := 0
	for i := 0; i < len(rs); {
		n := 0
		for l := min(maxChineseStop, len(rs)-i); l >= 1; l-- {
			if IsChineseStop(string(rs[i : i+l])) {
				n = l
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		if i > start {
			out = append(out, string(rs[start:i]))
		}
		i += n
		start = i
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}
