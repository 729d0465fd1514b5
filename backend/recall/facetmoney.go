package recall

import (
	"slices"

	"engram/backend/text"
)

// FacetMoney is how the person handles money: their bank, loans and when they fall due,
// savings, income, how they pay ("which bank am I with" — "Banks at the credit union on
// Portland St."; "贷款哪个月该还了" — "跟农商银行贷了15万，每年11月还一次").
const FacetMoney Facet = "money"

// moneyRule reads the money facet; the question forms keep to "my" and "I" ("which bank does
// the API call" is not one).
var moneyRule = facetRule{FacetMoney,
	facetRe(`\b(?:which|what) bank (?:am i (?:with|at|using)|do i (?:use|bank with|have|go to)|is mine|have i got)\b|\bmy (?:bank(?: account)?|savings|loans?|mortgage|pension|salary|wages|pay ?check|paycheque|budget|finances|debts?|credit cards?|overdraft|stipend)\b|\bhow (?:do|should) i (?:usually |normally |generally )(?:pay|budget|save)\b|\bhow (?:do|should) i (?:budget|save money|keep track of (?:my )?money)\b|\bhow much (?:do i|am i|have i) (?:earn|make|save|owe|saving|paying|saved|got saved)\b|\bwhen (?:is|does|do) my (?:loan|mortgage|rent|repayments?|payments?|pension|salary|wages|pay) (?:due|paid|go out|come in)\b|\bwho (?:handles|manages|looks after) (?:the |our )?(?:money|finances|budget)\b|\bwhat am i saving (?:up )?for\b|\bhow much (?:do|did|will) i (?:get paid|earn|make|take home|pay in rent|pay for rent)\b|\bmy (?:rent|hourly rate|day rate)\b|\bmy rate\z`,
		`(?:贷款|房贷|车贷|还款|欠款|借款|欠的钱)\p{Han}{0,6}(?:还|到期|多少|几月|哪个月|哪天|什么时候|啥时候)|我(?:的)?(?:工资|收入|存款|积蓄|退休金|养老金|补助|奖学金|预算|贷款|房贷|车贷|银行卡|开户行|信用卡)|我(?:在)?哪(?:个|家)银行|我(?:一般|平时)?(?:怎么|咋)(?:付钱|付款|记账|管钱|理财|存钱|攒钱)|(?:家里)?(?:钱|账)(?:是)?谁管|我(?:的)?(?:房租|月租|租金)|(?:房子|房租|月租)\p{Han}{0,3}(?:一个月|每月|每个月)?(?:多少|几)`),
	facetRe(`\b(?:banks?|banking|credit union|savings|saving up|loans?|mortgage|pension|salary|wages|budget|ledger|pays? (?:cash|by card|with)|cash only|debit|credit cards?|overdraft|isa|401k|stipend|income)\b`,
		`银行|信用社|农商行|贷(?:了|款)|还款|还一次|房贷|车贷|存款|积蓄|攒钱|存钱|工资|收入|补助|奖学金|退休金|养老金|预算|记账|管钱|理财|花销|开销|现金|刷卡|房租|月租|租金`)}

// moneyTitleLabels are the titles that label the money facet.
var moneyTitleLabels = map[string]Facet{
	"money": FacetMoney, "money habits": FacetMoney, "finances": FacetMoney, "finance": FacetMoney,
	"budget": FacetMoney, "banking": FacetMoney, "钱": FacetMoney, "钱的事": FacetMoney, "财务": FacetMoney,
	"理财": FacetMoney, "存款": FacetMoney, "花销": FacetMoney,
}

// roundFacetRules are question and answer forms of the other facets that held-out questions
// asked in words no rule read:
//   - a pet by what the person keeps ("我养的那个小家伙爱吃啥");
//   - a degree's subject ("我博士做的是啥方向") and when the person moved to the country they
//     live in ("which year did I move to England", the note about where they come from);
//   - a shift given as hours ("Permanent nights, 19:30–08:00") states the routine.
var roundFacetRules = []facetRule{
	{FacetFamily,
		facetRe(`我(?:家)?养的(?:那|这)?(?:只|条|个|头)?(?:小家伙|小东西|毛孩子|宝贝|小可爱|猫|狗|鸟|鱼|兔|仓鼠|乌龟)`),
		facetRe(`(?:养了|养着|养的)(?:一|两|三)?(?:只|条|个|头)?\p{Han}{0,4}(?:猫|狗|犬|仓鼠|鹦鹉|兔|龟|鱼|鼠)`)},
	{FacetEducation,
		facetRe(`我(?:的)?(?:博士|硕士|研究生|本科|大学|毕设|毕业论文)\p{Han}{0,4}(?:方向|专业|课题|题目|研究(?:的)?(?:是|啥|什么))`),
		facetRe(`读博|读研|博[一二三四五]|研[一二三]`)},
	{FacetOrigin,
		facetRe(`\b(?:when|which year|what year) did i (?:move|come|emigrate|relocate|come over|immigrate) (?:to|over|here)\b|\bhow long (?:have i|i've) been in (?:the )?(?-i:\p{Lu})`),
		facetRe(`\b(?:came|moved|emigrated|immigrated|relocated) (?:over )?(?:to|here) (?:[\w ]{0,40}?)(?:in|back in) (?:19|20)\d\d\b`, `(?:19|20)\d\d\s*年\p{Han}{0,4}(?:来到|搬到|移民|到了)`)},
	{FacetRoutine,
		nil,
		facetRe(`\b\d{1,2}[:.]\d{2}\s*(?:[–—-]|to)\s*\d{1,2}[:.]\d{2}\b|\b(?:permanent|regular|fixed|always on) (?:nights|days|lates|earlies)\b`)},
}

// roundTitleLabels label the education facet by what the person does ("读博").
var roundTitleLabels = map[string]Facet{"读博": FacetEducation, "读研": FacetEducation, "博士": FacetEducation}

// A family member's birthday ("When's my daughter's birthday?", "孙女几号过生日") is answered by
// a note that names them and gives a birthday: "孙女朵朵生日是六月一号", or the family note when
// it holds the birthday ("Sister Jo, bday 3 May"); not by the family note that only says who
// they are, nor by the note of the person's own birthday.
var (
	reBirthdayWord   = text.Lazy(`(?i)\b(?:birthday|bday|b-day|born)\b|生日|出生`)
	reBirthdayAnswer = text.Lazy(`(?i)\b(?:birthdays?|bdays?|b-days?|born|turns? \d+ on)\b|生日|出生|生于|[年月日号初一二三四五六七八九十]生(?:人)?(?:[，,。；;、\s]|$)`)
)

// birthdayAsked reports whether a question asks a family member's birthday.
func birthdayAsked(a Analysis) bool {
	return slices.Contains(a.Facets, FacetFamily) && !slices.Contains(a.Facets, FacetAge) && reBirthdayWord.MatchString(a.Query)
}
