package extraction

import (
	"strings"

	"engram/backend/text"
)

// Chinese identity rules: who the person is. As in English, each fact — 姓名, 职业, 工作, 状态,
// 籍贯, 所在地 — becomes its own memory under a fixed slug (idFacts), so a correction replaces
// the one fact it corrects.
var (
	// zhName: "我叫李雷", "我的名字是 Sam", and what the person asks to be called ("叫我小王就行",
	// "你可以叫我老李", "请叫我 Sam"; not "别叫我…" or "你叫我干什么").
	zhName     = text.Lazy(`我叫(\p{Han}{2,4}?)(?:[，,。.！!\s]|$|就|吧)|我的名字(?:是|叫)\s*(\p{Han}{2,4}|[A-Za-z]+)|(?:^|请|可以|以后|今后|就|直接|都)叫我\s*(\p{Han}{2,4}?|[A-Za-z]+)\s*(?:就(?:行|好|可以)|吧|[，,。.！!]|$)`)
	zhNameStop = text.Lazy(`^(?:外卖|车|人|了|过|醒|你|他|她|它|做|什|一|个|不|来|去|错)`)
	zhRoleNoun = `(?:技术负责人|负责人|组长|技术总监|工程师|开发者|开发|程序员|运维|前端|后端|产品经理|项目经理|经理|设计师|老师|教师|学生|医生|护士|律师|会计|分析师|架构师|运营|插画师|作家|研究员|科学家|创始人|顾问|主管|总监|实习生|自由职业者|画师|编辑|翻译|厨师|记者|博士|研究生|站长|测试)`
	zhRole     = text.Lazy(`我(?:就|只|也|其实|现在)?是(?:一名|一个|一位|个|名)?([\p{Han}A-Za-z的]{0,10}?` + zhRoleNoun + `)`)
	zhRoleMore = text.Lazy(`^(?:工程师|开发者|开发|程序员|架构师|负责人|经理|组长|主管|总监|专家|实习生|老师)`)
	zhWorkAs   = text.Lazy(`(?:我|^|[，,])(?:现在|目前)?在(?:一家|一个)?([\p{Han}A-Za-z]{1,12}?)(?:做|当|担任|负责)([\p{Han}A-Za-z ]{0,10}(?:开发|工程师|架构师|经理|设计师|设计|老师|运维|测试|产品|运营|销售|程序员|数据分析|研究|医生|护士|会计|律师|编辑|翻译|后端|前端|全栈|算法))`)
	// zhPlace: "我住在上海", "我住北京" (住 alone, as people say it), "我叫小王，住在上海" (the
	// subject left out after another fact of the person's), "我搬到了杭州", "在深圳工作".
	zhPlace    = text.Lazy(`(?:我(?:们)?|[，,]\s*)(?:现在|目前|已经|刚刚|刚|最近|去年|今年|上个月|一直|也)*(?:住在|生活在|定居在?|(?:搬到|搬去|搬来|搬家到)了?|住)(\p{Han}{2,6}?)(?:[，,。的了！!]|$|住|工作|上班|生活|定居)|(?:我|^|[，,])(?:现在|目前)?在(\p{Han}{2,4}?)(?:工作|上班|生活|定居)`)
	zhHometown = text.Lazy(`我是(\p{Han}{2,3}?)人(?:[，,。]|$)`)
	zhPlaceOrg = text.Lazy(`(?:^|[，,]|我)(?:现在|目前)?在(\p{Han}{2,4}?)(?:的)?(?:一家|一所|一个)`)
	zhOrg      = text.Lazy(`在(?:一家|一个)([^，,。]{0,14}?(?:公司|企业|银行|医院|学校|工作室|团队|机构|单位))`)
	zhStatus   = text.Lazy(`我(?:已经)?(退休|失业|待业|辞职)`)
	zhTeach    = text.Lazy(`我在([^，,。]{2,14}?)(教|读)([^书了的过完一这那着\s，,。][\p{Han}]{0,5})`)
	// zhNotPlace is what follows 住 or 在 without being a city or region: a kind of lodging
	// (我住酒店, 我住院了, 我住宿舍), a spot (家里, 附近, 三楼), a time (住了三年, 住过), a manner (住得远).
	zhNotPlace = text.Lazy(`^(?:这|那|哪|得|过|了|着|的|在|院|校|宿舍|酒店|宾馆|旅馆|民宿|家|附近|隔壁|对面|旁边|楼|几|两|不|惯|公司)|(?:酒店|宾馆|旅馆|民宿|宿舍|医院|公司|单位|附近|隔壁|对面|旁边|这里|那里|这边|那边|楼|层|号|室|家|里|年|天|晚|月|周|夜)$`)
)

// zhIdentityRule reads who the person is: each fact it finds is one finding under its slug
// (none when the sentence states no identity fact).
func zhIdentityRule(s *sentence, ps *profile) []finding {
	t := s.mask
	x := &idFacts{s: s, rule: "zh.identity", zh: true}
	if m := zhName.FindStringSubmatchIndex(t); m != nil {
		a, b := m[2], m[3]
		for g := 4; a < 0 && g+1 < len(m); g += 2 {
			a, b = m[g], m[g+1]
		}
		if name := s.orig[a:b]; !zhNameStop.MatchString(name) {
			x.add("user-name", "姓名："+name, m[0], m[1], false)
		}
	}
	if m := zhRole.FindStringSubmatchIndex(t); m != nil {
		// The shortest role noun matches first: "后端工程师" must not stop at "后端".
		for n := zhRoleMore.FindStringIndex(t[m[3]:]); n != nil; n = zhRoleMore.FindStringIndex(t[m[3]:]) {
			m[3] += n[1]
		}
		m[3] = zhRoleEnd(t, m[3])
		role := s.orig[m[2]:m[3]]
		x.add("user-role", "职业："+role, m[0], m[3], false)
		ps.add(SignalRole, role, s.orig)
	}
	if m := zhWorkAs.FindStringSubmatchIndex(t); m != nil && strings.Contains(t, "我") {
		m[5] = zhRoleEnd(t, m[5])
		x.add("user-work", "工作："+strings.TrimLeft(trimPunct(s.orig[m[0]:m[5]]), "我"), m[0], m[5], false)
		ps.add(SignalRole, s.orig[m[4]:m[5]], s.orig)
	}
	if m := zhOrg.FindStringSubmatchIndex(t); m != nil && len(x.list) > 0 {
		x.more("user-work", "单位："+s.orig[m[2]:m[3]], m[0], m[3])
	}
	if m := zhTeach.FindStringSubmatchIndex(t); m != nil && strings.HasPrefix(t[m[0]:], "我在") {
		x.more("user-role", s.orig[m[4]:m[7]], m[0], m[7])
		if m[4] >= 0 && t[m[4]:m[5]] == "教" {
			ps.add(SignalRole, s.orig[m[4]:m[7]], s.orig)
		}
	}
	if m := zhStatus.FindStringSubmatchIndex(t); m != nil {
		x.add("user-status", "状态："+s.orig[m[2]:m[3]], m[0], m[1], false)
	}
	if m := zhHometown.FindStringSubmatchIndex(t); m != nil {
		if f := x.add("user-hometown", "籍贯："+s.orig[m[2]:m[3]], m[0], m[1], false); f != nil {
			f.rel("from", s.orig[m[2]:m[3]])
		}
	}
	// A place needs the person as the subject, or another fact of theirs before it.
	if m := zhPlace.FindStringSubmatchIndex(t); m != nil && (strings.HasPrefix(t[m[0]:], "我") || len(x.list) > 0 || zhThenNow(t, m[0])) {
		a, b := m[2], m[3]
		atWork := false // "在X工作/上班": X may be a city or an employer
		if a < 0 {
			a, b = m[4], m[5]
			atWork = strings.HasPrefix(t[b:], "工作") || strings.HasPrefix(t[b:], "上班")
		}
		if place := s.orig[a:b]; atWork && !zhKnownPlace(place) {
			if x.get("user-work") == nil {
				x.add("user-work", "工作："+strings.TrimLeft(trimPunct(s.orig[m[0]:m[1]]), "我，,"), m[0], m[1], false)
			}
		} else if !zhNotPlace.MatchString(place) {
			if f := x.add("user-location", "所在地："+place, m[0], m[1], false); f != nil {
				f.rel("lives_in", place)
			}
		}
	}
	if m := zhPlaceOrg.FindStringSubmatchIndex(t); m != nil && len(x.list) > 0 && x.get("user-location") == nil {
		if f := x.add("user-location", "所在地："+s.orig[m[2]:m[3]], m[0], m[1], true); f != nil {
			f.rel("lives_in", s.orig[m[2]:m[3]])
		}
	}
	if len(x.list) == 0 {
		return nil
	}
	zhIndustry(t, s.orig, ps)
	// The tools of the sentence belong to the person's work when it says what that is.
	at := x.get("user-work")
	if at == nil {
		at = x.get("user-role")
	}
	if at == nil {
		at = &x.list[0]
	}
	for _, tl := range toolsIn(positiveOnly(s.lower)) {
		ps.add(SignalPreferredTool, tl, s.orig)
		at.rel("uses", tl)
	}
	return x.findings()
}

// zhThenNow reports a place clause at i that continues a sentence the person began about
// their past ("我以前住在上海，现在住在杭州"): the subject is the person, and the clause with
// 现在/目前 is where they are now (the past place alone is never read: 以前 is no present).
func zhThenNow(t string, i int) bool {
	return zhPastSelf.MatchString(t) && zhNowLead.MatchString(t[i:])
}

var (
	zhPastSelf = text.Lazy(`^我(?:以前|之前|原来|原先|曾经|过去|小时候)`)
	zhNowLead  = text.Lazy(`^[，,]\s*(?:但|不过)?(?:现在|目前|如今)`)
)

// zhRoleSuffix are the characters that make a field into the person doing it (数据分析 →
// 数据分析师, 研究 → 研究员, 专 → 专家, 开发 → 开发者). zhRoleNotSuffix are the words one of
// them begins that are no part of a role (家里, 长期, 手机, 员工 stays a role).
var (
	zhRoleSuffix    = text.Lazy(`^(?:师|员|家|者|手|长|官)`)
	zhRoleNotSuffix = text.Lazy(`^(?:家里|家人|家庭|家乡|家中|长期|长大|长时间|手机|手上|手里|手头)`)
)

// zhRoleEnd moves the end of a role the rules matched in t past a suffix that names the person
// doing it. The trigger: "我在一家银行做数据分析师" kept the role "数据分析", the suffix lost.
func zhRoleEnd(t string, end int) int {
	if end < 0 || end > len(t) {
		return end
	}
	if n := zhRoleSuffix.FindStringIndex(t[end:]); n != nil && !zhRoleNotSuffix.MatchString(t[end:]) {
		return end + n[1]
	}
	return end
}

var zhIndustries = []struct{ word, industry string }{
	{"跨境电商", "跨境电商"}, {"电商", "电商"}, {"银行", "金融"}, {"金融", "金融"}, {"证券", "金融"},
	{"医院", "医疗"}, {"游戏", "游戏"}, {"学校", "教育"}, {"教育", "教育"}, {"互联网", "互联网"},
	{"保险", "保险"}, {"制造", "制造业"}, {"物流", "物流"},
}

func zhIndustry(t, orig string, ps *profile) {
	for _, in := range zhIndustries {
		if strings.Contains(t, in.word) {
			ps.add(SignalIndustry, in.industry, orig)
			return
		}
	}
}
