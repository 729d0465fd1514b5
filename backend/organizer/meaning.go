package organizer

// Words that set what a statement says rather than what it is about: the prepositions of time,
// place and direction, modals, quantifiers, polarity and person ("before" / "after", "on" /
// "off", "must" / "may", "he" / "she"), and the pairs of opposite meaning ("enable" /
// "disable"). Most are English stop words, which the rarity of content words never sees, so
// they are compared on their own: two texts alike but for one of them say different things.

import (
	"sort"
	"strings"

	"engram/backend/text"
)

// meaningWords are English words (lower case, as Normalize leaves them) that set a statement's
// sense; a fuzzy match whose texts differ in one of them is guarded (GuardMeaning), and a
// contained text that gains one inside its own clause is not a copy of the longer text.
var meaningWords = wordSet(`
	before after during until till since then now once again already yet still soon later earlier
	first last next previous
	above below over under up down in out on off into onto inside outside between against
	through within beyond near far here there
	can could may might must shall should will would ought
	all any both each every few more most less least many much several some only other enough
	half either
	yes true false always often usually sometimes rarely seldom ever
	he she him her his hers himself herself i me my mine myself we us our ours ourselves
	you your yours yourself yourselves
	but except unless however instead although though otherwise anymore longer if`)

// contrastWords restrict or take back what comes before them: a clause added to a contained
// text with one of them ("…, except for billing", "… Not anymore.") may change what the shorter
// text says, so the merge waits for a person.
var contrastWords = wordSet(`but except unless however instead although though otherwise anymore longer only`)

// cjkMeaningWords are the Chinese words of the same kind, found in CJK runs as written (most
// are function words, cut out of the content characters).
var cjkMeaningWords = strings.Fields(`可以 一直 已经 曾经 正在 现在 都 从 被 但 但是 除了 除非 只有 仅 然而 否则 而是 却`)

// cjkContrastWords are the Chinese contrastWords.
var cjkContrastWords = strings.Fields(`但是 但 除了 除非 只有 仅 然而 否则 而是 却`)

// opposites pairs words of opposite meaning: English by stem, Chinese as written. A clause
// added to a contained text that holds the opposite of one of its words ("Keep it on." /
// "Keep it on. Turn it off at night.") contradicts it rather than adding to it.
var opposites = func() map[string][]string {
	m := map[string][]string{}
	pair := func(a, b string) {
		m[a] = append(m[a], b)
		m[b] = append(m[b], a)
	}
	for _, p := range strings.Fields(`before/after above/below over/under on/off up/down in/out
		inside/outside first/last min/max minimum/maximum more/less most/least all/none all/some
		always/never always/sometimes must/may must/can should/may yes/no true/false enable/disable
		enabled/disabled increase/decrease allow/deny allow/forbid allow/block include/exclude
		accept/reject start/stop open/close begin/end add/remove show/hide lock/unlock
		encrypt/decrypt install/uninstall import/export push/pull read/write input/output
		upper/lower higher/lower high/low early/late earlier/later fast/slow faster/slower
		public/private local/remote online/offline internal/external inbound/outbound
		ascending/descending required/optional mandatory/optional success/failure succeed/fail
		pass/fail valid/invalid like/dislike love/hate prefer/avoid good/bad better/worse
		best/worst he/she him/her his/her left/right top/bottom front/back forward/backward
		sync/async synchronous/asynchronous plus/minus big/small large/small long/short
		wide/narrow hot/cold day/night morning/evening weekday/weekend light/dark
		allowlist/denylist whitelist/blacklist send/receive upload/download connect/disconnect
		subscribe/unsubscribe approve/reject grant/revoke expand/collapse enter/exit
		inclusive/exclusive strict/lenient
		之前/之后 以前/以后 以上/以下 打开/关闭 开启/关闭 启用/禁用 允许/禁止 增加/减少 提高/降低
		最多/最少 上午/下午 早上/晚上 上班/下班 总是/从来 必须/可以 同步/异步 公开/私有 本地/远程
		成功/失败 喜欢/讨厌`) {
		a, b, _ := strings.Cut(p, "/")
		pair(meaningUnit(a), meaningUnit(b))
	}
	return m
}()

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// cjkOpposites are the Chinese words of opposites, found in CJK runs as written.
var cjkOpposites = func() []string {
	var out []string
	for w := range opposites {
		if text.HasCJK(w) {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}()

// meaningUnit is how a word is compared: a word of meaningWords as written, any other
// English word by its stem ("enabled" and "enable" are one), Chinese as written.
func meaningUnit(w string) string {
	if meaningWords[w] || text.HasCJK(w) {
		return w
	}
	return text.Stem(w)
}

// isMeaningWord reports whether a unit of meaningUnits is a word of meaningWords or
// cjkMeaningWords (not only one of a pair of opposites).
func isMeaningWord(u string) bool {
	if text.HasCJK(u) {
		for _, w := range cjkMeaningWords {
			if w == u {
				return true
			}
		}
		return false
	}
	return meaningWords[u]
}

// meaningUnits maps the meaning words and opposite-pair members of normalised text to a
// surface form: English words of meaningWords, English words of opposites (by stem), and the
// Chinese words of cjkMeaningWords and opposites found in its CJK runs. Numbers and
// negations are left out: the guard of marked tokens covers them.
func meaningUnits(norm string) map[string]string {
	out := map[string]string{}
	for _, tok := range text.Split(norm) {
		if tok.CJK {
			for _, list := range [][]string{cjkMeaningWords, cjkOpposites} {
				for _, w := range list {
					if strings.Contains(tok.Text, w) {
						out[w] = w
					}
				}
			}
			continue
		}
		if marksMeaning(tok.Text) {
			continue
		}
		u := meaningUnit(tok.Text)
		if meaningWords[tok.Text] || opposites[u] != nil {
			if _, ok := out[u]; !ok {
				out[u] = tok.Text
			}
		}
	}
	return out
}

// meaningWordsOf keeps the units of meaningUnits that are words of meaning (isMeaningWord).
func meaningWordsOf(units map[string]string) map[string]string {
	out := map[string]string{}
	for u, s := range units {
		if isMeaningWord(u) {
			out[u] = s
		}
	}
	return out
}

// meaningDiffers names how the meaning units of two texts differ, or "": the words of meaning
// either holds and the other lacks ("before / after", "must"), else a pair of opposites split
// between them ("enable / disable").
func meaningDiffers(a, b map[string]string) string {
	wa, wb := meaningWordsOf(a), meaningWordsOf(b)
	if differ(wa, wb) || differ(wb, wa) {
		return distinctWords(sortedSurface(wa, wb), sortedSurface(wb, wa))
	}
	if x := opposed(a, b); x != "" {
		return x + " / " + opposed(b, a)
	}
	return ""
}

// sortedSurface lists, in order, at most maxShownWords surface forms of the units of x that y
// lacks.
func sortedSurface(x, y map[string]string) []string {
	var out []string
	for u, s := range x {
		if _, ok := y[u]; !ok {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	if len(out) > maxShownWords {
		out = out[:maxShownWords]
	}
	return out
}

// opposed names a unit of x whose opposite y holds while y lacks the unit itself, or "".
func opposed(x, y map[string]string) string {
	var hits []string
	for u, s := range x {
		if _, ok := y[u]; ok {
			continue
		}
		for _, o := range opposites[u] {
			if _, ok := y[o]; ok {
				hits = append(hits, s)
				break
			}
		}
	}
	sort.Strings(hits)
	if len(hits) == 0 {
		return ""
	}
	return hits[0]
}
