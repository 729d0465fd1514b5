package recall

import (
	"strings"
	"time"

	"engram/backend/memory"
	"engram/backend/text"
)

// Intent is what a query is after; it tilts the ranking towards the memory types that answer
// that kind of question.
type Intent string

// Intents (ZCLAW's five).
const (
	IntentPreference Intent = "preference"
	IntentKnowledge  Intent = "knowledge"
	IntentExperience Intent = "experience"
	IntentCode       Intent = "code"
	IntentGeneral    Intent = "general"
)

// Keyword is one unit the lexical paths search for.
type Keyword struct {
	// Text is the word (lower case) or CJK chunk as typed.
	Text string `json:"text"`
	// Stem is the Porter stem of an English word (the CJK chunk itself otherwise).
	Stem string `json:"stem"`
	CJK  bool   `json:"cjk,omitempty"`
}

// Analysis is what recall understood of a query.
type Analysis struct {
	Query  string `json:"query"`
	Intent Intent `json:"intent"`
	// Identity is set for questions about who the person is ("who am I", "我是谁").
	Identity bool `json:"identity,omitempty"`
	// Facets are what an identity or preference question asks about the person (see
	// identity.go): the user memories that state them come first.
	Facets []Facet `json:"facets,omitempty"`
	// TimeQuestion is set for questions asking when or how long ("when did…", "什么时候").
	TimeQuestion bool `json:"time_question,omitempty"`
	// Keywords are the content words and CJK chunks, stop words removed.
	Keywords []Keyword `json:"keywords"`
	// Variants are other forms of keywords the stemmer cannot relate (won → win, children →
	// child); they are searched with the keywords.
	Variants []string `json:"variants,omitempty"`
	// Expansions are related terms added for identity and preference questions, in both
	// languages; they are searched as a weaker, separate path.
	Expansions []string `json:"expansions,omitempty"`
	// Time is the period a time expression names, if any.
	Time *TimeRange `json:"time,omitempty"`
	// Singles are one-character CJK chunks: too short for the bigram index.
	Singles []string `json:"singles,omitempty"`
	// relaxed marks the analysis of a search run again by characters (see relaxCJK): only
	// the lexical paths run.
	relaxed bool
}

var (
	reCode       = text.Lazy("`|\\b[a-z]+[A-Z][A-Za-z]*\\b|\\b[a-z0-9]+_[a-z0-9_]+\\b|\\.(go|py|ts|js|rs|java|c|h|cpp|rb|sh|sql|yaml|yml|json|toml|md)\\b|::|->|\\(\\)|(?i)\\b(func|function|method|class|struct|compile|compiler|stack ?trace|exception|traceback|segfault|api|sdk|regex|bug|debug|refactor|repo|git|commit|branch)\\b|代码|函数|报错|编译|接口|变量|调试|仓库|提交")
	reExperience = text.Lazy(`(?i)\b(how did (i|we) (fix|solve|handle|get)|last time|lessons?|learned|mistakes?|problems?|issues?|solutions?|workaround|fixed|solved|went wrong|pitfalls?|troubleshoot\w*)\b|经验|教训|上次|踩坑|解决|问题|故障|排查|复盘`)
	rePreference = text.Lazy(`(?i)\b(prefers?|preferred|preferences?|favou?rites?|likes?|liked|love[sd]?|hates?|hated|dislikes?|enjoys?|enjoyed|fan of|into)\b|喜欢|偏好|爱好|喜爱|最爱|讨厌|习惯|口味|爱吃|爱喝`)
	reKnowledge  = text.Lazy(`(?i)^\s*(what (is|are|does)|how (to|do|does|can)|explain|define|describe|why (is|are|does))\b|是什么|什么是|怎么|如何|为什么|原理|定义|介绍`)
	reIdentity   = text.Lazy(`(?i)\b(who am i|who i am|my name|about me|about myself|know about me|my profile|my background|what am i called|introduce me)\b|我是谁|我叫什么|我的名字|关于我|了解我|我的资料|我的身份|我的背景|介绍一下我`)
	// A time question asks for a point or a span: "when", "what year/month/week/day/date",
	// "in which month", "how long (ago)", "after how many weeks".
	reTimeQ = text.Lazy(`(?i)^\s*(when|since when|how long|how soon)\b|^\s*((in|on|during|by|from|until|at|for|of) )?(what|which) (time|date|dates|day|days|week|weeks|weekend|month|months|year|years|season|decade)\b|^\s*(in|on|during) (what|which) \w+'s (time|date|day|week|month|year)\b|^\s*((for|after|in|within) )?how (long|soon|(many|much) (days|weeks|months|years|time))\b|\bwhen (did|was|were|is|will|do|does|has|had|are|am)\b|什么时候|何时|哪天|哪一天|多久|多长时间|几号|几月|哪年|哪一年|哪个月|哪一周|哪周|什么日子|哪个季节`)
)

// maxExpansions bounds the expansion terms of one query.
const maxExpansions = 80

var identityExpansions = []string{"name", "called", "identity", "profile", "job", "work", "role", "live", "background",
	"名字", "身份", "职业", "工作", "住在", "来自", "背景"}

var preferenceExpansions = []string{"prefer", "like", "love", "favorite", "enjoy", "hate", "dislike",
	"喜欢", "偏好", "喜爱", "最爱", "讨厌", "习惯"}

// Analyze reads a query: its intent, keywords in both languages, identity and preference
// expansions and any time expression, relative to now in loc.
func Analyze(q string, now time.Time, loc *time.Location) Analysis {
	a := Analysis{Query: q, Intent: IntentGeneral}
	switch {
	case reCode.MatchString(q):
		a.Intent = IntentCode
	case reExperience.MatchString(q):
		a.Intent = IntentExperience
	case rePreference.MatchString(q):
		a.Intent = IntentPreference
	case reKnowledge.MatchString(q):
		a.Intent = IntentKnowledge
	}
	a.Facets = facetsOf(q)
	a.Identity = reIdentity.MatchString(q)
	for _, f := range a.Facets {
		if f != FacetPreference {
			a.Identity = true
		}
	}
	if len(a.Facets) > 0 && a.Intent != IntentCode {
		a.Intent = IntentPreference
		if a.Identity {
			a.Intent = IntentGeneral
		}
	}
	a.TimeQuestion = reTimeQ.MatchString(q)
	a.Time = ParseTime(q, now, loc, a.Intent == IntentCode)

	// The words of a time expression say when, not what: the time range carries them, so they
	// are cut out before keywords are taken.
	rest := q
	if a.Time != nil && a.Time.Expr != "" {
		rest = strings.Replace(q, a.Time.Expr, " ", 1)
	}
	seen := map[string]bool{}
	add := func(k Keyword) {
		if seen[k.Stem] {
			return
		}
		seen[k.Stem] = true
		a.Keywords = append(a.Keywords, k)
	}
	for _, t := range text.Split(rest) {
		if t.CJK {
			for _, c := range text.Chunks(t.Text) {
				if isCJKTimeChunk(c) {
					continue
				}
				if text.RuneLen(c) == 1 {
					if !seen[c] {
						seen[c] = true
						a.Singles = append(a.Singles, c)
					}
					continue
				}
				add(Keyword{Text: c, Stem: c, CJK: true})
			}
			continue
		}
		if text.IsStop(t.Text) {
			continue
		}
		add(Keyword{Text: t.Text, Stem: text.Stem(t.Text)})
	}
	// A lone character is a word only when nothing longer was asked ("茶"); beside longer
	// keywords it is usually a verb or particle ("去", "吃") and only adds noise.
	if len(a.Keywords) > 0 {
		a.Singles = nil
	}
	dropPersonWords(&a)
	vseen := map[string]bool{}
	for _, k := range a.Keywords {
		if k.CJK {
			continue
		}
		for _, v := range variantsOf(k.Text) {
			if !seen[text.Stem(v)] && !vseen[v] {
				vseen[v] = true
				a.Variants = append(a.Variants, v)
			}
		}
	}
	var exp []string
	if a.Identity {
		exp = append(exp, identityExpansions...)
	}
	if a.Intent == IntentPreference {
		exp = append(exp, preferenceExpansions...)
	}
	// A category named in the query ("pets", "宠物") also looks for its members ("dog", "猫").
	exp = append(exp, text.ConceptMembers(rest)...)
	eseen := map[string]bool{}
	for _, e := range exp {
		key := e
		if !text.HasCJK(e) {
			key = text.Stem(e)
		}
		if seen[key] || eseen[key] {
			continue
		}
		eseen[key] = true
		a.Expansions = append(a.Expansions, e)
		if len(a.Expansions) >= maxExpansions {
			break
		}
	}
	return a
}

// isCJKTimeChunk reports chunks that only say when ("去年", "上个月"); the time expression
// carries them.
func isCJKTimeChunk(c string) bool {
	switch c {
	case "今天", "昨天", "前天", "明天", "最近", "以前", "之前", "之后", "以后", "去年", "今年", "明年", "前年",
		"上周", "本周", "这周", "下周", "上个月", "这个月", "本月", "下个月", "上月", "周末", "上周末":
		return true
	}
	return false
}

// irregular pairs English forms the Porter stemmer cannot relate.
var irregular = func() map[string][]string {
	groups := [][]string{
		{"win", "won"}, {"go", "went", "gone"}, {"buy", "bought"}, {"see", "saw", "seen"}, {"make", "made"},
		{"take", "took", "taken"}, {"give", "gave", "given"}, {"run", "ran"}, {"meet", "met"}, {"teach", "taught"},
		{"think", "thought"}, {"write", "wrote", "written"}, {"feel", "felt"}, {"find", "found"}, {"tell", "told"},
		{"begin", "began", "begun"}, {"bring", "brought"}, {"build", "built"}, {"catch", "caught"},
		{"choose", "chose", "chosen"}, {"draw", "drew", "drawn"}, {"drive", "drove", "driven"}, {"eat", "ate", "eaten"},
		{"fall", "fell", "fallen"}, {"fly", "flew", "flown"}, {"forget", "forgot", "forgotten"}, {"grow", "grew", "grown"},
		{"hear", "heard"}, {"hold", "held"}, {"keep", "kept"}, {"know", "knew", "known"}, {"leave", "left"},
		{"lose", "lost"}, {"pay", "paid"}, {"ride", "rode", "ridden"}, {"rise", "rose", "risen"}, {"say", "said"},
		{"sell", "sold"}, {"send", "sent"}, {"sing", "sang", "sung"}, {"sit", "sat"}, {"sleep", "slept"},
		{"speak", "spoke", "spoken"}, {"spend", "spent"}, {"stand", "stood"}, {"swim", "swam", "swum"},
		{"throw", "threw", "thrown"}, {"understand", "understood"}, {"wear", "wore", "worn"}, {"break", "broke", "broken"},
		{"come", "came"}, {"become", "became"}, {"lead", "led"}, {"fight", "fought"}, {"feed", "fed"},
		{"dream", "dreamt"}, {"learn", "learnt"}, {"lend", "lent"}, {"shoot", "shot"}, {"steal", "stole", "stolen"},
		{"child", "children"}, {"person", "people"}, {"man", "men"}, {"woman", "women"}, {"mouse", "mice"},
		{"foot", "feet"}, {"tooth", "teeth"},
		// Derived forms the stemmer leaves apart.
		{"allergic", "allergy", "allergies"}, {"intolerant", "intolerance"},
	}
	m := map[string][]string{}
	for _, g := range groups {
		for _, w := range g {
			for _, o := range g {
				if o != w {
					m[w] = append(m[w], o)
				}
			}
		}
	}
	return m
}()

func variantsOf(w string) []string { return irregular[w] }

// typeWeight tilts the ranking by intent: the memory types that answer a kind of question come
// first when everything else is equal.
func typeWeight(in Intent, t memory.Type) float64 {
	switch in {
	case IntentPreference:
		switch t {
		case memory.TypeUser:
			return 1.3
		case memory.TypeFeedback:
			return 1.2
		}
	case IntentKnowledge:
		switch t {
		case memory.TypeReference:
			return 1.2
		case memory.TypeProject:
			return 1.15
		}
	case IntentExperience:
		switch t {
		case memory.TypeExperience:
			return 1.35
		case memory.TypeFeedback:
			return 1.1
		}
	case IntentCode:
		switch t {
		case memory.TypeProject:
			return 1.2
		case memory.TypeReference:
			return 1.15
		case memory.TypeExperience:
			return 1.1
		}
	}
	if t == memory.TypeDaily {
		return 0.9
	}
	return 1
}

// Temporal markers: words that say when something happened. A "when" question prefers the
// memories that carry one.
var (
	timeWordsAlone = setOf(`yesterday today tonight tomorrow ago recently since january february march april june
		july august september october november december weekend`)
	timeWordsAfter = setOf(`week weekend month year night monday tuesday wednesday thursday friday saturday sunday
		summer winter spring fall autumn morning afternoon evening`)
	timeWordsLead  = setOf(`last this next past`)
	timeUnits      = setOf(`day days week weeks month months year years`)
	cjkTimeMarkers = []string{"昨天", "今天", "明天", "前天", "上周", "下周", "本周", "这周", "上个月", "下个月", "这个月",
		"去年", "今年", "明年", "前年", "最近", "以前", "之前", "星期", "周末", "天前", "周前", "月前", "年前"}
	reCJKDate = text.Lazy(`\d+\s*[年月日号]`)
)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// hasTemporalMarker reports whether s says when.
func hasTemporalMarker(s string) bool {
	toks := text.Split(s)
	for i, t := range toks {
		if t.CJK {
			continue
		}
		w := t.Text
		switch {
		case timeWordsAlone[w]:
			return true
		case timeWordsLead[w] && i+1 < len(toks) && timeWordsAfter[toks[i+1].Text]:
			return true
		case len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) && isDigits(w):
			return true
		case isDigits(w) && i+1 < len(toks) && timeUnits[toks[i+1].Text]:
			return true
		}
	}
	if !text.HasCJK(s) {
		return false
	}
	for _, m := range cjkTimeMarkers {
		if strings.Contains(s, m) {
			return true
		}
	}
	return reCJKDate.MatchString(s)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// interrogative reports whether a memory's text is itself a question: in a recorded
// conversation, the answer is the turn that follows it.
func interrogative(body string) bool {
	b := strings.TrimSpace(body)
	// An image caption may follow the spoken text; look at the spoken part's end too.
	if i := strings.LastIndex(b, "\n"); i > 0 {
		if s := strings.TrimSpace(b[:i]); strings.HasSuffix(s, "?") || strings.HasSuffix(s, "？") {
			return true
		}
	}
	return strings.HasSuffix(b, "?") || strings.HasSuffix(b, "？")
}

// maxRelaxedChars bounds the characters a relaxed search looks for: a short question
// ("我的狗叫什么" leaves 狗叫) is what a missing word boundary defeats; a long one that found
// nothing has no answer here, and searching each of its characters would only scan and mislead.
const maxRelaxedChars = 4

// relaxCJK is the analysis searched again when a query found nothing: its Chinese keywords
// become their single characters (the ones that are not stop words), searched as substrings
// by the lexical paths only. Only a short query of Chinese keywords alone is relaxed: with an
// English word beside them, that word already searched and found nothing.
func relaxCJK(a Analysis) (Analysis, bool) {
	var singles []string
	seen := map[string]bool{}
	for _, k := range a.Keywords {
		if !k.CJK {
			return a, false
		}
		for _, r := range k.Text {
			c := string(r)
			if !seen[c] && !text.IsChineseStop(c) {
				seen[c] = true
				singles = append(singles, c)
			}
		}
	}
	if len(singles) == 0 || len(singles) > maxRelaxedChars {
		return a, false
	}
	a.Keywords, a.Singles = nil, singles
	a.Facets, a.Expansions, a.Variants = nil, nil, nil
	a.relaxed = true
	return a, true
}

// holdsMost reports whether a memory holds more than half of a relaxed search's characters
// (both of two, two of three, three of four): one shared character ("效" of 测试效果 in 效率)
// is not a match.
func holdsMost(m *memory.Memory, chars []string) bool {
	hay := m.Title + "\n" + m.Body
	n := 0
	for _, c := range chars {
		if strings.Contains(hay, c) {
			n++
		}
	}
	return 2*n > len(chars)
}
