package recall

import (
	"context"
	"slices"
	"strings"

	"engram/backend/memory"
	"engram/backend/text"
)

// Identity and preference questions ("what is my name", "where do I live", "我叫什么名字",
// "我住在哪里", "what do I like to drink") ask about the person, and the person lives in `user`
// memories. Their words are poor search terms: "live" also finds "the spec lives in docs/",
// "叫" also finds "我的猫叫豆豆". So a question is read for the facet it asks about (name, home,
// origin, work, age, preference) and the user memories that state that facet of the person
// are searched directly and put first; everything else keeps its ordinary rank below them.

// Facet is one thing a person can be asked about themselves.
type Facet string

// Facets.
const (
	FacetName       Facet = "name"
	FacetHome       Facet = "home"
	FacetOrigin     Facet = "origin"
	FacetWork       Facet = "work"
	FacetAge        Facet = "age"
	FacetPreference Facet = "preference"
	// Facets of a person's life beyond who and where they are (facetlife.go).
	FacetRoutine Facet = "routine"
	FacetFamily  Facet = "family"
	FacetHealth  Facet = "health"
)

// facetRule pairs the question forms that ask about a facet with the statement forms that
// answer it, both in English and Chinese. The statements are read only in user memories, which
// are about the person by definition, so besides the first person ("I live in", "我住在") they
// may name the person ("Priya lives in", "用户名叫"), or have no subject at all at the start of a
// sentence ("Lives in Austin.", "目前住在南京。"), the form extraction often writes. A clause
// after a comma does not count as subject-less: it usually continues the subject before it
// ("她养了一只猫，名字叫年糕，住在书房里" is the cat's home). The question forms are kept to the
// first person with the facet's words bound to it ("call me", "my address", "我家住哪儿"), so a
// task question that shares a word ("how should I name the branch") is not read as one.
type facetRule struct {
	facet    Facet
	question *text.Regexp
	answer   *text.Regexp
}

// facetRe joins alternatives into one case-insensitive, multi-line expression.
func facetRe(alts ...string) *text.Regexp {
	return text.Lazy(`(?im)` + strings.Join(alts, "|"))
}

// occupations are nouns that name a job, for statements of work without a verb ("Pediatric
// surgeon at …", "She is a nurse").
const occupations = `(?:engineer|developer|programmer|scientist|designer|manager|analyst|teacher|professor|lecturer|tutor|nurse|doctor|physician|surgeon|dentist|vet|veterinarian|lawyer|attorney|accountant|consultant|researcher|writer|journalist|architect|student|founder|co-founder|ceo|cto|cfo|chef|pilot|artist|musician|photographer|therapist|pharmacist|technician|salesperson|marketer|recruiter|librarian|freelancer|contractor|intern|clerk|electrician|plumber|mechanic|farmer|paramedic|firefighter|police officer|soldier|translator|economist|statistician)s?`

// sentenceStart is where a subject-less statement may begin: the memory's start or a new
// sentence (never after a comma, see facetRule).
const sentenceStart = `(?:^|[.!?;。！？；]\s*)\s*`

// facetRules are the core rules, those of the person's life (facetlife.go), of their
// studies, tools and fears (facetmore.go), and the wordings held-out sets asked in
// (facetmoney.go, facetwording.go), then the concept families (facetconcept.go).
var facetRules = append(append(append(append(append(coreFacetRules, lifeFacetRules...), moreFacetRules...), goalRule, contactRule, mannerRule, moneyRule), append(append(append(append(roundFacetRules, wordingFacetRules...), plainFacetRules...), personalFacetRules...), append(append(append(plainPersonalRules, askedFacetRules...), commuteRules...), orderRules...)...)...), conceptRules...)

var coreFacetRules = []facetRule{
	{FacetName,
		facetRe(`\b(?:what(?:'s| is) my (?:full |first |last |real )?name|my (?:full |first |last |real )?name|my (?:nick ?name|surname|family name|given name|maiden name|pen name|stage name|pseudonym)|who am i(?:$|[,;:]\s*\w+| really| exactly| again| anyway)|what am i called|what(?:'s| is) (?:i'm|i am) called|(?:what|how) (?:\w+ ){0,3}(?:call|address) me|how (?:should|do|would|to) i be (?:addressed|called)|what name (?:should|do|would|can) i (?:put|use|give|write|sign|book))\b`,
			`我叫(?:什么|啥)|我的名字|我的?(?:英文|中文|全|小|真|网|笔|曾用)名|我(?:的)?(?:昵称|外号|小名|绰号|大名|网名|真名|笔名)|我(?:的)?全名|我是谁|我姓(?:什么|啥)|我(?:该|应该)?(?:怎么|如何)?被称呼|(?:怎么|如何)(?:称呼|叫)我(?:$|[？?。吗呢])|叫我(?:什么|啥)(?:$|[？?。吗呢来])|我[^他她它]{0,10}(?:全名|姓名|大名|真名)(?:该|要)?(?:写|填|是)?(?:什么|啥)|我[^他她它]{0,10}(?:名字|全名|姓名|大名)\p{Han}{0,2}(?:咋|怎么|如何)(?:写|念|读|拼)`),
		facetRe(`\b(?:my (?:full |first |last |real )?name(?:'s| is)|i(?:'m| am) called|call me|i go by|(?:everyone|everybody|people|friends|folks) (?:just )?(?:calls?|says?) (?:me |her |him |them )?(?-i:\p{Lu}\p{L}*)|full name (?-i:\p{Lu}\p{L}*)|i(?:'m| am) (?-i:\p{Lu}\p{L}+(?: \p{Lu}\p{L}+)+)|(?:user|person)(?:'s name is| is called| is named| goes by| is (?-i:\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+)))\b`,
			sentenceStart+`(?:(?:the )?user(?:'s)? )?(?:name|full name)\s*[:=]`, `\bis (?:my|the user's) name\b`, `\b(?:pseudonym|pen name|stage name)\b`, sentenceStart+`goes by (?-i:\p{Lu})`,
			`我叫|我名叫|我的名字(?:是|叫)|叫我|(?:都|一般|平时|常)(?:叫|喊|称呼)(?:他|她)|我的?大名|`+sentenceStart+`大名|我姓|本名|全名|姓名\s*[：:是]|用户(?:叫|名叫|的名字|姓名)|`+sentenceStart+`名叫`)},
	{FacetHome,
		facetRe(`\b(?:where (?:do|am) i (?:currently |now )?(?:live|living|based|reside|residing)\b|where i live|where am i (?:living|based|staying)|where (?:i'm|i am) (?:currently |now )?(?:based|living|staying)|where(?:'s| is) (?:my )?home|home for me|my (?:home|address|city|town|location|neighbou?rhood|flat|apartment|house)|(?:what|which) (?:[a-z]+ )?(?:city|town|country|state|suburb|district|neighbou?rhood|area|part of \w+) (?:do |am |are )?(?:i|we) (?:live|in|based|living|reside|renting|rent|staying|stay))\b`,
			`我(?:现在|目前|如今)?(?:在)?哪(?:儿|里)?(?:租|住)(?:的)?房|我(?:现在|目前|如今)?(?:住|居住|生活|落脚|待)(?:在)?(?:哪|(?:什么|啥)地方|(?:什么|啥)城市)|我家(?:住)?(?:在)?哪|我住的地方|我在哪(?:个城市|里|儿)?(?:生活|住|居住)|我的(?:住址|地址|住处|家(?:$|[^乡人庭里族谱务事]))|我住在(?:什么|啥)|我(?:现在|目前|如今)家(?:住)?(?:在)?哪|我(?:现在|目前|如今)?(?:家)?(?:住|居住)在\p{Han}{1,6}?(?:哪|什么地方|啥地方)|我(?:现在|目前|如今)?在\p{Han}{1,6}?哪\p{Han}{0,2}住|我(?:现在|目前|如今)?在\p{Han}{1,6}?住(?:在)?哪`),
		facetRe(`\b(?:i (?:now |currently |still )?live|we (?:now |currently )?live in|i(?:'m| am) (?:living|based)|we(?:'re| are) (?:living|based) in|i reside|(?:lives|living|resides|is based|is living) in|based in|i(?:'ve| have)? moved to|my (?:home|apartment|flat|house) is|home is in|(?-i:\p{Lu})\p{L}+ is (?:my|our) home|(?:rent|rents|own|owns|share|shares|bought) (?:a |an |the |our |my |their )?(?:[\w-]+ ){0,2}(?:flat|apartment|house|home|place|room|studio|condo|cottage)(?: [\w-]+){0,4} (?:in|near|on)|moved (?:here|there) in|i(?:'m| am) in (?:a|the|my|our) (?:[\w-]+ ){0,2}(?:house|flat|apartment|place|cottage|room|studio))\b`,
			sentenceStart+`(?:currently |now )?(?:lives|living|based|resides) (?:in|at|near)\b`, sentenceStart+`(?:currently |now )?lives(?:\s*[:：=]\s*| (?-i:\p{Lu}))`, sentenceStart+`(?:(?:the )?user(?:'s)? )?(?:home(?: city| town| address)?|city|location|residence|address)\s*[:=]`,
			`我住|我(?:和|跟|与|带着)\p{Han}{1,8}?(?:一起)?(?:住|居住|生活)在|我家在|家住|我(?:现在|目前)?居住|定居|现居|现住|住址\s*[：:]|我在\p{Han}{1,8}生活|我搬到|所在地\s*[：:]|居住地|用户(?:住|居住|现居)|(?:一起|一块)住|在\p{Han}{1,8}(?:买了房|买房|租房|租了房|安家|定居)|`+sentenceStart+`(?:目前|现在|一直)?(?:和\p{Han}{1,4})?(?:住在|居住在|生活在)|`+sentenceStart+`(?:目前|现在|如今)?住(?:在)?[^院校宿\P{Han}]|(?:合租|租了|租的|租住)(?:个|一个|一间|一套|一栋)?(?:的)?\p{Han}{0,4}(?:房|屋|公寓|单间|院|宿舍|小区)`)},
	{FacetOrigin,
		facetRe(`\b(?:where am i (?:originally )?from|where (?:do|did) i come from|where (?:was|were) i (?:born|raised)|where did i grow up|where (?:i (?:grew up|was born|come from|am from)|i'm from)|(?:what|which) (?:[a-z]+ )?(?:town|city|country|place|village|part of \w+)(?: in [a-z]+(?: [a-z]+)?)? (?:did|was|am|do) i (?:originally )?(?:grow up|born|raised|come from|from)|my (?:home ?town|birthplace|roots))\b`,
			`我是哪(?:里|儿)?人|我来自哪|我的(?:老家|家乡|籍贯)|我(?:的)?籍贯|我老家|我家乡|我在哪(?:里|儿)?(?:出生|长大)|我(?:是)?在哪(?:里|儿)?(?:出生|长大)`),
		facetRe(`\b(?:i(?:'m| am) (?:originally )?from|i come from|i grew up|grew up (?:in|on|near|outside|around|by)|raised (?:in|on|near|outside)|(?:user|person) (?:is from|grew up)|born in (?-i:\p{Lu})\p{L}+|born (?:and|&) raised\b|born (?-i:\p{Lu}\p{L}+(?: \p{Lu}\p{L}+)?)\s*[,(]\s*\p{L}+|originally from|native of|home ?town)\b`,
			sentenceStart+`(?:originally )?from (?-i:\p{Lu}\p{Ll}+)(?:[,.;]|$| \p{Lu})`, sentenceStart+`(?-i:\p{Lu}\p{Ll}+), (?:originally )?from (?-i:\p{Lu}\p{Ll}+)`, sentenceStart+`(?:(?:the )?user(?:'s)? )?(?:hometown|home town|origin|birthplace|from|born (?:&|and) raised)\s*[:：=]`,
			`我来自|老家|家乡|籍贯|我出生在|出生于\p{Han}|在\p{Han}{1,8}长大|\p{Han}{1,6}(?:边|里|附近)长大(?:[，,。；;的]|$)|土生土长|我是\p{Han}{1,6}人|(?:^|[，,。；;：:\s])(?:`+zhPlaces+`|\p{Han}{1,4}(?:省|市|县|镇|村))\p{Han}{0,4}人(?:[，,。；;\s]|$)|`+sentenceStart+`\p{Han}{2,6}(?:长大|出生)(?:[，,。；;的]|$)`)},
	{FacetWork,
		facetRe(`\b(?:what (?:(?:do|did) )?i do for (?:a )?(?:living|work)|\Awhat (?:do|did) i do\z|what(?:'s| is) my (?:job(?: title)?|work|occupation|profession|role|title|position|career|employer|company)|what(?:'s| is) my (?:business|studio|startup|firm)|my (?:occupation|profession|employer|career)|where (?:do|did) i work|who do i work for|who (?:\w+ ){0,3}i (?:actually |really )?work for|who employs me|what (?:did|do) i used? to do\b(?: for (?:a )?(?:living|work))?(?: before i retired)?\z|what did i do before i retired|(?:what|which) (?:hospital|company|firm|school|college|university|shop|store|restaurant|caf[eé]|clinic|office|practice|ward|garage|depot|bank|agency|factory|warehouse|studio|lab|employer) (?:do|am|did|was) i (?:work (?:at|in|for)|at|in|with|for|employed))\b`,
			`我(?:现在|目前|以前|之前|原来|退休前|退休以前)?(?:具体|到底|究竟)?是(?:做|干|教)(?:什么|啥)(?:工作|的)?|我(?:是)?(?:干|做|在)(?:哪行|哪一行|(?:什么|啥|哪个)(?:行业|工种|行当))|我在哪(?:里|儿|家|个)?(?:公司|单位|地方|家公司|个单位)?(?:工作|上班)|我(?:做|干)(?:什么|啥)工作|我(?:现在|目前)?(?:干|做)的是(?:什么|啥)(?:岗位|工作|活|职位)?|我的(?:工作|职业|公司|职位|岗位|单位)|我在哪(?:里|儿|家公司)?(?:工作|上班)|我在哪(?:里|儿|家|个)?(?:公司|单位|地方|店)?(?:上的班|干的活|打的工|做的事)|我是干(?:什么|啥)的|我(?:的)?职业|我(?:目前|现在|以前)?(?:从事|做的是|干的是)(?:什么|啥|哪)|我(?:周末|平时|现在|目前|晚上)?在哪(?:里|儿)?(?:打工|兼职)|我(?:现在|目前)?在哪(?:个|家)(?:馆子|饭店|餐厅|店|医院|诊所|学校|公司|工厂|厂|银行|酒店|超市|商场|机构|部门)(?:工作|上班|打工|干活|做事)`),
		facetRe(`\b(?:i work|i(?:'m| am) an? \w+(?: \w+)? (?:at|for)|my (?:job|role|position|title) is|(?:user|person) (?:works|is an?)|works (?:as|at|for)|worked (?:as|at|for)|retired (?:from|as)|employed (?:at|by)|i(?:'m| am) employed|job title)\b`,
			`\bi teach (?:\w+ ){1,2}(?:at|in|for)\b|\bteaches (?:\w+ ){1,2}at\b`, sentenceStart+`(?:(?:(?:the )?user(?:'s)? )?(?:role|work|job|job title|position|occupation|profession|employer|company)\s*[:：=]|works (?:at|as|for)\b|freelances?\b|(?:runs|owns|founded|co-founded|started) (?:a|an|the|her|his|their|my) (?:[\w-]+ ){0,3}(?:business|company|studio|shop|startup|firm|agency|practice|restaurant|caf[eé]|store|consultancy|clinic|bakery)\b)`,
			`\b(?:is|as|am|i'm|was) (?:an?|the) (?:[\w-]+ ){0,3}`+occupations+`\b`, sentenceStart+`(?:an? )?(?:[\w-]+ ){0,3}`+occupations+`(?: (?:at|for|in|with)\b|\s*[;,])`,
			`我在\p{Han}{1,12}(?:工作|上班|担任|任职)|我在\p{Han}{0,10}(?:馆|院|局|厂|公司|学校|医院|银行|店|所|中心|集团|工作室)(?:做|当|教)|我的工作是|我的职业是|我是(?:一名|一个)?\p{Han}{0,8}(?:师|员|经理|学生|医生|老师|(?:电|焊|木|钳|瓦|水|检修|维修|装修|建筑|农民)工|工匠|负责人|老板|店主|创始人|合伙人)|我就职|职业\s*[：:是]|工作\s*[：:]|单位\s*[：:]|职务\s*[：:]|职位\s*[：:]|岗位\s*[：:]|`+sentenceStart+`在\p{Han}{1,12}(?:做|当|担任|任职|工作|上班|教)|`+sentenceStart+`(?:\p{Han}{2,3})?是(?:一名|一个|一位)?\p{Han}{0,8}(?:师|员|经理|学生|医生|老师|护士|律师|会计|教授|记者|作家|主管|总监|负责人|老板|店主|创始人|合伙人)`)},
	{FacetAge,
		facetRe(`\b(?:how old (?:am|will|would|do|did|was) i(?: be| turn| get)?|how old i(?:'m| am)|what age (?:am i|will i be|i am|i'm)|my age|my (?:birthday|birth ?date|date of birth)|when (?:was i born|is my birthday)|when's my birthday|(?:what|which) year (?:was i|i was) born)\b`,
			`我(?:今年|现在)?(?:多大|几岁)|我的年龄|我(?:的)?生日|我(?:是)?哪(?:一)?年(?:出生|生)|我(?:是)?(?:在)?(?:哪|什么|啥)(?:一)?(?:年|天|时候)(?:出生|生的|生人)|我出生(?:在|于)?(?:哪|什么|啥)|我(?:什么|啥)时候(?:出)?生|我的出生|我(?:是)?属(?:什么|啥)|我(?:是)?(?:什么|啥)生肖|我的生肖`),
		facetRe(`\b(?:i(?:'m| am) \d+|my birthday|my age is|born (?:on|in) (?:\d+|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?))|date of birth|\d+ years old|(?:turned|aged) \d+|age\s*[:=]\s*\d+|birthday is)\b`,
			sentenceStart+`(?:(?:the )?user(?:'s)? )?(?:birthday|age|date of birth|dob|d\.o\.b\.)\b`, sentenceStart+`born (?:on |in )?(?:\d+|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?))\b`,
			`^\s*(?-i:\p{Lu}\p{Ll}+(?: \p{Lu}\p{L}+){1,3})[,.]\s*\d{1,2}(?:\s*[,.(;]|\s*$)`,
			`(?:^|[.!?;。！？；]\s*)[^(.!?;\n]{0,80}?(?:\b(?:b-?day|b'day)\b|\bb\.\s*(?:\d{1,2}(?:st|nd|rd|th)? (?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)|(?:19|20)\d\d)\b)`,
			`\bborn\b[^.;,\n]{0,40}?\b(?:(?:on )?\d{1,2}(?:st|nd|rd|th)? (?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?) \d{1,2}|(?:19|20)\d\d)\b`,
			`我\d+\s*岁|我今年|属[鼠牛虎兔龙蛇马羊猴鸡狗猪]|`+sentenceStart+`(?:今年|现年)?[\d一二三四五六七八九十两]+\s*岁|我的生日|我出生|我是\d{4}\s*年|出生日期|生日\s*[：:]|出生\s*[：:]\s*\d|生于\s*(?:19|20)\d\d|\d{4}\s*年(?:\d{1,2}\s*月)?(?:\d{1,2}\s*日)?(?:出生|生人|生)(?:[，,。；;\s]|$)|生日(?:是|在)`)},
	{FacetPreference,
		facetRe(`\bwhat do i (?:usually |normally |typically |always |often )?(?:like|love|prefer|enjoy|hate|dislike|drink|eat|listen to|read|watch|play)|\bmy (?:favou?rite|fave|fav)\b|\b(?:which|what) (?:[\w-]+ ){0,2}(?:team|club|side) (?:do|did) i (?:support|follow|cheer for|root for|play for)\b|\b(?:what|which) (?:kind|sort|type)s? of \w+ (?:do )?i (?:like|love|prefer|enjoy|hate|dislike|drink|eat|listen to|read|watch|play)\b|\b(?:what|which) \w+ do i (?:usually |normally |typically |always |often )?(?:like|love|prefer|enjoy|hate|dislike|drink|eat|listen to|read|watch|play)\b|\b(?:what|which) (?:music|songs?|albums?|records?|bands?|artists?|shows?|films?|movies?|podcasts?|radio) do i (?:usually |normally |typically |always |often )?(?:put on|stream|have on)\b|\b(?:what|which) (?:food|dish|dishes|drink|coffee|tea|beer|wine) do i (?:usually |normally |typically |always |often )?order\b|\bwhat do i (?:usually |normally |typically )?do (?:for fun|in my (?:free|spare|off) time|on (?:the )?weekends?|to (?:relax|unwind)|after work|when i'?m not working)|\bmy (?:hobbies|pastimes|interests)\b|\b(?:any|what|which) (?:hobbies|pastimes|interests) (?:do )?(?:i|i've|i have|have i)\b|\bmy (?:diet|dietary \w+)\b|\b(?:what|which|who(?:'s| is)?) (?:[\w-]+ ){0,2}(?:writer|author|novelist|poet|band|singer|artist|musician|composer|rapper|show|series|sitcom|book|novel|film|movie|game|podcast|team|club|sport|dish|cuisine|beer|wine|snack|dessert)s? (?:do|did|have|am) i\b|\bmy hobby\z|\bmy (?:usual|regular|go-to) \w+|\bwhat(?:'s| is) my (?:usual|regular)\b|\b(?:am i|i'm|i am) (?:really )?into\b|\bhow do i (?:like|take) my|\bdo i (?:like|prefer|enjoy|hate|dislike|eat|drink)\b|\b(?:can|may|could|should) i (?:still )?(?:eat|drink)\b|\bam i (?:allowed|able) to (?:eat|drink)\b|\b(?:am i|what am i) allergic\b|\bi(?:'m| am) allergic to (?:anything|something|what)\b|\bwhat can(?:'t| ?not) i (?:eat|drink)|\b(?:anything|something|what|(?:which|any|an?) (?:food|foods|drinks?|dish|dishes|ingredients?|herbs?|spices?|fruits?|meats?|vegetables?)|foods?|drinks?) (?:or \w+ )?(?:that )?i (?:can't|cannot|can not|shouldn't|should not|mustn't|must not|am not allowed to|don't|do not|never|refuse to|won't|will not) (?:eat|drink|stand|order)\b|\b(?:what|which) (?:foods?|drinks?|dishes|ingredients) (?:should|must|do|can) i (?:avoid|not eat|not drink|stay away from)\b|\b(?:anything|any (?:food|foods|drinks?)|what|which (?:food|foods|drinks?)) (?:that )?i (?:have to|need to|should|must) (?:avoid|stay away from)\b|\b(?:told|asked|advised|wants) me to (?:avoid|stay away from|cut (?:out|back on)|skip|give up)\b`,
			`我(?:平时|平常|一般|通常|经常|常|日常|每天|早上|晚上|中午|下午|最近|现在)?(?:喜欢|爱|最爱)?(?:喝|吃|听|看|玩|读)(?:点)?(?:什么|啥|哪|谁)|(?:休息|放假|周末|下班|没课|空闲|有空)\p{Han}{0,3}我(?:一般|通常|平时|都|常)?(?:干|做|玩|去)(?:点)?(?:什么|啥|嘛)|我喜欢(?:什么|啥|哪)|我(?:最)?(?:爱|喜欢|偏好|喜爱)(?:的)?(?:什么|啥|哪)|我最(?:喜欢|爱)|我的(?:爱好|偏好|口味|喜好|兴趣)|我有(?:什么|啥|哪些)(?:爱好|兴趣)|我(?:休息|空闲|闲|周末|下班|业余|休假|放假)(?:的)?(?:时候|时间|时)?(?:一般|通常|平时|都|常)?(?:干|做|玩|去)(?:点)?(?:什么|啥|嘛)|我(?:不喜欢|讨厌|不爱)(?:吃|喝|看|听|玩)?(?:什么|啥)|我(?:不吃|不喝|不能吃|不能喝|忌口)(?:什么|啥)|我对(?:什么|啥|哪些)\p{Han}{0,2}过敏|我有(?:什么|啥|哪些)(?:忌口|不能吃|不能喝|不吃|不喝|\p{Han}{0,2}过敏)|我(?:吃|喝)(?:什么|啥)(?:会)?过敏|我(?:喜欢|爱|能|可以)(?:喝|吃)?[^了过\P{Han}]{1,4}(?:吗|不|么|嘛)|我(?:喝|吃)[^了过饭\P{Han}]{1,3}吗|我(?:现在|如今|还|现在还|如今还)(?:能|可以)?(?:喝|吃)(?:不|吗|么)(?:$|[？?])|(?:什么|啥)\p{Han}{0,4}我\p{Han}{0,3}(?:(?:不能|不可以|不该|不宜)(?:吃|喝|碰|用)|(?:碰|吃|喝|用)不得)|(?:星期[天日六]|周[日六末]|礼拜[天日六]|休息日|假期)\p{Han}{0,2}我(?:一般|通常|平时|都)?怎么过|我(?:平时|平常|一般|通常)(?:休息|空闲|周末|下班|业余|休假|放假)(?:的)?(?:时候|时间|时|后)?(?:一般|通常|都|常)?(?:干|做|玩|去)(?:点)?(?:什么|啥|嘛)|我(?:平时|平常|一般|通常|经常|周末|业余)?(?:都)?(?:做|练|搞|玩)(?:点)?(?:什么|啥)(?:运动|锻炼|球)`),
		facetRe(`\b(?:i (?:really |usually |always |only |both |also |never |don't |do not |can't |cannot )*(?:like|love|prefer|enjoy|hate|dislike|adore|drink|eat)|(?:user|person) (?:likes|loves|prefers|enjoys|hates|dislikes|drinks|eats)|my favou?rite|favou?rite|can'?t stand|allergic to|hobby|hobbies|in (?:my|her|his) (?:free|spare) time|off hours|days off|allerg(?:y|ies)|intoleran(?:t|ce)|coeliac|celiac|(?:gluten|dairy|lactose|nut|sugar|meat|alcohol|caffeine)-free|gout|diabetic|vegan|vegetarian|pescatarian|teetotal|i(?:'m| am) (?:a fan of|into)|fans? of|(?:big|huge|massive|die-?hard|lifelong|avid|keen) (?:[\w'’-]+ ){0,3}fan)\b`,
			sentenceStart+`(?:weekends?|free time|spare time|hobbies)\s*[:：=]`,
			sentenceStart+`(?:usually |always |only |often |never |rarely )?(?:likes|loves|prefers|enjoys|hates|dislikes|drinks|eats|avoids|listens to|wants|reads|watches|plays)\b`,
			sentenceStart+`(?:doesn't|does not|can't|cannot|won't) (?:like|love|enjoy|eat|drink|stand)\b`,
			`喜欢|爱(?:喝|吃|看|听|玩)|偏好|喜爱|最爱|偶像|铁粉|粉丝|追星|枕边书|讨厌|口味|过敏|忌口|不耐受|痛风|糖尿病|素食|吃素|戒(?:酒|烟|糖)|不(?:吃|喝)|(?:别|不要|不宜|不可以|少)(?:吃|喝)|(?:常|经常|总是|一直)(?:听|放|看|玩|喝|吃)|爱好|兴趣|业余|周末(?:[：:]|一般|常|喜欢|就|都|去|会)|休班(?:就|一般|常|去|时)|休息(?:日|时|的时候)|空闲|闲暇|我(?:每天|平时|常常|经常)?(?:早上|晚上|中午|下午)?(?:喝|吃)|`+sentenceStart+`(?:平时|一般|每天|通常|早上|晚上|中午|下午|上午|周末)*(?:只)?(?:喝|吃|不吃|不喝)`)},
}

// facetsOf names the facets a question asks about the person, if it is such a question.
func facetsOf(q string) []Facet {
	q = facetText(q)
	var out []Facet
	task := taskWorded(q)
	for _, r := range facetRules {
		if r.question != nil && !slices.Contains(out, r.facet) && !(task && wordingQuestions()[r.question]) && r.question.MatchString(q) {
			out = append(out, r.facet)
		}
	}
	return adviceFacets(q, familyDoctor(q, contactOwner(commuteOnly(lifeQuestionFacets(q, out)))))
}

// facetText is a question as the facet forms read it: without its closing marks ("what do I
// do?" ends there), in Simplified Mandarin words, texting words spelt out.
func facetText(q string) string {
	return foldThirdPerson(foldTexting(foldDialect(strings.ReplaceAll(strings.TrimRight(q, " \t\n?.!？。！"), "’", "'"))))
}

// reFamilyDoctor is the family doctor ("my family doc", "家庭医生"): a doctor, not the family.
var reFamilyDoctor = text.Lazy(`(?i)\bfamily (?:doctor|doc|physician|gp|practitioner|medicine)\b|家庭医生`)

// familyDoctor drops the family facet from a question about the family doctor, which asks
// the health facet (or a contact): the note about the family does not answer it.
func familyDoctor(q string, asked []Facet) []Facet {
	if !slices.Contains(asked, FacetFamily) || !reFamilyDoctor.MatchString(q) {
		return asked
	}
	out := slices.DeleteFunc(asked, func(f Facet) bool { return f == FacetFamily })
	if !slices.Contains(out, FacetHealth) && !slices.Contains(out, FacetContact) {
		out = append(out, FacetHealth)
	}
	return out
}

// contactOwner drops the family facet from a question that asks for a contact: in "我儿子手机号多少"
// and "what's my son's number" the family member is whose number is asked, and the note about
// the family ("儿子邓子轩，读高三") is not the answer; the note with the number is, and the member
// named still ranks it through the question's words.
func contactOwner(asked []Facet) []Facet {
	if !slices.Contains(asked, FacetContact) || !slices.Contains(asked, FacetFamily) {
		return asked
	}
	return slices.DeleteFunc(asked, func(f Facet) bool { return f == FacetFamily })
}

// statesFacet reports whether a memory's text, as aboutThePerson gives it, states facet f.
func statesFacet(f Facet, hay string) bool {
	for _, r := range facetRules {
		if r.facet == f && r.answer != nil && r.answer.MatchString(hay) {
			return true
		}
	}
	// A birthday note that names the sign answers "what's my star sign", and how the person
	// spends their weekends is a pastime (facetlife.go).
	return (f == FacetAge && reZodiacAnswer.MatchString(hay)) || (f == FacetPreference && rePastimeAnswer.MatchString(hay))
}

// answersFacet reports whether a user memory states one of the facets of the person, in its
// text or by its title's labels ("Tom's job", "口味"): the reading the facet path makes.
func answersFacet(asked []Facet, m *memory.Memory) bool {
	if m == nil || !readsType(m.Type, asked) {
		return false
	}
	r := newPersonRead(m)
	r.check(asked)
	fact, pref := r.answers(asked, nil)
	return fact || pref
}

// maxFacetScan bounds the user memories a facet question reads (the quota keeps a scope to
// 500 ordinary entries, so this is every user memory an agent can see in practice).
const maxFacetScan = 1500

// facetPath reads the visible user memories and returns those that state a facet the question
// asks about, in the store's order, each with the full score: they are the answer to an
// identity or preference question whatever words they use. The caller credits them equally.
func (s *Service) facetPath(ctx context.Context, a Analysis, f memory.Filter) ([]memory.RankedRID, error) {
	if len(a.Facets) == 0 || (f.Type != "" && !readsType(f.Type, a.Facets)) {
		return nil, nil
	}
	var rows []memory.RowVersion
	for _, t := range facetTypes(a.Facets) {
		if f.Type != "" && f.Type != t {
			continue
		}
		uf := f
		uf.Type = t
		uf.Limit = maxFacetScan
		more, err := s.store.ListVersions(ctx, uf)
		if err != nil {
			return nil, err
		}
		rows = append(rows, more...)
	}
	// Rows read before in the same version answer from the cache; the rest are loaded.
	reads := make([]personRead, len(rows))
	kept := make([]bool, len(rows))
	var stale []int64
	for i, r := range rows {
		if reads[i], kept[i] = s.reads.lookup(r.ID, r.Version, a.Facets); !kept[i] {
			stale = append(stale, r.RID)
		}
	}
	loaded, err := s.store.LoadRIDs(ctx, stale)
	if err != nil {
		return nil, err
	}
	parts := subAsked(foldDialect(a.Query))
	var out []memory.RankedRID
	for i, r := range rows {
		if !kept[i] {
			m := loaded[r.RID]
			if m == nil || !readsType(m.Type, a.Facets) {
				continue // changed since it was listed
			}
			reads[i] = s.reads.read(m, a.Facets)
		}
		if fact, pref := reads[i].answers(a.Facets, parts); fact || pref {
			out = append(out, memory.RankedRID{RID: r.RID, Score: 1})
		}
	}
	s.reads.saveIfRead()
	return out, nil
}

// facetWords are the words a facet question asks with, not about: "what is my favourite band"
// asks about a band, "我不能吃什么" about eating. Everything else the question holds (besides
// stop words) is its topic.
var facetWords = map[string]bool{
	"like": true, "love": true, "prefer": true, "enjoy": true, "hate": true, "dislike": true,
	"favorite": true, "favourite": true, "kind": true, "sort": true, "type": true, "usual": true,
	"usually": true, "normal": true, "normally": true, "typic": true, "typically": true,
	"alway": true, "always": true, "often": true, "remind": true, "know": true, "tell": true,
	// Times of day and week say when, not what ("what do I drink in the morning").
	"morning": true, "afternoon": true, "evening": true, "night": true, "weekend": true, "weekday": true,
	"daili": true, "daily": true, "day": true, "week": true,
	// An allergy question asks about every allergy.
	"allerg": true, "allergic": true, "allergi": true, "allergy": true, "anyth": true, "anything": true,
	// A hobby question asks with these ("what do I do for fun / in my free time / after work").
	"fun": true, "free": true, "spare": true, "time": true, "relax": true, "unwind": true, "work": true,
	// A request asks with these ("suggest a book I'd enjoy", "put on something I'd like").
	"suggest": true, "recommend": true, "base": true, "based": true, "put": true, "stick": true, "get": true,
	"grab": true, "pick": true, "find": true, "pour": true, "fanci": true, "fancy": true, "someth": true, "something": true,
	// … or asks for something made to the person's taste ("make me a playlist based on my taste").
	"make": true, "mak": true, "taste": true, "tast": true, "tastes": true, "creat": true, "create": true,
	"build": true, "me": true,
}

// askingVerbs are the verbs a preference question asks with ("what do I like to drink",
// "我平时听什么"): beside a category they do not make the question more specific.
var askingVerbs = map[string]bool{"eat": true, "drink": true, "listen": true, "watch": true, "read": true, "play": true,
	"吃": true, "喝": true, "听": true, "看": true, "读": true, "玩": true}

// facetChars are the Chinese characters a facet question asks with (see facetWords), and
// the ones of times of day and week, which say when, not what ("我早上喝什么": 上 would find 上班).
const facetChars = "我的什么啥哪个儿里吗呢是了喜欢爱最平时一般通常常经不能会要想该怎样如何被请问你知道告诉早晚上下中午天周每讨厌反感受好兴趣余闲消遣"

// facetQuery is what ranking needs of a facet question, worked out once per search.
type facetQuery struct {
	asked  []Facet
	topic  []string
	avoid  avoidAsk
	avoidQ bool
	// likes is set for a question about what the person likes ("我最爱吃什么"), asks for a
	// question that asks which or what ("what tea do I drink", "我平时喝什么茶"), not whether.
	likes, asks bool
	// birthday is set for a question about a family member's birthday (birthdayAsked).
	birthday bool
	// meal is set for a meal to plan, cook or order (reMealTask) that asks neither what the
	// person likes nor what they must avoid: both answer it.
	meal bool
	// permit is set for a question whether the person may have a food or drink
	// (dietPermission).
	permit bool
	// advice is set for a question asking advice on a situation (adviceAsked).
	advice bool
	folded string // the question as the facet forms read it
	// kinds are the kinds of food or drink a preference question names (facetvocab.go).
	kinds []int
	// kindHeld is set when a user memory among the candidates holds back a kind asked
	// (holdsKindAsked).
	kindHeld bool
	parts    subAsk
	reads    *personReads
}

func newFacetQuery(a Analysis, reads *personReads) facetQuery {
	folded := foldDialect(a.Query)
	q := facetQuery{asked: a.Facets, topic: facetTopic(a), likes: reLikes.MatchString(folded), asks: reWhQuestion.MatchString(folded),
		parts: subAsked(folded), reads: reads}
	q.avoid, q.avoidQ = avoidAsked(a)
	q.birthday = birthdayAsked(a)
	q.meal = slices.Contains(a.Facets, FacetPreference) && !q.likes && !q.avoidQ && mealTask(folded)
	q.permit = slices.Contains(a.Facets, FacetPreference) && !q.likes && !q.avoidQ && dietPermission(folded)
	q.folded = facetText(a.Query)
	q.advice = adviceAsked(q.folded)
	if slices.Contains(a.Facets, FacetPreference) {
		q.kinds = kindsNamed(q.folded)
	}
	return q
}

// titledFacetBoost is the extra credit of a boosted memory whose title labels a facet asked:
// among notes that all mention the son, the one titled "家里人" is about the family, the one
// titled "作息" about the person's day.
const titledFacetBoost = 1.2

// labels reports whether m's title labels one of the facets asked (see titleFacets).
func (q facetQuery) labels(m *memory.Memory) bool {
	for _, f := range titleFacets(m.Title) {
		if slices.Contains(q.asked, f) {
			return true
		}
	}
	return false
}

// boosts reports whether a candidate answers the question: a user memory that states the fact
// asked (who, where and what work a person is has one answer, so every such memory counts),
// or, for a preference question, a preference about what it names ("my favourite band"; when
// it names nothing beyond the facet, every preference), or for an avoidance question an
// allergy or abstention of the kind asked. The memory's text is read once.
func (q facetQuery) boosts(m *memory.Memory) bool {
	if len(q.asked) == 0 || m == nil || !readsType(m.Type, q.asked) {
		return false
	}
	r := q.reads.read(m, q.asked)
	hay := r.hay
	fact, pref := r.answers(q.asked, q.parts)
	switch {
	case fact && q.birthday:
		return reBirthdayAnswer.MatchString(r.whole)
	case fact:
		return true
	case q.advice && (avoidAsk{}.answersText(hay) || reConstraint.MatchString(hay) || constraintOn(q.folded, hay)):
		// What holds the person back answers an advice question (facetadvice.go).
		return true
	case q.advice && !q.permit:
		// A taste that holds nothing back does not ("truck stops" in a note of hobbies is not
		// what "the truck stop's shrimp basket, worth it?" turns on).
		return false
	case !pref:
		return false
	case q.meal:
		// What they must not eat, or a taste in food: "Allergic to peanuts", "loves Sichuan
		// food", not "loves Radiohead".
		return avoidAsk{eat: true}.answersText(hay) || coversTopic(mealTopic(), m)
	case (q.avoidQ || q.permit) && q.kindHeld && otherKindOnly(q.kinds, r.whole):
		// "我能吃虾吗" is not answered by "我不太能吃辣": the note holds back another kind of
		// food than the one asked (facetvocab.go), and its words ("能吃") ranked it first.
		return false
	case q.avoidQ:
		return q.avoid.answersText(hay)
	case q.permit:
		// Whether the person may have something is answered by what they must not eat or
		// drink, whether or not the note names it ("can I eat almonds" — "peanut allergy, tree
		// nuts are fine"), and by a note about the thing itself.
		return avoidAsk{}.answersText(hay) || coversTopic(q.topic, m)
	case (q.likes || q.asks) && avoidsOnly(hay):
		// "痛风，海鲜、啤酒都不能碰" is not what the person loves or usually drinks (it does
		// answer "我能喝啤酒吗").
		return false
	}
	return len(q.topic) == 0 || coversTopic(q.topic, m) || q.leans(m) // the part named is a topic (leanParts)
}
