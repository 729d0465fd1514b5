package recall

import (
	"slices"
	"strings"

	"engram/backend/memory"
	"engram/backend/text"
)

// An agent asks about the person it serves in the third person: "what is the user's name",
// "where does the user live", "用户住哪里", "用户叫什么". The facet forms are written in the
// first person (the person asking about themselves), so before they read a question its
// "the user" is read as the person: "the user's" as "my", "does the user" as "do I", "the user
// lives" as "I live", "用户" as "我". Only there: search still looks for what was typed, and
// "the users table" or "用户表" (software) stay as they are.

// reUserAux is an auxiliary before the user ("does the user", "is the user"); reUserVerb the
// user before a verb in the third person ("the user lives", "the user is"); reUserPoss the
// possessive; reUserRest any "the user" left (an object: "call the user", "for the user").
var (
	reUserWord = `(?:the|this|my|our|your) (?:user|person)\b`
	reUserAux  = text.Lazy(`(?i)\b(does|do|is|are|was|has|did|can|could|should|would|will|may|must) ` + reUserWord)
	reUserPoss = text.Lazy(`(?i)\b` + reUserWord + `(?:'s|’s|s')`)
	reUserVerb = text.Lazy(`(?i)\b` + reUserWord + ` ([a-z]+)\b`)
	reUserRest = text.Lazy(`(?i)\b` + reUserWord)
	// reYongHu is 用户 meaning the person, not a software thing named after users (用户表,
	// 用户名 as a login, 用户量, 用户端…).
	reYongHu = text.Lazy(`用户(?:们)?`)
	// zhUserThings are what 用户 names when it qualifies a software word.
	zhUserThings = []string{"表", "名", "量", "数", "端", "侧", "群", "画像", "体验", "界面", "协议", "手册", "中心", "管理", "权限", "登录", "注册", "数据", "信息表", "id", "ID", "模块", "服务", "字段"}
)

// auxFirst are the auxiliaries with the first person in place of the user.
var auxFirst = map[string]string{"does": "do", "do": "do", "is": "am", "are": "am", "was": "was", "has": "have",
	"did": "did", "can": "can", "could": "could", "should": "should", "would": "would", "will": "will", "may": "may", "must": "must"}

// verbFirst is a verb after the user in the first person: "lives" → "live", "is" → "am",
// "has" → "have"; a word that is not a third-person verb stays.
func verbFirst(w string) string {
	lw := strings.ToLower(w)
	switch lw {
	case "is":
		return "am"
	case "has":
		return "have"
	case "does":
		return "do"
	case "was", "did", "can", "could", "should", "would", "will", "may", "must", "grew", "moved", "used", "likes", "lives":
		if lw == "likes" || lw == "lives" {
			return lw[:len(lw)-1]
		}
		return lw
	}
	switch {
	case strings.HasSuffix(lw, "ies") && len(lw) > 4:
		return lw[:len(lw)-3] + "y"
	case strings.HasSuffix(lw, "ches") || strings.HasSuffix(lw, "shes") || strings.HasSuffix(lw, "sses") || strings.HasSuffix(lw, "xes") || lw == "goes":
		return lw[:len(lw)-2]
	case strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss") && !strings.HasSuffix(lw, "us") && !strings.HasSuffix(lw, "is"):
		return lw[:len(lw)-1]
	}
	return w
}

// foldThirdPerson reads an agent's "the user" / "用户" as the person asking (see above).
func foldThirdPerson(q string) string {
	if text.HasCJK(q) {
		if !strings.Contains(q, "用户") {
			return q
		}
		var b strings.Builder
		rest := q
		for {
			loc := reYongHu.FindStringIndex(rest)
			if loc == nil {
				b.WriteString(rest)
				return b.String()
			}
			b.WriteString(rest[:loc[0]])
			after := rest[loc[1]:]
			thing := false
			for _, w := range zhUserThings {
				if strings.HasPrefix(after, w) {
					thing = true
				}
			}
			if thing {
				b.WriteString(rest[loc[0]:loc[1]])
			} else {
				b.WriteString("我")
			}
			rest = after
		}
	}
	if !reUserRest.MatchString(q) {
		return q
	}
	q = reUserPoss.ReplaceAllString(q, "my")
	q = reUserAux.ReplaceAllStringFunc(q, func(s string) string {
		return auxFirst[strings.ToLower(strings.Fields(s)[0])] + " I"
	})
	q = reUserVerb.ReplaceAllStringFunc(q, func(s string) string {
		f := strings.Fields(s)
		v := f[len(f)-1]
		if fv := verbFirst(v); fv != v || strings.EqualFold(v, "grew") || strings.EqualFold(v, "moved") {
			return "I " + fv
		}
		return s
	})
	return reUserRest.ReplaceAllString(q, "me")
}

// Facets of what the person speaks and the time they live by: an agent that writes to the
// person or schedules for them asks "what languages does the user speak", "what time zone is
// the user in", "我在哪个时区"; their words also name software ("the language server", "the
// scheduler's timezone bug"), so they are read in user memories like the other facets.
const (
	FacetLanguage Facet = "language"
	FacetTimezone Facet = "timezone"
)

// languageNames are languages a note may list with no verb ("Tamil + English, some French."):
// read only in user memories and only for a question about the languages the person speaks.
const languageNames = `english|french|spanish|german|italian|portuguese|dutch|polish|russian|ukrainian|czech|romanian|hungarian|greek|turkish|arabic|hebrew|persian|farsi|hindi|urdu|bengali|punjabi|tamil|telugu|marathi|gujarati|mandarin|cantonese|chinese|japanese|korean|vietnamese|thai|indonesian|malay|tagalog|filipino|swahili|swedish|norwegian|danish|finnish|irish|welsh|gaelic`

// askedFacetRules are question forms the first-person sets lacked, found asking a store of
// ~300 memories (testdata/identity_store.json): whether the person has pets, children or a
// partner ("do I have pets", "am I married", "我有宠物吗", "我养了什么宠物"), which city they
// are in ("我在哪个城市"), and who employs them ("我的雇主是谁", "我给谁打工"). The statements
// that answer them are the facets' own (nil here).
var askedFacetRules = []facetRule{
	{FacetFamily, facetRe(`\b(?:do|did) i (?:still )?(?:have|own|keep|got) (?:any |a |an |some )?(?:pets?|dogs?|cats?|kids?|children|sons?|daughters?|siblings|brothers?|sisters?|partner|wife|husband|girlfriend|boyfriend)\b|\b(?:am|was) i (?:married|single|engaged|divorced|widowed|in a relationship|seeing (?:someone|anyone))\b|\bhow many (?:kids|children|pets|dogs|cats|siblings) (?:do|did) i\b`,
		`我(?:有|养(?:了|着|过)?)(?:没有|没)?(?:几个|几只|几条|什么|啥|哪些)?(?:孩子|小孩|儿女|儿子|女儿|宠物|猫|狗|兄弟姐妹|对象)|我(?:结婚|成家)了?(?:吗|没)|我是(?:单身|已婚)`), nil},
	{FacetHome, facetRe(`我(?:现在|目前|如今)?(?:在|住在)哪(?:个|座)(?:城市|国家|地方|区)(?:$|[？?吗呢]|住|生活|待|呆)`), nil},
	{FacetLanguage, facetRe(`\b(?:(?:what|which) languages? (?:do|can|does) i (?:speak|read|write|know|understand)|how many languages (?:do|can) i|my (?:native|first|mother) (?:language|tongue)|my mother tongue|(?:do|can) i speak (?:any )?\w+|what(?:'s| is) my (?:native |first )?language)\b`,
		`我(?:会|能)(?:说|讲)(?:什么|啥|哪些|哪几种|几种)|我(?:会|能)(?:说|讲)\p{Han}{1,6}(?:吗|不|么)|我的母语|我(?:的)?第一语言|我(?:说|讲)(?:什么|哪种|哪些)(?:话|语言)`),
		facetRe(`\b(?:speaks?|speaking|fluent in|native (?:speaker|language)|mother tongue|first language|bilingual|trilingual|languages?|` + languageNames + `)\b|母语|(?:会|能)(?:说|讲)|普通话|粤语|方言|外语|语言|[英法德日韩俄]语|西班牙语|葡萄牙语|阿拉伯语|意大利语`)},
	{FacetTimezone, facetRe(`\b(?:(?:what|which) (?:time ?zone|tz) (?:am i|do i|i'm|i am)|my (?:time ?zone|tz|local time)|what time is it (?:for|where) (?:me|i am|i'm))\b`,
		`我(?:在|是|用)?(?:哪个|什么|啥)时区|我的时区|我(?:这边|这里)(?:现在)?几点`),
		facetRe(`\b(?:time ?zone|tz|utc|gmt|cet|cest|edt|pdt|pst|bst|jst|aest)\b|\b(?:africa|america|asia|australia|europe|pacific)/\w+|时区|北京时间|东八区`)},
	{FacetManner, facetRe(`我(?:喜欢|想要|希望|偏好|要)(?:什么样|怎样|怎么样|哪种)的?(?:回答|回复|答案|语气|风格|说话方式)`), nil},
	{FacetWork, facetRe(`我的(?:雇主|东家)|谁(?:雇|聘)(?:用|请)?(?:了)?我|我(?:给|替|为)谁(?:打工|工作|干活|上班)`), nil},
}

// leanParts narrow a facet the question asks about to the part it names, as a preference
// among the memories that answer it rather than a filter (subGroups filter): "what is my job
// title" is answered by "Role: data engineer" before "Works at Coolblue", "who do I work for"
// the other way round; "what food do I hate", "我讨厌吃什么" by a dislike before a taste; "what
// do I do for fun", "我有什么爱好" by a pastime before a drink; "am I married" by the partner
// before the dog. A note that names no part still answers: it only ranks below one that does.
var leanParts = []struct {
	facet            Facet
	question, answer *text.Regexp
}{
	{FacetWork, text.Lazy(`(?i)\b(?:job title|title|role|position|profession|occupation|line of work|what kind of \w+ am i)\b|职位|岗位|职业|职务|头衔|(?:做|干)(?:什么|啥)的`),
		text.Lazy(`(?i)\b(?:role|title|position|occupation|profession)\s*[:：=]|\b(?:as|i'm|i am|is) an? (?:[\w-]+ ){0,3}` + occupations + `\b|(?:^|[.;:\n]\s*)(?:[\w-]+ ){0,3}` + occupations + `\b|职位|岗位|职业|职务|头衔|是(?:一名|一个|一位)?\p{Han}{0,8}(?:师|员|经理|老师|医生|护士|律师|会计|主管|总监)`)},
	{FacetWork, text.Lazy(`(?i)\b(?:who (?:do|did) i work for|who employs me|employer|company|firm|where (?:do|did) i work|(?:do|did) i work (?:at|for))\b|公司|单位|雇主|东家|给谁打工|在哪(?:儿|里|家)?(?:上班|工作)`),
		text.Lazy(`(?i)\b(?:works? (?:at|for)|worked (?:at|for)|employed (?:at|by)|employer|company)\b|公司|单位|集团|雇主|东家|在\p{Han}{1,12}(?:工作|上班)`)},
	{FacetFamily, text.Lazy(`(?i)\b(?:married|relationship|single|partner|wife|husband|spouse|girlfriend|boyfriend)\b|结婚|单身|对象|老公|老婆|爱人|先生|太太|丈夫|妻子`),
		text.Lazy(`(?i)(?:^|\n)[^\n]{0,20}\b(?:married|partner|wife|husband|spouse|girlfriend|boyfriend)\b|(?:^|\n)[^\n]{0,8}(?:老公|老婆|爱人|先生|太太|丈夫|妻子|对象)`)},
	{FacetPreference, text.Lazy(`(?i)\b(?:hate|dislike|can'?t stand|don'?t like|not a fan)\b|讨厌|不喜欢|不爱|受不了|反感`),
		text.Lazy(`(?i)\b(?:hates?|dislikes?|can'?t stand|cannot stand|not a fan|don'?t like|doesn'?t like)\b|讨厌|不喜欢|不爱|受不了|反感`)},
	{FacetPreference, text.Lazy(`(?i)\b(?:hobby|hobbies|pastimes?|for fun|free time|spare time|interests|to relax|to unwind|sports?)\b|爱好|兴趣|业余|空闲|消遣|运动|锻炼`),
		text.Lazy(`(?i)\b(?:hobby|hobbies|pastime|for fun|free time|spare time|weekends?|twice a week|every (?:week|weekend|saturday|sunday)|go(?:es)? \w+ing|climb\w*|boulder\w*|running|hik\w+|swim\w*|yoga|gym|football|tennis|guitar|piano|paint\w*|garden\w*|knit\w*|chess)\b|爱好|兴趣|业余|周末|跑步|运动|健身|游泳|爬山|徒步|骑行|瑜伽|打球|钓鱼|画画|下棋`)},
	{FacetManner, text.Lazy(`(?i)\b(?:answers?|repl(?:y|ies)|responses?|tone|format)\b|回答|回复|答案|语气|风格`),
		text.Lazy(`(?i)\b(?:answers?|repl(?:y|ies)|responses?|tone|short|concise|brief)\b|回答|回复|简洁|语气`)},
}

// leanFacetBoost is the extra credit of an answering memory that names the part of its facet
// the question named (leanParts). Among the memories that answer a facet the rest of the
// score is mostly the expansion words' ("like", "love", "hate" for every preference), which
// says nothing of the part asked, so the credit is large enough to put the part first.
const leanFacetBoost = 2.0

// leans reports whether m, a memory that answers the question, names the part of a facet asked
// that the question names, or the kind of food or drink it names (facetvocab.go: "what coffee
// do I drink" — "I drink flat whites").
func (q facetQuery) leans(m *memory.Memory) bool {
	if namesFoodKind(q.kinds, m.Title+"\n"+m.Body) {
		return true
	}
	whole := ""
	for _, p := range leanParts {
		if !slices.Contains(q.asked, p.facet) || !p.question.MatchString(q.folded) {
			continue
		}
		if whole == "" {
			whole = m.Title + "\n" + m.Body
		}
		if p.answer.MatchString(whole) {
			return true
		}
	}
	return false
}

// reUserAny is every "user" or "person" in a question, the person or not.
var reUserAny = text.Lazy(`(?i)\b(?:user|person)\b`)

// dropPersonWords takes the words that name the person in the third person ("the user",
// "用户") out of a question about the person's own facets: they are no topic, and as search
// words they found the notes about software named after users ("users table schema",
// "用户表有姓名、城市…字段", a slug "user-location") above the person's own. A question that
// also names a software thing after users ("the users table", "用户表") keeps them.
func dropPersonWords(a *Analysis) {
	if len(a.Facets) == 0 {
		return
	}
	q := a.Query
	en := reUserRest.MatchString(q) && len(reUserAny.FindAllStringIndex(q, -1)) == len(reUserRest.FindAllStringIndex(q, -1))
	zh := strings.Contains(q, "用户") && !strings.Contains(foldThirdPerson(q), "用户")
	if !en && !zh {
		return
	}
	kept := a.Keywords[:0]
	for _, k := range a.Keywords {
		switch {
		case !k.CJK && en && (k.Stem == "user" || k.Stem == "person"):
			continue
		case k.CJK && zh && strings.Contains(k.Text, "用户"):
			rest := strings.ReplaceAll(strings.ReplaceAll(k.Text, "用户们", ""), "用户", "")
			switch text.RuneLen(rest) {
			case 0:
				continue
			case 1:
				if !slices.Contains(a.Singles, rest) {
					a.Singles = append(a.Singles, rest)
				}
				continue
			}
			k = Keyword{Text: rest, Stem: rest, CJK: true}
		}
		kept = append(kept, k)
	}
	a.Keywords = kept
	if len(a.Keywords) > 0 {
		a.Singles = nil
	}
}
