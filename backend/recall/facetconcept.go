package recall

import (
	"regexp"
	"strings"
	"sync"

	"engram/backend/text"
)

// Concept families (2026-12-06). The facet forms were written one wording at a time, so a
// question about the person in a wording nobody wrote was not read as one: "what name do I go
// by", "which company employs me", "any dietary restrictions I have?", "what's my morning
// coffee", "我是哪个省的人", "我有哪些饮食禁忌", "用户的姓名" (read as 我的姓名). Its words then ranked
// a project or reference note that shares a noun ("Coffee machine API", "Company offsite",
// "用户表有姓名…字段") above the person's own note. A family is the words a facet is named by,
// in both languages, as data; a few shapes that bind those words to the person (below) make
// the question forms, so a new word is a line in the table, not a new expression.
//
// The shapes, on the question as facetText reads it (the user's → my, 用户 → 我):
//   - mine: "my [usual|current|morning|…] NOUN" closing the question ("what's my hometown",
//     "what's my morning coffee", "what are my dietary restrictions"); "我的NOUN" or "我NOUN"
//     closing it, a question word or 是/叫/在 allowed after ("我的籍贯", "我的姓名是什么");
//   - asked: "what|which|any [WORD [and|or]] NOUN [aux] I|me" ("what name do I go by", "which
//     company employs me", "any dietary restrictions I have", "what food and drink do I
//     like"), the words between kept to one and modal verbs left out ("what name should I
//     give the branch" is a task); "我有哪些NOUN";
//   - asks: phrases with the person inside them ("do i go by", "employs me", "我是哪个省的人").
// Like the wording forms, none of them is read in a question about software or work items
// (taskWorded): "what's my branch name in the repo" stays a task.

// conceptFamily is one facet's words. nouns are lower-case English phrases ("_" joins
// words), zhNouns Chinese words; asks and zhAsks are expressions with the person inside.
// kinds adds the kinds of food and drink (facetvocab.go) to the nouns ("my morning flat
// white"); avoid marks the family whose words ask what the person must not have (diet).
// whatNoun is set when "what|which NOUN … I" asks the facet: not for a place ("which town am
// I from" asks the origin, "which seaside town did I spend my girlhood in" too) nor an age
// ("at what age was I planning to retire" asks a plan).
type conceptFamily struct {
	facet                  Facet
	nouns, zhNoun          string
	asks, zhAsks           []string
	kinds, avoid, whatNoun bool
}

// conceptFamilies are the families. Several may name one facet: diet and food and drink are
// both the preference facet, diet asked as what the person avoids (reConceptAvoid).
var conceptFamilies = []conceptFamily{
	{facet: FacetName, whatNoun: true,
		nouns:  `name names full_name first_name given_name last_name surname family_name nickname preferred_name legal_name`,
		zhNoun: `姓名 名字 全名 称呼 大名 小名 昵称 真名 本名`,
		asks:   []string{`(?:am|was) i (?:called|known as|named)`},
		zhAsks: []string{`(?:大家|别人|同事|朋友|他们|你)?(?:都|平时|一般|通常)?(?:怎么|如何|咋)(?:称呼|喊)我`}},
	{facet: FacetWork, whatNoun: true,
		nouns:  `employer company firm workplace place_of_work job day_job job_title occupation profession line_of_work trade organisation organization team department`,
		zhNoun: `公司 单位 工作单位 雇主 东家 职业 职位 岗位 工作 部门`,
		asks:   []string{`(?:employs|employed) me`, `(?:am|was) i employed`},
		zhAsks: []string{`我(?:现在|目前)?在哪(?:个|家|一家)?(?:公司|单位|企业|机构|部门)`, `哪(?:家|个)(?:公司|单位)\p{Han}{0,2}(?:雇|聘)(?:用)?(?:了)?我`}},
	{facet: FacetOrigin, whatNoun: true,
		nouns:  `hometown home_town birthplace place_of_birth roots origins origin home_country home_state home_province country_of_origin native_country native_place`,
		zhNoun: `老家 家乡 籍贯 祖籍 出生地 故乡 原籍 生源地`,
		asks:   []string{`(?:where|which|what) (?:[\w-]+ ){0,3}(?:was|were) i born`, `where (?:[\w-]+ ){0,2}did i grow up`, `(?:what|which) (?:[\w-]+ )?(?:province|state|county|region|country|city|town|village|island|place) (?:am|was) i (?:originally )?from`, `where (?:do|did) i (?:originally )?come from`},
		zhAsks: []string{`我(?:是)?(?:哪|哪个|哪一个)(?:省|市|县|地方|国家|地区|村|镇)?(?:的)?人`, `我(?:是)?(?:从)?哪(?:个|一个)(?:省|市|县|地方|国家|地区)(?:来|出来)的`, `我(?:的)?(?:老家|家乡|籍贯)(?:是|在)?(?:哪|哪个|哪一个)(?:省|市|县|里|儿)`}},
	{facet: FacetHome,
		nouns:  `address home_address city town neighbourhood neighborhood suburb location residence whereabouts`,
		zhNoun: `住址 地址 住处 所在地 居住地 常住地 现居地 居所`,
		zhAsks: []string{`我(?:现在|目前)?(?:住|居住|生活)在(?:哪|哪个|什么)(?:城市|区|地方)?`}},
	{facet: FacetPreference, avoid: true, whatNoun: true,
		nouns:  `diet dietary_restrictions dietary_restriction dietary_requirements dietary_needs dietary_preferences food_restrictions food_allergies allergies allergy intolerances food_intolerances`,
		zhNoun: `饮食禁忌 禁忌 忌口 饮食限制 饮食要求 过敏 过敏源 过敏原`,
		asks:   []string{`(?:am|are) i (?:allergic|intolerant|vegetarian|vegan|pescatarian|coeliac|celiac)`},
		zhAsks: []string{`我(?:有|对)(?:什么|啥|哪些)\p{Han}{0,2}(?:禁忌|忌口|过敏)`, `我(?:吃|喝)(?:东西|饭)?(?:有|要)(?:什么|啥|哪些)(?:禁忌|讲究|限制)`}},
	{facet: FacetPreference, kinds: true, whatNoun: true,
		nouns:  `drink drinks beverage beverages coffee tea food foods dish dishes cuisine snack snacks coffee_order drink_order`,
		zhNoun: `饮料 饮品 咖啡 茶 口味 零食`},
	{facet: FacetLanguage, whatNoun: true,
		nouns:  `language languages native_language first_language mother_tongue`,
		zhNoun: `母语 语言 方言 家乡话`},
	{facet: FacetAge,
		nouns:  `birthday date_of_birth birth_date birthdate dob age`,
		zhNoun: `生日 出生日期 年龄 岁数 生肖 属相`},
}

// conceptMods are the words that may stand between "my" and a family's noun: they say which
// one of the person's, not whose ("my usual drink", "my current city", "my go-to order").
const conceptMods = `usual|current|present|morning|evening|afternoon|daily|everyday|regular|favou?rite|fave|go-to|preferred|full|real|first|last|legal|actual|exact|own|home|main|official|original|proper|old|new|permanent|normal|typical|standing|known|food|dietary|drink|coffee|tea`

// conceptZhMods are the Chinese words that may stand there ("我的饮食禁忌", "我平时的口味").
const conceptZhMods = `平时|平常|日常|现在|目前|如今|真实|真|全|常用|常|饮食|吃饭|个人`

// conceptQuestionTail is what may close a Chinese question after the noun: 是/叫/在 and a
// question word ("我的籍贯是哪里", "我的姓名叫什么来着", "我的过敏源有哪些").
const conceptQuestionTail = `(?:是|叫|在|有)?(?:什么|啥|哪里|哪儿|哪个|哪些|哪|多少|几|谁)?(?:来着)?(?:吗|呢|呀|啊)?`

// conceptNouns are a family's English nouns as an alternation, with the kinds of food and
// drink (vocabKinds) when withKinds is set: "my morning flat white".
func conceptNouns(f conceptFamily, withKinds bool) string {
	var alts []string
	for _, w := range strings.Fields(f.nouns) {
		alts = append(alts, regexp.QuoteMeta(strings.ReplaceAll(w, "_", " ")))
	}
	if withKinds {
		for _, k := range vocabKinds {
			for _, w := range k.words {
				if !text.HasCJK(w) {
					alts = append(alts, regexp.QuoteMeta(strings.ReplaceAll(w, "_", " ")))
				}
			}
		}
	}
	return strings.Join(alts, "|")
}

// conceptZhNouns is a family's Chinese nouns as an alternation, longest first.
func conceptZhNouns(f conceptFamily) string {
	ws := strings.Fields(f.zhNoun)
	for i := range ws {
		for j := i + 1; j < len(ws); j++ {
			if len([]rune(ws[j])) > len([]rune(ws[i])) {
				ws[i], ws[j] = ws[j], ws[i]
			}
		}
	}
	return strings.Join(ws, "|")
}

// conceptAux are the verbs that may stand between an asked noun and the person ("what name do
// I go by", "which province am I from"): not the modal ones, which ask what to do.
const conceptAux = `do|did|does|am|was|were|have|has|had|employs|employed|hired|pays`

// conceptRules are the families read as facet rules (question forms only: each facet's
// statements answer them).
var conceptRules = func() []facetRule {
	var out []facetRule
	for _, f := range conceptFamilies {
		nouns := conceptNouns(f, f.kinds)
		alts := []string{`\bmy (?:(?:` + conceptMods + `) ){0,2}(?:` + nouns + `)(?:\z|\s*[,;]| again| now| these days| exactly| then)`}
		if f.whatNoun {
			alts = append(alts, `\b(?:what|which|any|whats)(?:'s| are| is)? (?:[\w-]+ (?:(?:and|or|&) )?)?(?:`+nouns+`) (?:(?:`+conceptAux+`) )?(?:i|me)\b`)
		}
		for _, a := range f.asks {
			alts = append(alts, `\b`+a+`\b`)
		}
		zh := conceptZhNouns(f)
		alts = append(alts,
			`我(?:的)?(?:`+conceptZhMods+`)?(?:的)?(?:`+zh+`)`+conceptQuestionTail+`\z`,
			`我有(?:什么|啥|哪些)(?:`+zh+`)`)
		alts = append(alts, f.zhAsks...)
		out = append(out, facetRule{facet: f.facet, question: facetRe(alts...)})
	}
	return out
}()

// reConceptAvoid is the diet family's words: a preference question that names them asks what
// the person must not eat or drink (avoidAsked), whatever taste notes there are.
var reConceptAvoid = sync.OnceValue(func() *text.Regexp {
	for _, f := range conceptFamilies {
		if f.avoid {
			return facetRe(`\b(?:`+conceptNouns(f, false)+`)\b`, conceptZhNouns(f))
		}
	}
	return nil
})

// conceptLabels are the families' nouns as title labels (titleLabel): a note of the person's
// titled "Hometown", "Employer", "Dietary restrictions", "饮食禁忌" or "称呼" states that facet,
// as one titled with the labels of facettitle.go does.
var conceptLabels = sync.OnceValue(func() map[string]Facet {
	out := map[string]Facet{}
	for _, f := range conceptFamilies {
		for _, w := range append(strings.Fields(f.nouns), strings.Fields(f.zhNoun)...) {
			w = strings.ReplaceAll(w, "_", " ")
			if _, ok := out[w]; !ok {
				out[w] = f.facet
			}
		}
	}
	return out
})
