package extraction

import (
	"strings"
	"unicode/utf8"

	"engram/backend/text"
)

// analyse runs every rule family over the person's message: first the experience rule (it
// spans sentences), then each remaining sentence's findings (one, or one per identity fact it
// states), plus profile signals.
func analyse(msg string) ([]finding, []ProfileSignal) {
	// Quoted and pasted words are someone else's, a credential is never kept: none is read.
	mask := maskCredentials(msg, maskPasted(msg, maskQuotes(msg)))
	lower := lowerASCII(mask)
	sents := splitSentences(msg, mask)
	var ps profile
	var out []finding
	if f, ok := experience(msg, lower, sents, &ps); ok {
		out = append(out, f)
	}
	for i := range sents {
		s := &sents[i]
		topics(s, &ps)
		if s.consumed {
			continue
		}
		got := sentenceRules(s, &ps)
		if rest := afterPreamble(s); len(got) == 0 && rest != nil {
			got = sentenceRules(rest, &ps)
		}
		out = append(out, got...)
	}
	return out, ps.sortedSignals()
}

// sentenceRules runs the rules of the sentence's language.
func sentenceRules(s *sentence, ps *profile) []finding {
	if s.cjk {
		return zhRules(s, ps)
	}
	return enRules(s, ps)
}

// preambleSays are words of a head that quotes someone: what follows its colon is theirs.
var preambleSays = text.Lazy(`(?i)(?:said|says|say|wrote|writes|told|tells|asked|asks|replied|answered)|说|写道|问|回答|表示`)

// afterPreamble is the sentence after a short head that ends in a colon ("No, that's wrong:
// never use sudo pip install, always use a virtualenv.", "不对，这样是错的：…"), for a sentence
// no rule read whole: the statement after it is the person's, the head only frames it (a
// correction, a "tip", a "note"). nil when there is none, the head is long (more than six
// words, or twelve characters of Chinese) or quotes someone ("He said: …"). The trigger: a
// correction with such a head produced nothing.
func afterPreamble(s *sentence) *sentence {
	i, n := strings.Index(s.mask, ": "), 2
	if j := strings.Index(s.mask, "："); j >= 0 && (i < 0 || j < i) {
		i, n = j, len("：")
	}
	if i <= 0 {
		return nil
	}
	head := s.mask[:i]
	if len(strings.Fields(head)) > 6 || utf8.RuneCountInString(head) > 40 || (s.cjk && utf8.RuneCountInString(head) > 12) ||
		preambleSays.MatchString(head) || strings.TrimSpace(s.mask[i+n:]) == "" {
		return nil
	}
	if s.cjk {
		if enThird.MatchString(strings.ToLower(head)) || expThirdZH.MatchString(head) {
			return nil
		}
	} else if enThird.MatchString(strings.TrimSpace(s.lower[:i])) {
		return nil
	}
	rest := s.from(i + n)
	for j, r := range rest.mask {
		if r != ' ' {
			return s.from(i + n + j)
		}
	}
	return nil
}

// Experience markers: what hurt, what was done about it, how it ended.
var (
	expSolutionEN = text.Lazy(`\b(?:what (?:finally |really )?(?:fixed|solved|helped|worked)(?: it)? was|the (?:fix|solution|answer|trick) was|the culprit was|turned out|(?:fixed|solved|resolved|cured) it|fixed by|solved by|switching to|switched to|moved to|by (?:switching|using|adding|removing|disabling|turning|cutting|moving)|helped a lot|did the trick)\b`)
	expPainEN     = text.Lazy(`\b(?:hit this|ran into|run into|had this|had the same|same (?:error|issue|problem|bug)|last (?:year|time|month|week)|kept|keep|keeps|constant|constantly|every (?:night|day|time|morning|week)|for (?:months|weeks|days|years|ages)|struggl\w*|spent (?:\w+ )?(?:days|hours|weeks|nights)|flaky|crash\w*|fail\w*|too slow|slow|broke|broken|leak\w*|timeouts?|oom|diverg\w*|stuck|couldn't|could not|didn't help|did not help|didn't work|did not work|problems?|issues?)\b`)
	expOutcomeEN  = text.Lazy(`\b(?:now|since then|ever since|since$|dropped|went down|went from|has been|have been|no longer|anymore|is green|are green|stable|faster|from \S+ (?:\S+ )?to)\b`)
	expMineEN     = text.Lazy(`\b(?:i|we|my|our|i've|we've|i'm|we're|i was|we were|us)\b`)

	expSolutionZH = text.Lazy(`后来|最后|改成|换成|改用|换了|换用|用了|通过|解决|发现是|原因是|关掉|去掉|加上|加了|改了|改为|升级到|降级到`)
	expPainZH     = text.Lazy(`遇到过|碰到过|踩过坑|出过|同样的问题|老是|总是|一直|经常|特别慢|很慢|太慢|卡顿|崩溃|失败|报错|失眠|没用|不管用|没效果|OOM|oom|泄漏|超时|之前|以前|每次|头疼|难受`)
	expOutcomeZH  = text.Lazy(`现在|之后|以后|降到|降低|稳定|快了|好了|再也没|不再|终于|提升|减少|缩短`)
	strongSolEN   = text.Lazy(`\b(?:what (?:finally |really )?(?:fixed|solved|helped|worked)|the (?:fix|solution|answer|trick) was|the culprit was|turned out|(?:fixed|solved|resolved|cured) it|fixed by|solved by|helped|did the trick)\b`)
	strongSolZH   = text.Lazy(`后来|最后|解决|发现是|原因是`)
	expJoinWord   = text.Lazy(`^(?i:and|so|but|then|and then|and so)\s+`)
	expJoinTail   = text.Lazy(`(?i)\s+(?:and|so|but|then|too and|and then)$`)
	expThirdZH    = text.Lazy(`^(?:我的?)?(?:朋友|同事|老婆|老公|妻子|丈夫|妈妈|爸爸|母亲|父亲|哥哥|姐姐|弟弟|妹妹|老板|领导|同学|孩子|儿子|女儿)|^(?:他|她|他们|她们|别人|有人|听说)`)
)

// experience finds pain → solution → outcome in one message ("we had constant OOM kills …
// what fixed it was … memory dropped …"). It needs a solution and a pain or an outcome, and the
// person among those it happened to (subjects are often dropped in Chinese, so there it
// needs only that nobody else is the subject).
func experience(msg, lower string, sents []sentence, ps *profile) (finding, bool) {
	if len(sents) == 0 {
		return finding{}, false
	}
	cjk := strings.ContainsFunc(lower, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff })
	sol, pain, out := expSolutionEN, expPainEN, expOutcomeEN
	if cjk {
		sol, pain, out = expSolutionZH, expPainZH, expOutcomeZH
	}
	var pains, sols, outs []clause
	first, last := -1, -1
	for si := range sents {
		s := &sents[si]
		g := false
		if s.cjk {
			g = zhGuarded(s)
		} else {
			// "What fixed it was …" opens like a question but states the fix.
			g = enGuarded(s) && !(expSolutionEN.MatchString(s.lower) && !strings.HasSuffix(s.lower, "?"))
		}
		if g {
			continue
		}
		for _, c := range splitClauses(lower, s.start, s.end) {
			role := false
			if m := sol.FindStringIndex(c.lower); m != nil {
				// "We hit this last year and the fix was …": what hurt, then the fix, in one clause.
				if m[0] > 0 && len(sols) == 0 && pain.MatchString(c.lower[:m[0]]) {
					pains = append(pains, clause{start: c.start, end: c.start + m[0]})
					c = clause{start: c.start + m[0], end: c.end, lower: c.lower[m[0]:]}
					m = []int{0, m[1] - m[0]}
				}
				// "… fixed it and the suite is green since": the outcome after the fix is its own part.
				if o := out.FindStringIndex(c.lower[m[1]:]); o != nil && strings.TrimSpace(c.lower[m[1]:m[1]+o[0]]) != "" {
					cut := c.start + m[1] + o[0]
					sols = append(sols, clause{start: c.start, end: cut})
					outs = append(outs, clause{start: cut, end: c.end})
				} else {
					sols = append(sols, c)
				}
				role = true
			} else if out.MatchString(c.lower) && len(sols) > 0 {
				outs = append(outs, c)
				role = true
			} else if pain.MatchString(c.lower) && len(sols) == 0 {
				pains = append(pains, c)
				role = true
			}
			if role {
				if first < 0 {
					first = si
				}
				last = si
			}
		}
	}
	strong := strongSolEN
	if cjk {
		strong = strongSolZH
	}
	strongSol := false
	for _, c := range sols {
		strongSol = strongSol || strong.MatchString(lower[c.start:c.end])
	}
	// "老把我的 CSS 改成 Tailwind" names a change, not a fix: a change alone needs an outcome.
	if len(sols) == 0 || (len(pains) == 0 && len(outs) == 0) || (!strongSol && len(outs) == 0) {
		return finding{}, false
	}
	if cjk {
		if expThirdZH.MatchString(strings.TrimSpace(msg)) {
			return finding{}, false
		}
	} else if !expMineEN.MatchString(lower) || enThird.MatchString(strings.TrimSpace(lower)) {
		return finding{}, false
	}
	for i := first; i <= last; i++ {
		sents[i].consumed = true
	}
	join := func(cs []clause, sep string) string {
		var parts []string
		for _, c := range cs {
			p := trimPunct(msg[c.start:c.end])
			if !cjk {
				p = expJoinTail.ReplaceAllString(expJoinWord.ReplaceAllString(p, ""), "")
			}
			if p = clipRunes(p, offlinePhraseRunes); p != "" {
				parts = append(parts, p)
			}
		}
		return clipRunes(strings.Join(parts, sep), 2*offlinePhraseRunes)
	}
	labels := [3]string{"Pain: ", "Solution: ", "Outcome: "}
	sep, titleLead := "; ", "What worked: "
	if cjk {
		labels = [3]string{"痛点：", "解决：", "结果："}
		sep, titleLead = "；", "经验："
	}
	solution := join(sols, sep)
	var body []string
	if len(pains) > 0 {
		p := join(pains, sep)
		body = append(body, labels[0]+p)
		ps.add(SignalPainPoint, msg[pains[0].start:pains[0].end], msg[pains[0].start:pains[0].end])
	}
	body = append(body, labels[1]+solution)
	if len(outs) > 0 {
		body = append(body, labels[2]+join(outs, sep))
	}
	return finding{typ: "experience", kind: "fix", slugKey: solution, title: titleLead + solution,
		body: strings.Join(body, "\n"), start: sols[0].start, end: sents[last].end, rule: "experience"}, true
}

var (
	askNameEN  = text.Lazy(`(?i)\b(?:what(?:'s| is) your name|what should i call you|how should i (?:call|address) you|may i (?:ask|have) your name)\b`)
	askNameZH  = text.Lazy(`你叫什么|怎么称呼|您贵姓|你的名字是|我该怎么叫你`)
	nameOnlyEN = text.Lazy(`^(?:(?i:it's|its|i'm|im|i am|call me|just|my name is)\s+)?(\p{Lu}[\p{L}'-]{1,20}(?:\s\p{Lu}[\p{L}'-]{1,20})?)[.!]?$`)
	nameOnlyZH = text.Lazy(`^(?:我叫|叫我|我是)?(\p{Han}{2,4})(?:就行|就好|吧)?[。！!]?$`)
)

// answeredName reads a short reply to the assistant asking the person's name ("What should I
// call you?" — "Priya"). The name itself is the person's words; the question only says what
// they mean.
func answeredName(asked, msg string) (finding, bool) {
	t := strings.TrimSpace(msg)
	var m []int
	zh := false
	switch {
	case askNameEN.MatchString(asked):
		m = nameOnlyEN.FindStringSubmatchIndex(t)
	case askNameZH.MatchString(asked):
		m, zh = nameOnlyZH.FindStringSubmatchIndex(t), true
	}
	if m == nil {
		return finding{}, false
	}
	off := strings.Index(msg, t)
	name := t[m[2]:m[3]]
	if !zh && nameStop[strings.ToLower(name)] {
		return finding{}, false
	}
	title, body := "Name: "+name, "Name: "+name+".\n\nAsked for their name, the person answered: “"+t+"”"
	if zh {
		title, body = "姓名："+name, "姓名："+name+"。\n\n被问到称呼时，用户回答：“"+t+"”"
	}
	return finding{typ: "user", kind: "identity", slug: "user-name", title: title, body: body,
		start: off, end: off + len(t), rule: "answered-name"}, true
}
