package recall

import (
	"slices"
	"sync"

	"engram/backend/text"
)

// wordingFacetRules are question forms of facets the rules already read, in the wordings that
// blind question sets used and no rule read: how long the commute is, what the person earns
// ("what do I earn", "how much do I get an hour"), how long they have lived where they are,
// units and ways of being tested asked of the assistant, a medicine a doctor offers, an ache
// and who treats it, the school of a degree asked without 我, what the person means to do
// later ("不跑车了以后想干啥"). Each keeps to the person: "how long does the build take to get
// to prod" or "what should the API return in km" are not among them.
//
// Wider than the core forms, they are not read in a question about software, files or work
// items (reTaskWords): "what address do I put in the config" is not about the person's home.
var wordingFacetRules = []facetRule{
	{FacetWork,
		facetRe(`\bhow (?:long|far) (?:is it|does it take(?: me)?|will it take(?: me)?) to (?:get|go|drive|cycle|walk|commute) (?:in )?to work\b|\bhow do i (?:usually |normally )?(?:get|go|travel) to work\b|\bmy commute\b|\bhow long(?: is|'s) my commute\b|\b(?:what time|when) do i (?:usually |normally |typically )?(?:knock off|finish work|finish up at work|clock (?:off|out|on|in)|start work|get off work|leave work|get out of work)\b|\b(?:what time|when) do i (?:usually |normally |typically )?(?:finish|start)(?: up)?(?: (?:today|tonight|tomorrow|on \w+))?\z`,
			`我(?:做|干|当)\p{Han}{1,4}(?:做|干|当)了(?:多少|几)年|我(?:工作|上班|干这行|入行|参加工作)(?:了)?(?:多少|几)年|我(?:上班|通勤)(?:路上)?(?:要|得)?(?:多久|多长时间|怎么去)`),
		nil},
	{FacetMoney,
		facetRe(`\bwhat do i (?:earn|make|take home|get paid)\b|\bhow much do i (?:get|earn|make|take home)(?: paid)? (?:an?|per|each|every) (?:hour|week|month|year|shift|day)\b|\b(?:what(?:'s| is)|how much is) my (?:pay|hourly (?:pay|rate)|income|take-home(?: pay)?|wage)\b|\bhow much (?:pocket money|allowance) do i get\b|\b(?:what|how much) (?:do|should|would) i (?:charge|bill|ask for)\b|\bhow much (?:do|did) i (?:still )?owe\b|\bhow much (?:is )?(?:still )?(?:left|owing|outstanding) (?:to pay )?on (?:the|my) (?:[\w-]+ )?(?:loan|mortgage|car|truck|van|ute|credit card|card|overdraft|bike|house|flat|phone|sofa|couch|tv|student loan)\b|\bhow much am i on (?:an?|per|each) (?:hour|week|month|year|day)\b|\bmy (?:rates|prices|fees|charges)\b`,
			`(?:给|打)我(?:多少|几)(?:钱|块|万)|(?:一个月|每月|每个月|一年|每年)\p{Han}{0,3}(?:给|打)我(?:多少|几)|我?(?:一个月|每月|每个月|一年|每年)\p{Han}{0,3}?(?:能)?(?:挣|赚|拿|收入|到手|工资)(?:多少|几|好多)|我(?:的)?生活费`),
		// What the person is paid or pays, in figures: "~CAD 68k/yr", "£40/hr", "6,900 kr/month
		// incl. heating", "Rates: £85 per tuning", a rent.
		facetRe(`(?:[£$€¥]|\b(?:usd|eur|gbp|cad|aud|nzd|rmb|kr|dkk|sek|nok|chf|inr)\b)\s?~?\d[\d,.]*\s*k?\s*(?:/\s?|per |a )(?:hr|hour|day|week|wk|month|mo|year|yr|annum|shift|session|lesson|tuning|visit|job)\b|\d\s*(?:kr|usd|eur|gbp|cad|aud|dkk|sek|nok|chf|inr|dollars|pounds|euros)\s*(?:/\s?|per |a )(?:hr|hour|day|week|month|mo|year|yr)\b|\b(?:rates?|prices|fees)\s*[:=]|\brent(?:s|ed|ing)? (?:a|an|the|her|his|their|my|our)\b|\bper annum\b|/yr\b`)},
	{FacetHome,
		facetRe(`\bhow (?:long|many years|many months) (?:have i|i've) (?:been|lived|been living) (?:in|here|there|over here)\b|\bhow long ago did i move (?:here|there|to)\b|\bwhere do i stay\z|\bwhat (?:address|postcode|post code|zip(?: code)?) (?:do|should|can|would) i (?:put|use|give|write|enter)\b|\b(?:which|what) floor\b[^?]{0,20}\b(?:my|i)\b`,
			`我(?:的)?宿舍\p{Han}{0,4}(?:门牌|房间号|几号|哪|多少)|我(?:住|家)(?:的)?(?:门牌号|房间号|房号|几号楼|几栋|几单元|楼号)|我(?:来|到|搬到|住在)\p{Han}{1,6}(?:多少|几)年了|我(?:住|家)(?:在)?(?:几楼|几层|哪层|哪一层)`),
		facetRe(sentenceStart+`(?:then |later )?moved (?:up |down |over |north |south |back )?to (?-i:\p{Lu})\p{L}+(?:,? (?-i:\p{Lu})\p{L}+)?,? (?:in )?(?:19|20)\d\d\b`, sentenceStart+`(?:currently |now )?lives (?:aboard|on board|on (?:a|an|the) (?:[\w-]+ ){0,2}(?:boat|barge|narrowboat|houseboat|farm|ranch|island|estate))\b`, sentenceStart+`in (?-i:\p{Lu})\p{L}+(?: (?-i:\p{Lu})\p{L}+)? since (?:19|20)\d\d\b`,
			// A dwelling given by its building and number, after a comma too ("大三，住二校区A12公寓514"):
			// a pet's corner of the flat has no building number.
			`住(?:在)?[\p{Han}A-Za-z0-9]{0,10}(?:公寓|宿舍|小区|号楼|栋|单元)\s*[A-Za-z0-9一二三四五六七八九十]`)},
	{FacetManner,
		facetRe(`\b(?:what|which) pronouns? (?:should|do|will|would|must|can) you use\b|\b(?:what|which) (?:name|title) (?:should|do|will|would|must|can) you (?:use for me|call me|give me)\b|\b(?:celsius or fahrenheit|fahrenheit or celsius|metric or imperial|imperial or metric|miles or (?:km|kilomet\w+)|(?:km|kilomet\w+) or miles|kgs? or lbs?|lbs? or kgs?|12h or 24h|24h or 12h|am/pm or 24h)\b[^?]{0,20}\b(?:me|my|you|u)\b|\b(?:me|my|you|u)\b[^?]{0,50}\b(?:celsius or fahrenheit|fahrenheit or celsius|metric or imperial|imperial or metric|miles or (?:km|kilomet\w+)|(?:km|kilomet\w+) or miles|kgs? or lbs?|lbs? or kgs?|12h or 24h|24h or 12h|am/pm or 24h)\b|\b(?:you|u)\b[^?.!]{0,30}\bme\b[^?.!]{0,40}\b(?:miles|kms?|kilomet(?:re|er)s?|pounds|lbs|kilos?|kgs?|stones?|feet|metres?|meters?|inches|cm|ounces|oz|grams)\b`,
			`(?:你|您)(?:回|回复|答复|给)我\p{Han}{0,4}?(?:该|要|得|应该)?(?:咋|怎么|如何|怎样)(?:个)?(?:写|回|说|弄)|(?:你|您)(?:该|应该|要|得)?(?:管|叫|称呼|喊)我(?:叫)?(?:什么|啥)|(?:你|您)(?:回|回复|答复|给)我\p{Han}{0,4}(?:能|可以)(?:发|用|带|写)\p{Han}{1,4}(?:吗|不|么)|(?:你|您)(?:回答|回复|答复|回)我(?:的)?(?:时|时候|的时候)\p{Han}{0,4}(?:什么|啥)|(?:你|您)(?:给|跟|和|对)?我(?:回话|回复|回答|说话|讲话|回消息)\p{Han}{0,4}?(?:要|得|该|应该|需要)?(?:注意|留意|避免|记住)(?:些|点)(?:什么|啥)`),
		nil},
	{FacetHealth,
		facetRe(`\b(?:gp|doctor|doc|dentist|pharmacist|chemist|pharmacy|nurse|consultant|specialist)\b[^?]{0,40}\b(?:(?:give|prescribe|put) me\b|offer(?:ed|s|ing)? (?:me )?(?:some )?(?:\w+ ){0,2}(?:aspirin|ibuprofen|paracetamol|acetaminophen|codeine|tramadol|naproxen|\w{3,}(?:pril|olol|statin|sartan|dipine|prazole|xetine|azepam|mycin|cillin|formin|cycline|floxacin)|pills?|tablets?|antibiotics?|painkillers?|jabs?|shots?|injections?)\b)|\b(?:aspirin|ibuprofen|paracetamol|acetaminophen|codeine|tramadol|naproxen|\w{3,}(?:pril|olol|statin|sartan|dipine|prazole|xetine|azepam|mycin|cillin|formin|cycline|floxacin))\b[^?]{0,60}\b(?:ok|okay|fine|safe|alright|all right) (?:for me|to take)\b|\bmy (?:[\w-]+ )?(?:blood thinners?|thinners?|inhalers?|insulin|jabs?|injections?|eye ?drops|(?:nicotine|pain|hrt|contraceptive) patch|pill)\b|\bcheck (?:my|on my) (?:blood|bloods|inr|sugars?|levels|pressure|eyes|teeth|hearing)\b|\bmy (?:bloods|blood tests?|inr|blood sugars?|sugars|check-?ups?)\b|\b(?:should|can|could) i take (?:anything|something)(?: for\b|\s*[?？]*\s*\z)|\bwhat (?:should|can) i take for (?:a |an |my |this |the )?(?:headache|migraine|cold|flu|cough|fever|pain|back|hay ?fever|allerg\w+|sore \w+|stomach|heartburn|nausea|sneez\w+|rash|itch\w*|cramps?|period pain|toothache)\b|\b(?:tooth|teeth|toothache|molar|filling|crown|gums?|my back|back pain|back'?s|back is|knee|eyes?|ear|throat|chest|stomach)\b[^?]{0,40}\bwho (?:do|should) i (?:see|call|book|go to|ring)\b|\b(?:can|could|should|may) i (?:take|have|use|be given)\b[^?]{0,30}\b(?:aspirin|ibuprofen|paracetamol|acetaminophen|codeine|tramadol|naproxen|\w{3,}(?:pril|olol|statin|sartan|dipine|prazole|xetine|azepam|mycin|cillin|formin|cycline|floxacin))\b|\bwho (?:do|should) i (?:see|call|book|go to|ring)\b[^?]{0,40}\b(?:tooth|teeth|toothache|my back|back pain|knee|eyes?|skin|ears?|throat|chest|stomach|feet|foot)\b`,
			`我(?:那|的|那个|这)?\p{Han}{0,4}药\p{Han}{0,6}(?:吃|服|用)|(?:牙|头|胃|肚子|腰|嗓子|眼睛|耳朵|膝盖|脚)\p{Han}{0,2}(?:疼|痛|不舒服)\p{Han}{0,3}(?:找谁|找哪|去哪|挂什么|挂啥|看哪)|看(?:眼睛|牙|牙齿|耳朵|皮肤|心脏|胃|腰|腿|骨科|眼科|牙科|\p{Han}{0,2}病)\p{Han}{0,2}的(?:是)?(?:哪个|哪位|谁|什么)(?:大夫|医生)?|看\p{Han}{1,6}的(?:是)?(?:哪个|哪位|谁)(?:大夫|医生)|(?:疼|痛|不舒服|难受|发烧|感冒|咳嗽|拉肚子)[\p{Han}\s，,]{0,10}?(?:有啥|有什么|吃啥|吃什么|吃点啥)(?:药|能吃|可以吃)?`),
		nil},
	{FacetEducation,
		facetRe(`^(?:研究生|硕士|博士|本科|大学|高中|初中|中学)(?:是)?(?:在)?哪(?:里|儿|个学校|所学校|所大学|个大学)?(?:念|读|上)(?:的)?`),
		nil},
	{FacetGoal,
		facetRe(`\bwhat (?:did|do) i (?:say|tell you|mention) i (?:want(?:ed)?|plan(?:ned)?|hope[d]?|(?:was|am) (?:going|planning|hoping)) to\b|\bwhat (?:do|did) i (?:want|plan|hope) to (?:specialise|specialize|go into|train as|train in)\b|\bwhere (?:am|was) i (?:hoping|planning|going|aiming|wanting) to (?:retire|move|settle|live)\b|\bwhere do i (?:want|plan|hope) to (?:retire|move|settle|live)\b|\b(?:what|which)\b[^?]{0,40}\bi (?:want|hope|plan|dream|would love|'d love) to (?:do|enter|compete in|run|try|see|visit)\b[^?]{0,20}\b(?:someday|some day|one day|eventually|before i die|in the future)\b`,
			`(?:以后|将来|退休后|退休以后|之后|往后|不\p{Han}{1,3}了以后)(?:我)?(?:想|打算|准备|要)(?:干|做|去|开|学)(?:点)?(?:什么|啥|嘛)(?:$|[？?吗呢])`),
		nil},
	{FacetFamily,
		facetRe(`(?:^|我)家(?:里)?(?:那|这|的)?(?:只|条|头|个)\p{Han}{1,4}叫(?:什么|啥)(?:名|名字)?`),
		nil},
	// A birth date in figures ("b. 14/02/1964", "1987.6.2生", "1973年9月20日生（农历八月）")
	// and an age given as this year's ("今年52").
	{FacetAge,
		nil,
		facetRe(`\b(?:b\.|born|dob|d\.o\.b\.)\s*:?\s*(?:on )?\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)?\d\d\b`,
			`(?:19|20)\d\d\s*[./-]\s*\d{1,2}\s*[./-]\s*\d{1,2}\s*(?:出生|生人|生(?:[，,。；;）)\s（(]|$))|\d{4}\s*年(?:\d{1,2}\s*月)?(?:\d{1,2}\s*[日号])?(?:出生|生人|生)[（(]|今年\s*\d{1,3}\s*(?:岁)?(?:[，,。；;）)\s]|$)`)},
	// In-laws and grandparents named without 我 ("婆婆今年多大岁数").
	{FacetFamily,
		facetRe(`^(?:我(?:的|家)?)?(?:婆婆|公公|岳父|岳母|丈母娘|老丈人|奶奶|爷爷|外婆|外公|姥姥|姥爷)`),
		facetRe(`婆婆|公公|岳父|岳母|丈母娘|老丈人|奶奶|爷爷|外婆|外公|姥姥|姥爷`)},
	// Ethnicity and nationality ("我是啥民族", "what's my nationality") are where the person
	// comes from.
	{FacetOrigin,
		facetRe(`\bmy (?:ethnicity|ethnic background|heritage|nationality|citizenship)\b|\bwhat (?:nationality|ethnicity) am i\b`,
			`我(?:是)?(?:什么|啥|哪个)(?:民族|族)|我的(?:民族|国籍)|我(?:是)?(?:哪|什么|啥)国(?:籍|人)`),
		facetRe(`\b(?:citizen|citizenship|nationality|heritage|of (?:\w+ )?descent)\b`,
			`(?:汉|壮|回|满|维吾尔|苗|彝|土家|藏|蒙古|侗|布依|瑶|白|朝鲜|哈尼|黎|哈萨克|傣|畲|傈僳|东乡|仡佬|拉祜|佤|水|纳西|羌|仫佬|锡伯|柯尔克孜|景颇|达斡尔|撒拉|布朗|毛南|塔吉克|普米|阿昌|怒|鄂温克|京|基诺|德昂|保安|裕固|乌孜别克|门巴|鄂伦春|独龙|赫哲|高山|珞巴|塔塔尔)族(?:[，,。；;）)\s人]|$)|国籍`)},
	// Learning to drive is a goal the person is working towards ("驾照考到哪一步了").
	{FacetGoal,
		facetRe(`\bmy (?:driving|drivers?|driver's) (?:test|licen[cs]e|lessons?)\b`, `(?:我的)?(?:驾照|驾考|科目[一二三四])\p{Han}{0,4}(?:考到|到哪|怎么样|过了|多会|什么时候|啥时候|几号)`),
		facetRe(`\b(?:learning to drive|driving (?:test|lessons?)|learner'?s permit)\b`, `学车|考驾照|驾考|科目[一二三四]`)},
	// Days off, a start time, the bday ("which day of the week am I off", "what time do i
	// have to be at the yard", "when's my bday").
	{FacetRoutine,
		facetRe(`\b(?:which|what) days? (?:of the week )?(?:am i|do i (?:have|get)) (?:off|free)\b|\b(?:when|which|what)(?:'s| is| are)? (?:\w+ )?my days? off\b|\bwhat time do i (?:have to|need to|got to|gotta) be (?:at|in) (?:work|the (?:yard|site|office|shop|hospital|clinic|ward|depot|station|factory|plant|store|restaurant|kitchen|school|mine|farm|garage|warehouse|studio|salon|lab|bakery|gym|rink|dock|port|airport|base|stables|mill|rig|hangar))\b`),
		facetRe(`(?:mon|tues|wednes|thurs|fri|satur|sun)days? off\b|starts? (?:at )?\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|a|p)\b|\d(?::\d\d)?\s*am?\s*[–—-]\s*\d{1,2}(?::\d\d)?\s*pm?\b`)},
	// A week's fixed times: a weekday with a part of the day or an hour, a day off ("Shifts Sat
	// & Sun 7am–2pm", "周三下午金工实习", "每周二店休"); asked by advice at a day or an hour
	// (facetadvice.go), and stated by the routine and work notes too.
	{FacetWeek, nil,
		facetRe(`\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b[^.;\n]{0,24}\b(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|a|p)\b|mornings?|afternoons?|evenings?|nights?)|\b(?:mon|tue|wed|thu|fri|sat|sun)\b[^.;\n]{0,12}\d{1,2}(?::\d\d)?\s*(?:am|pm|a|p)\b`,
			`(?:周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天])\p{Han}{0,4}?(?:早上|上午|中午|下午|晚上|\d{1,2}\s*点)|(?:周[一二三四五六日天]|星期[一二三四五六日天])\p{Han}{0,2}(?:店休|休息|轮休|调休|不上班|休班)|(?:店休|休息日|轮休|调休)`)},
	{FacetWork, facetRe(`\bwhat time do i (?:have to|need to|got to|gotta) be (?:at|in) (?:work|the (?:yard|site|office|shop|hospital|clinic|ward|depot|station|factory|plant|store|restaurant|kitchen|school|mine|farm|garage|warehouse|studio|salon|lab|bakery|gym|rink|dock|port|airport|base|stables|mill|rig|hangar))\b`), nil},
	{FacetAge,
		facetRe(`\bmy (?:b-?day|b'day|bdy)\b`, `我(?:今年|现在)?(?:好大|多大|多少)(?:年纪|岁数|岁)|我(?:今年|现在)?好多岁`),
		facetRe(`\d{4}\s*年\d{1,2}\s*月\d{1,2}\s*[日号]\s*[（(][^）)]{0,8}[）)]\s*生`)},
	{FacetName, facetRe(`\b(?:the )?name i (?:publish|write|post|perform|sign|paint|record|go) (?:under|as|by)\b`), nil},
	{FacetFamily, facetRe(`我(?:的|家)?老伴|^老伴`), facetRe(`老伴`)},
	// Fears named otherwise: a phobia by its name, panic, dizziness, what the person will not
	// do ("Claustrophobic — panicked in an MRI tube", "gets dizzy above 2 m", "can't swim",
	// "晕船").
	{FacetFear, nil, facetRe(`\b\w+phob(?:ia|ic)s?\b|\b(?:panick(?:ed|y)|dizzy|faints? (?:at|around|when)|seasick|travel sick|motion sickness|can'?t swim|non-swimmer|(?:won'?t|never) (?:fly|go up|climb))\b`, `晕(?:车|船|机|血|针)|不敢`)},
	// Conditions of the joints and of the heart named without a medicine ("右膝半月板损伤",
	// "Atrial fibrillation").
	{FacetHealth, nil, facetRe(`\b(?:fibrillation|arrhythmia|arthritis|tinnitus|hearing loss|epilep\w+|migraines?|asthma|copd|sciatica|hernia|torn (?:acl|meniscus)|meniscus|knee replace\w*|hip replace\w*|stent|angina)\b`, `损伤|半月板|腰椎|颈椎|关节炎|支架|心脏病|哮喘|癫痫|偏头痛|耳鸣`)},
}

// personalFacetRules are forms bound to the person so closely ("how are you meant to test me")
// that a word shared with software does not make them a task question.
var personalFacetRules = []facetRule{
	{FacetManner, facetRe(`\bhow (?:are|were) you (?:meant|supposed) to (?:\w+ ){0,3}me\b`), nil},
}

// reTaskWords mark a question about software, files or work items, beyond reSoftwareWords.
var reTaskWords = text.Lazy(`(?i)\b(?:config|configuration|env|yaml|json|csv|files?|sprint|standup|stand-up|tickets?|issues?|pipeline|builds?|logs?|commits?|branch|package|library|script|docs?|readme|prod|staging|cluster|container|refactor\w*|parser|rebase|merge|lint\w*|compile\w*|dependenc\w+|migrate|sqlite|postgres\w*|mysql|redis|kafka|docker|kubernetes|k8s|aws|gcp|azure|monolith|microservices?|cache|caching|request|cookies?|backlog|vpn|patch(?:es)? (?:land|merge)|machine|printer|server|endpoint|(?:a|this|the|new|base|abstract|parent|child) class|method|variable|schema|index|meeting|standup|stand-up|sync|one-on-one|tabs or spaces|spaces or tabs|typescript|python|golang|rust|java|sql|demo|retro|webinar|hackathon|all-hands|hotfix|todos?|roadmap|e2e|suite|third-party|round[- ]trips?|product tours?|in-flight|connection pools?|ssh tunnels?|lockfiles?|sdk|profiler|prs)\b|用例|仓库|排期|评审|报表|告警|机房|流量|内存|磁盘|报价|迭代|周报|甲方|交付|审批|停机|定时任务|云资源|日志|服务|配置|文件|脚本|工单|索引|代码|重构|上线|发版|字段|接口|请求|缓存|换行|变量|函数|发送|刷新|截断|字符串|界面|暗色|按钮|数据|表格|部署`)

// wordingQuestions are the question forms of wordingFacetRules, plainFacetRules and the
// concept families (conceptRules), which a question about software or work items does not
// read (see reTaskWords).
var wordingQuestions = sync.OnceValue(func() map[*text.Regexp]bool {
	out := map[*text.Regexp]bool{}
	for _, r := range append(append(slices.Clone(wordingFacetRules), plainFacetRules...), conceptRules...) {
		if r.question != nil {
			out[r.question] = true
		}
	}
	return out
})

// rePaperwork is a form on paper ("I need it for a form", "fill in the form"), not a web form,
// and a ticket to a concert or a train, not a work item: taskWorded reads the question without
// them.
var rePaperwork = text.Lazy(`(?i)\b(?:(?:for|on|in|onto) (?:a|the|this|that|my|an?(?: \w+)?) forms?|fill(?:ing)? (?:in|out) (?:a|the|this|that|my) forms?|(?:concert|train|plane|bus|movie|cinema|match|theatre|theater|festival|gig|show|lottery|raffle|flight|ferry|footy|football|game) tickets?)\b`)

// taskWorded reports a question about software or work items, which the wording forms leave.
func taskWorded(q string) bool {
	q = rePaperwork.ReplaceAllString(q, " ")
	return reSoftwareWords.MatchString(q) || reTaskWords.MatchString(q)
}
