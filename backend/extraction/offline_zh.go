package extraction

import (
	"strings"

	"engram/backend/text"
)

// Chinese patterns. Like the English ones they need the person as the subject (我 followed
// directly by the verb or an adverb, so 我同事喜欢… is not the person) or an instruction to the
// agent, and they skip questions, hypotheticals, hedges, sarcasm and sentences about others.
var (
	zhLead = `^(?:(?:另外|还有|对了|顺便说一下|哦|噢|好的|嗯)[，,]?\s*)?`

	zhRememberPre  = text.Lazy(zhLead + `(?:请|麻烦你?|你)?(?:帮我|给我)?(?:记住|记一下|记下来|记下|记着|牢记|别忘了)(?:哦|啊|吧|了)?[：:，,、]?\s*`)
	zhRememberProj = text.Lazy(zhLead + `(?:在|对)?(?:这个|本|当前)(?:项目|仓库|repo|代码库)(?:里|中|上)?[，,]?\s*(?:请)?(?:帮我)?(?:记住|记一下|记下)[：:，,、]?\s*`)
	zhRememberSuf  = text.Lazy(`[，,。\s]*(?:记住了|记住哦|记住啊|记住|记下来|记一下)[。！!~～]*$`)
	zhPin          = text.Lazy(`这个项目|本项目|这个仓库|当前项目|这个repo|这个代码库`)
	zhAboutMe      = text.Lazy(`^我(?:[^们]|$)`)
	zhImperative   = text.Lazy(`^(?:以后|今后|不要|别|一律|统一|每次|总是|永远|要|请|用|先|千万|记得)|统一|一律|不要|别再|必须`)

	zhDurable = text.Lazy(`问过我|问我之前|先问我|经过我同意|以后|今后|往后|从现在(?:开始|起)|永远|千万|老是|老把|总把|一律|统一|每次|总是|始终|任何时候|所有|默认|再也|别再|不要再|都要|都用|先问我`)
	zhFromNow = text.Lazy(zhLead + `(?:以后|今后|往后|从现在(?:开始|起))`)
	// zhDont: an instruction not to, at the start of a sentence or clause (after a lead word,
	// or a topic naming this project: "这个代码库不要用制表符"), or after an adverb that makes it one.
	zhDont       = text.Lazy(`(?:(?:^|[，,])(?:另外|还有|对了|顺便说一下)?[，,]?\s*(?:(?:在)?(?:这个|本|当前)(?:项目|仓库|repo|代码库)(?:里|中|上)?[，,]?\s*)?(?:请|你)?|千万|永远|一定|绝对|之前)(?:不要|别|不准|禁止|不许)`)
	zhDontUse    = text.Lazy(`(?:不要|别|不准|禁止|不许)(?:再)?(?:在[^，,。]{1,8}?)?(?:用|使用)\s*[A-Za-z]`)
	zhUseNot     = text.Lazy(`用(?:[^，,。]{1,20}?)[，,]\s*(?:别|不要|不用)(?:再)?用`)
	zhStyle      = text.Lazy(`(?:回答|回复|说话|解释|输出|注释)(?:的时候|时)?(?:请|要|尽量|都)?(简洁|简短|简单|详细|精炼|短)|(?:别|不要)(?:太)?(啰嗦)|(少(?:点|些|说)?废话|少啰嗦|别废话)`)
	zhLangPref   = text.Lazy(`(?:回答|回复)(?:都|请|一律)?用(中文|英文|英语)|用(中文|英文|英语)(?:回答|回复)`)
	zhAnswerRule = text.Lazy(`^(?:以后)?(?:回答|回复|解释|输出|给我的代码|代码)(?:的时候|时|里|中)?(?:都|请|一律)?(?:别|不要|尽量不要|少)(?:再)?用`)
	zhTaskish    = text.Lazy(`这次|这回|先别|暂时|今天|回头再说|以后再说|再说吧|这一步|现在先|顺便|这个函数|这个文件|这段|这里|这行|这个问题|这道题|这句|这个页面|这个按钮`)

	zhDiet       = text.Lazy(`我(?:自己|本人)?(?:也)?(?:只|不|从不|不太能|不能|不会|很少)(?:吃|喝)[^，,。！!？?]{1,20}|我对[^，,。]{1,10}?过敏|我(?:吃素|是素食者?)|我(?:每天|天天)(?:早上|晚上|中午)?(?:都)?(?:要|会)?(?:喝|吃)[^，,。]{1,20}`)
	zhLike       = text.Lazy(`我(?:自己|本人)?(?:也|还是|一直|平时|比较)?(?:很|最|比较|更|特别|非常|超|挺|蛮)?(?:喜欢|偏爱|偏好|热爱|钟爱)`)
	zhDislike    = text.Lazy(`我(?:自己|本人)?(?:也)?(?:从来|从不|一直|很|最|比较|特别|非常|真的|挺|蛮|超|真|有点)?(?:不太喜欢|不喜欢|不爱|讨厌|受不了|反感|不习惯)`)
	zhUse        = text.Lazy(`我(?:平时|一般|主要|一直|现在|目前|比较)?(?:都)?(?:习惯)?(?:用的是|使用的是|用的|用|使用|在用)\s*([A-Za-z][\w.+#-]*)`)
	zhTeamUse    = text.Lazy(`(?:^|[，,])我们(?:团队|组|公司|部门|实验室)?(?:主要|都|一直|现在|目前)?(?:用|使用|在用)\s*([A-Za-z][\w.+#-]*)`)
	zhHabit      = text.Lazy(`我(?:主要|平时|一般|经常|只|通常)(?:听|看|玩|读|喝|吃|穿|开)|我(?:主要|平时|一般|经常|通常|都)在[^，,。]{1,12}?(?:跑|写|开发|部署|测试)`)
	zhRuleAll    = text.Lazy(`^(?:给我|帮我|[^我]){0,16}?(?:一律|统一|每次都)[^，,。！!？?的了]`)
	zhConvention = text.Lazy(`(?:保持|遵守|沿用|按照)(?:这个|这种|我们的|现在的)(?:约定|规范|风格|习惯|结构|目录结构|命名)`)
	zhNote       = text.Lazy(zhLead + `(?:注意|请注意)[：:，,]?\s*(?:我们|我)`)
	zhNoteNot    = text.Lazy(`^(?:刚才|上面|前面|之前|说的|写的|改的)`)
	zhBadObject  = text.Lazy(`^(?:这|那|你|您|它|他|她|上面|刚才)`)
	zhPolite     = text.Lazy(`^(?:你)?(?:能不能|可不可以|可以|麻烦)(?:你)?(?:别再|不要再|以后别|以后不要)`)
	zhWeConv     = text.Lazy(`我们(?:从来|从不|一直|永远|都|一律)(?:不用|不写|不加|不放|只用|用)`)
	zhDietNot    = text.Lazy(`(?:吃|喝)(?:这|那)`)
	zhPointer    = text.Lazy(`^(?:这|那)[个些条段句种]?[^，,。是在用要叫有]{0,8}$`)
	zhFromNowNot = text.Lazy(`^[，,]?(?:我|再也|有机会|有空|有时间|常联系|多联系|再|这个|那个|这|那|就|你就|的)`)
	// zhCheerUp: "永远不要放弃", "千万别灰心" cheer the listener on; no way of working follows.
	zhCheerUp    = text.Lazy(`(?:不要|别|不准|不许)(?:再)?(?:轻易)?(?:放弃|灰心|气馁|泄气|丧气|害怕|难过|伤心|担心|着急|哭|自责|失去信心|怀疑自己)`)
	zhRecallChat = text.Lazy(`刚才|上次|昨天|之前给你|前面给你|^我们(?:之前|昨天|刚才)?(?:聊|说|讨论|谈)过`)
	zhArtifact   = text.Lazy(`(?:用|改|删|动|碰)(?:这个|那个|这种|那种|这段|那段)`)
	zhFan        = text.Lazy(`我是[^，,。]{1,6}?(?:迷|粉丝|爱好者|发烧友|党|控)`)
	zhProject    = text.Lazy(`我(?:在|正在)(?:做|写|开发|维护)(?:一个)?(?:叫|名为)\s*\S`)
	zhLearn      = text.Lazy(`我(?:最近|现在|正在|目前)?(?:在)?(?:学习|自学|学)\s*(\p{Han}{1,3}语|[A-Za-z][\w.+#-]*|\p{Han}{2,4})`)

	zhStack     = text.Lazy(`^(?:我|我们|我们组|我们团队|我们公司|我这边)(?:的|用的)?(?:技术栈|开发环境|工具链)(?:是|主要是|就是)`)
	zhHousehold = text.Lazy(`^我(?:家|的)?(?:的)?(猫|狗|狗狗|猫咪|宠物|儿子|女儿|孩子|老婆|老公|太太|先生|女朋友|男朋友)(?:的名字)?叫(\p{Han}{1,4}|[A-Za-z]+)`)
	zhQuestion  = text.Lazy(`[？?]$|吗|什么|怎么|为什么|哪|是不是|能不能|会不会|要不要|多少|如何|呢$`)
	zhHypo      = text.Lazy(`如果|假如|假设|要是|万一|倘若|假使`)
	zhHedge     = text.Lazy(`不确定|不是说|好奇|也许|大概|说不定|随便问问`)
	zhSarcasm   = text.Lazy(`可太|呵呵|笑死|真是服了|好棒棒|太[^，,。]{1,8}了呢|🙄`)
)

// zhGuarded reports sentences that state no fact of the person.
func zhGuarded(s *sentence) bool {
	t := strings.TrimSpace(s.mask)
	if zhPolite.MatchString(t) {
		return false // "能不能别再用单字母变量名了？" asks for a lasting change
	}
	return zhQuestion.MatchString(t) || zhHypo.MatchString(t) || zhHedge.MatchString(t) ||
		zhSarcasm.MatchString(t) || expThirdZH.MatchString(t)
}

// zhRules tries the Chinese rule families on one sentence, most specific first; a sentence
// yields one finding, or one per identity fact it states (zhIdentityRule).
func zhRules(s *sentence, ps *profile) []finding {
	// "我家猫叫年糕": the name of the person's pet or family member is a fact of their life,
	// unlike what that relative likes or does, which the third-person guard leaves out.
	if m := zhHousehold.FindStringIndex(s.mask); m != nil && !zhQuestion.MatchString(s.mask) {
		return []finding{zhPersonFact(s, 0, "household", "zh.household")}
	}
	if zhGuarded(s) {
		// "她讨厌人多，我喜欢逛菜市场": the person may speak after someone else.
		t := s.mask
		if expThirdZH.MatchString(strings.TrimSpace(t)) && !zhQuestion.MatchString(t) {
			for _, sep := range []string{"，我", ",我", "；我"} {
				if i := strings.Index(t, sep); i > 0 {
					return zhRules(s.from(i+len(sep)-len("我")), ps)
				}
			}
		}
		return nil
	}
	// "以后请叫我阿强": as in English, the name asked for is the person's name, not a rule.
	if i := strings.Index(s.mask, "叫我"); i >= 0 && namingOnly(s.mask[i:]) {
		if fs := zhIdentityRule(s, ps); namesPerson(fs) {
			return fs
		}
	}
	for _, r := range []func(*sentence, *profile) (finding, bool){zhRememberRule, zhFeedbackRule} {
		if f, ok := r(s, ps); ok {
			return []finding{f}
		}
	}
	if fs := zhIdentityRule(s, ps); len(fs) > 0 {
		return fs
	}
	for _, r := range []func(*sentence, *profile) (finding, bool){zhDietRule, zhPrefRule} {
		if f, ok := r(s, ps); ok {
			return []finding{f}
		}
	}
	return nil
}

func zhRememberRule(s *sentence, _ *profile) (finding, bool) {
	t := s.mask
	var content string
	pinned, high := false, true
	if m := zhRememberProj.FindStringIndex(t); m != nil {
		content, pinned = s.orig[m[1]:], true
	} else if m := zhRememberPre.FindStringIndex(t); m != nil {
		content = s.orig[m[1]:]
	} else if m := zhRememberSuf.FindStringIndex(t); m != nil {
		content = s.orig[:m[0]]
	} else if m := zhNote.FindStringIndex(t); m != nil && !zhNoteNot.MatchString(t[m[1]:]) {
		// "注意我们都锁在 terraform 1.5": stated for later, not an explicit "remember": medium.
		content, high = s.orig[m[1]-len("我们"):], false
		if !strings.HasSuffix(t[:m[1]], "我们") {
			content = s.orig[m[1]-len("我"):]
		}
	} else {
		return finding{}, false
	}
	content = clipRunes(trimPunct(content), offlinePhraseRunes)
	// "记住这个错误信息" points at the chat; there is no fact to keep without the chat.
	// "别忘了更新 changelog" is a reminder for the task at hand unless it is meant to last.
	reminder := strings.Contains(t, "别忘了") && !zhDurable.MatchString(t) && !zhAboutMe.MatchString(content)
	if len([]rune(content)) < 3 || zhPointer.MatchString(content) || zhRecallChat.MatchString(content) || reminder {
		return finding{}, false
	}
	pinned = pinned || zhPin.MatchString(t)
	typ := "reference"
	switch {
	case zhAboutMe.MatchString(content):
		typ = "user"
	case zhImperative.MatchString(content):
		typ = "feedback"
	}
	if pinned {
		typ = "project"
	}
	title := content
	if typ == "user" {
		title = "用户" + strings.TrimPrefix(content, "我") // "记住我用 zsh": 用户用 zsh
	}
	return finding{typ: typ, kind: "note", slugKey: content, title: title,
		body:  "用户要求记住：" + content + "。",
		start: s.start, end: s.end, high: high, pinned: pinned, rule: "zh.remember"}, true
}

func zhFeedbackRule(s *sentence, ps *profile) (finding, bool) {
	t := s.mask
	ok, rule := false, ""
	switch {
	case zhStyle.MatchString(t):
		ok, rule = true, "zh.style"
		m := zhStyle.FindStringSubmatch(t)
		style := m[1]
		if m[2] != "" || m[3] != "" {
			style = "简洁" // "别太啰嗦", "少点废话": don't ramble
		}
		ps.add(SignalCommStyle, style, s.orig)
	case zhLangPref.MatchString(t):
		ok, rule = true, "zh.answer-language"
	case zhPolite.MatchString(t):
		ok, rule = true, "zh.please-stop"
	case zhWeConv.MatchString(t):
		ok, rule = true, "zh.we-convention"
	case zhConvention.MatchString(t):
		ok, rule = true, "zh.convention"
	case zhRuleAll.MatchString(t):
		ok, rule = true, "zh.rule-all"
	case zhAnswerRule.MatchString(t):
		ok, rule = true, "zh.answer-rule"
	case zhFromNow.MatchString(t):
		// "以后不要用 Lombok" instructs; "以后我自己来部署", "以后有机会再聊" do not.
		ok, rule = !zhFromNowNot.MatchString(t[zhFromNow.FindStringIndex(t)[1]:]), "zh.from-now-on"
	case zhUseNot.MatchString(t):
		ok, rule = true, "zh.use-not"
	case zhDont.MatchString(t):
		// A rule the person gives for this project is a standing one ("这个代码库不要用制表符").
		ok, rule = zhDurable.MatchString(t) || zhDontUse.MatchString(t) || zhPin.MatchString(t), "zh.dont"
	}
	// "永远别用那个方案": the object is a thing of this task.
	if !ok || (zhTaskish.MatchString(t) && !zhPin.MatchString(t)) || zhArtifact.MatchString(t) || zhCheerUp.MatchString(t) {
		return finding{}, false
	}
	if m := zhLangPref.FindStringSubmatch(t); m != nil {
		ps.add(SignalCommStyle, "回答用"+m[1]+m[2], s.orig)
	}
	said := saidText(s)
	return finding{typ: "feedback", kind: "rule", slugKey: said, title: said,
		body:  "用户对助手的要求：“" + said + "”。",
		start: s.start, end: s.end, pinned: zhPin.MatchString(t), rule: rule}, true
}

func zhDietRule(s *sentence, _ *profile) (finding, bool) {
	m := zhDiet.FindStringIndex(s.mask)
	// "我不吃这一套" is an idiom about an argument, not food.
	if m == nil || zhDietNot.MatchString(s.mask[m[0]:m[1]]) {
		return finding{}, false
	}
	return zhPersonFact(s, m[0], "diet", "zh.diet"), true
}

func zhPrefRule(s *sentence, ps *profile) (finding, bool) {
	t := s.mask
	kind, whole := "", false // whole: the match itself holds the object ("我是摇滚迷")
	var m []int
	switch {
	case zhStack.MatchString(t):
		m, kind = zhStack.FindStringIndex(t), "stack"
	case zhTeamUse.MatchString(t):
		m = zhTeamUse.FindStringSubmatchIndex(t)
		if !capitalised(s, m[2]) && !isTool(t[m[2]:m[3]]) {
			return finding{}, false
		}
		m = []int{strings.Index(t[m[0]:], "我们") + m[0], m[1]}
		kind = "stack"
	case zhFan.MatchString(t):
		m, kind, whole = zhFan.FindStringIndex(t), "likes", true
	case zhProject.MatchString(t):
		m, kind, whole = zhProject.FindStringIndex(t), "project", true
	case zhHabit.MatchString(t):
		m, kind = zhHabit.FindStringIndex(t), "likes"
	case zhDislike.MatchString(t):
		m, kind = zhDislike.FindStringIndex(t), "dislikes"
	case zhLike.MatchString(t):
		m, kind = zhLike.FindStringIndex(t), "likes"
	}
	// "我很喜欢这个回答", "我不喜欢你的方案": about the chat, not the person.
	// "标题我不喜欢，换一个": the thing liked must follow the verb.
	if (kind == "likes" || kind == "dislikes") && !whole && (zhBadObject.MatchString(t[m[1]:]) || strings.IndexFunc(t[m[1]:], isPunct) == 0) {
		return finding{}, false
	}
	if kind == "" {
		switch {
		case zhUse.MatchString(t):
			m = zhUse.FindStringSubmatchIndex(t)
			if !capitalised(s, m[2]) && !isTool(t[m[2]:m[3]]) {
				return finding{}, false
			}
			kind = "uses"
		case zhLearn.MatchString(t):
			m = zhLearn.FindStringSubmatchIndex(t)
			if strings.ContainsAny(firstString(t[m[2]:m[3]]), "校生院期会到了") {
				return finding{}, false
			}
			kind = "learns"
		default:
			return finding{}, false
		}
	}
	if len(strings.TrimSpace(trimPunct(t[m[1]:]))) == 0 && kind != "uses" && kind != "learns" && !whole {
		return finding{}, false
	}
	f := zhPersonFact(s, m[0], kind, "zh."+kind)
	// A dislike names the tools of its own clause; elsewhere a negated or contrasted tool
	// ("我用 Go 写后端，不用 Java") is not one the person uses.
	named := positiveOnly(s.lower)[m[0]:]
	if kind == "dislikes" {
		named = clauseOf(s.lower[m[1]:])
	}
	for _, tl := range toolsIn(named) {
		switch kind {
		case "uses", "likes", "stack":
			ps.add(SignalPreferredTool, tl, s.orig)
			f.rel("uses", tl)
		case "dislikes":
			f.rel("dislikes", tl)
		case "learns":
			f.rel("learns", tl)
		}
	}
	return f, true
}

// zhPersonFact writes what the person said from offset a of the sentence (where "我" starts)
// as a fact about them: "我讨厌早起" → title "用户讨厌早起".
func zhPersonFact(s *sentence, a int, kind, rule string) finding {
	said := clipRunes(trimPunct(s.orig[a:]), offlinePhraseRunes)
	title := "用户" + strings.TrimPrefix(strings.TrimPrefix(said, "我自己"), "我")
	return finding{typ: "user", kind: kind, slugKey: said, title: title,
		body:  title + "。\n\n原话：“" + saidText(s) + "”",
		start: s.start + a, end: s.end, rule: rule}
}

// firstString is the first rune of s as a string.
func firstString(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}
