package recall

import (
	"strings"

	"engram/backend/text"
)

// The facets of a person's life beyond who and where they are: their day (when they get up
// and go to bed), their family and pets, and their health (blood group, medicines,
// conditions). A question about one ("what time do I get up", "how old's my grandson", "表上
// 血型那一栏我该填什么") shares few words with the note that answers it ("6:40起 23:00前睡",
// "Daughter Jessie, 20", "B型血"), so, like the core facets, it is read for the facet and the
// user memories that state it are put first. The question forms stay bound to the first person
// ("my daughter", "我几点睡"), so that "how should the worker sleep between retries" is not
// one; the zodiac ("what's my star sign", "我是什么星座") is asked of the age facet, whose
// birthday notes answer it.
var lifeFacetRules = []facetRule{
	{FacetRoutine,
		facetRe(`\b(?:(?:what time|when|how early|how late) (?:do|did|should|will|am) i (?:\w+ ){0,3}(?:get up|getting up|wake|waking|go to (?:bed|sleep)|going to bed|sleep|turn in|hit the (?:hay|sack)|roll out of bed|rise|crash)|my (?:daily )?(?:routine|schedule|bedtime|sleep schedule|wake-?up time|body clock)|when(?:'s| is) my bedtime)\b`,
			`我\p{Han}{0,8}(?:几点|什么时候|啥时候|多早|多晚)\p{Han}{0,4}(?:起床|起来|起|睡|醒|上床|休息|就寝)|我的(?:作息|生物钟|日常作息)|我(?:一般|平时|通常)?(?:睡|起)得?(?:多早|多晚)`,
			// Shifts: "am I working this Saturday night", "my rota", 我周六上班吗; and a day's
			// time asked without 我 ("明天周三，早上得几点起？").
			`\b(?:am|will) i (?:be )?(?:working|on shift|on call|on nights|off) (?:this|next|tonight|tomorrow|today|on (?:the )?(?:weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|\bdo i (?:work|have work|have a shift) (?:on |this |next |tonight|tomorrow|today|at the weekend|weekends|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)|\bwhat (?:shifts?|days|hours) (?:am i|do i) (?:on|work|working)\b|\bmy (?:shifts?|rota|roster|work schedule|work hours|alarm)\b|\bwhat time should (?:the|my) alarm\b|\b(?:the|my) alarm (?:go off|be set)\b`,
			`我(?:这周|下周|明天|今天|今晚|后天|周[一二三四五六日天末]|礼拜\p{Han}|星期\p{Han})?(?:要|得|用)?(?:上班|值班|加班|上夜班|倒班)(?:吗|不|么|嘛|没)|我的(?:排班|班表|上班时间)|我(?:几点|什么时候|哪天)(?:上班|下班|值班)|(?:明天|明早|今晚|今天|后天|周[一二三四五六日天]|星期\p{Han}|礼拜\p{Han}|早上|晚上)\p{Han}{0,6}?(?:得|要|该|应该|需要)?几点(?:起床|起来|起|睡觉|睡|出门)(?:$|[？?，,。吗呢啊])`),
		facetRe(`\b(?:(?:wakes?|woke|waking|get(?:s|ting)? up|up|rises?|alarm|bed|sleeps?|asleep|lights out)\b[^.\n]{0,24}?\b(?:at|by|around|before|after|until|till)\s*\d|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?\s*(?:wake-?up|wake|rise|bed|bedtime|sleep|lights out)|bedtime|wake-?up time|sleeps? (?:days|nights|in)|night owl|early (?:riser|bird)|(?:up|wake|wakes|woke|bed|asleep|lights out)\s+(?:at |by |around )?\d{1,2}(?:[.:]\d\d)?\s*(?:a\.?m\.?|p\.?m\.?)?(?:\s|[,.;)]|$))\b`,
			`[\d一二三四五六七八九十两半]{1,3}\s*[:：点][\d一二三四五六七八九十半刻]{0,3}\s*(?:前|左右|以后|后|多)?\s*(?:就)?(?:起床|起来|起|睡|醒|上床|就寝)|(?:起床|起来|睡觉|上床|就寝|醒)\s*(?:时间)?\s*[:：]?\s*(?:大概|一般)?\s*[\d一二三四五六七八九十两]|作息|生物钟|早睡早起|夜猫子|熬夜|夜班|白班|早班|晚班|倒班|值班|排班|上班时间|(?:早|晚)八`,
			`\b(?:night|day|early|late|evening|weekend|morning|long|12-hour|twelve-hour|graveyard) shifts?\b|\bshifts? (?:from|are|run|start)\b|\bon (?:nights|days|lates|earlies)\b|\bworks? (?:nights|weekends)\b`)},
	{FacetFamily,
		facetRe(`\bwho (?:am|was) i (?:dating|going out with|married to|engaged to)\b|\bwho (?:am|was) i (?:seeing|with)(?:$| these days| now| at the moment| right now| lately)|\bmy (?:\w+ )?(?:wife|husband|partner|spouse|missus|missis|hubby|fianc[eé]e?|gf|bf|girlfriend|boyfriend|other half|better half|significant other|kids?|children|son|daughter|lad|boy|girl|grandson|granddaughter|grandkids?|grandchildren|grandchild|mum|mom|mother|dad|father|parents|folks|brother|sister|siblings|family|in-laws|cat|dog|pup|puppy|pets?|parrot|budgie|rabbit|horse)s?\b(?:'s)?|\b(?:does|is|did|was|will|has|can|should) (?:mum|mom|mam|dad|the kids|the wife|the missus|hubby|grandma|grandpa|nan|gran)\b|\bwho (?:\w+ ){0,2}(?:the kids|the children)\b`,
			`^(?:小|大|二|老)?(?:孙子|孙女|外孙女?|儿子|女儿|闺女|老伴|老婆|老公|媳妇|爱人)|我(?:在)?(?:和|跟)谁(?:谈恋爱|在一起|交往|结婚|约会|过日子)|我(?:的|家)?(?:老婆|老公|媳妇|爱人|妻子|丈夫|太太|先生|对象|男朋友|女朋友|男友|女友|男票|女票|另一半|孩子|小孩|儿子|女儿|闺女|孙子|孙女|外孙|外孙女|娃|爸|妈|父亲|母亲|父母|哥|姐|弟|妹|家人|家里人|猫|狗|宠物|鹦鹉)|我家(?:那|这)?(?:只|条|个)?(?:猫|狗|宠物)`),
		facetRe(`\b(?:wife|husband|partner|spouse|married|fianc[eé]e?|girlfriend|boyfriend|gf|bf|dating|engaged|other half|significant other|kids?|children|sons?|daughters?|grandsons?|granddaughters?|grandkids?|grandchildren|mum|mom|mother|dad|father|parents|brothers?|sisters?|siblings)\b`, ownsPet,
			`老婆|老公|媳妇|爱人|妻子|丈夫|太太|男朋友|女朋友|男友|女友|另一半|孩子|儿子|女儿|闺女|孙子|孙女|外孙|娃|爸|妈|父亲|母亲|父母|哥哥|姐姐|弟弟|妹妹|宠物|鹦鹉|养(?:了|着|的)|(?:猫|狗)(?:叫|名叫|的名字|名字|[：:])|我(?:的|家)\p{Han}{0,2}(?:猫|狗)|(?:一|两|三|几|\d)(?:只|条)\p{Han}{0,4}(?:猫|狗|犬)|`+petBreedsZh)},
	{FacetHealth,
		facetRe(`\b(?:blood|donat\w+|transfusion)\b[^?]{0,60}\bmy type\b|\b(?:doctor|doc|gp|nurse|dentist|pharmacist|surgeon|anaesthetist|anesthetist|hospital|clinic|antibiotics?|jab|vaccine|operation|surgery)\b[^?]{0,80}\b(?:anything|what)\b[^.?!]{0,30}\b(?:tell|mention|let \w+ know|warn)\b|\b(?:my (?:blood (?:type|group)|meds|medications?|medicines?|pills|tablets|prescriptions?|health|conditions?|diagnos[ie]s|eyesight|blood pressure)|(?:what|which) (?:meds|medications?|medicines?|pills|tablets) (?:do|am|should|must) i|(?:what|which) blood (?:type|group)|what am i (?:taking|on) (?:for|every)|what do i take every (?:day|morning|night)|my (?:[a-z]+ )?(?:doctor|doc|gp|physician|[a-z]+ologist|[a-z]*iatrist|specialist|consultant|pediatrician|paediatrician|obstetrician|dietitian|dietician|therapist|dentist|optician|physio)(?:'s|s)?\b|my (?:daily )?(?:supplements?|vitamins?)|what (?:\w+ ){0,2}(?:am i|do i) (?:taking|on|take)(?: (?:every|each|for|daily)\b|\z)|my (?:[a-z]+ )(?:meds?|medications?|medicines?|pills?|tablets?|inhalers?|injections?|jabs?)|(?:what|which) (?:antibiotics?|drugs?|medications?|medicines?|painkillers?|inhalers?|pills|tablets|meds) (?:do |am |can |should |must )?i (?:react|allergic|take|use|on|avoid|not take|can't take)|what do i (?:take|use) (?:when|if|for)\b|what(?:'s| is) the (?:[\w-]+ ){0,2}(?:tablets?|pills?|meds?|medicine|medication|inhaler|spray|drops|cream|jab|injection) (?:i|that i) (?:take|am on|'m on)\b|\b(?:can|should|may) i (?:take|have) (?:some |a |an |my |more )?(?:[\w-]+ ){0,2}(?:ibuprofen|nurofen|advil|motrin|paracetamol|panadol|tylenol|acetaminophen|aspirin|codeine|antihistamines?|piriton|zyrtec|claritin|sudafed|painkillers?|pills?|meds?|medicine)\b|\bhow (?:many|much|often) (?:[\w-]+ ){0,2}(?:pills?|tablets?|meds?|doses?|puffs?|drops|mg) (?:can|should|do|must|am) i\b|\bwhich (?:inhaler|pill|tablet|med|medicine|medication)s? (?:is|are|do i)\b)\b`,
			`我(?:的)?血型|血型|我(?:每天|每日|天天|平时|一直|现在|在|目前|都|早上|晚上){0,2}(?:吃|服|用)(?:的)?(?:是)?(?:什么|啥|哪些|哪种)?药|我(?:的)?(?:病史|身体状况|健康状况|视力|度数|血压)|我(?:现在|眼睛)?(?:近视)?(?:多少|几百)度|我有(?:什么|啥)(?:病|毛病|慢性病)|\p{Han}{0,4}药我(?:每天|平时|现在|一直|都)?(?:吃|服|用)(?:的)?(?:是)?(?:什么|啥|哪)|(?:什么|啥|哪些|哪种)药我(?:不能|不可以|不宜|不该)(?:用|吃|打|碰)|我(?:不能|不可以|不宜)(?:用|吃|打)(?:什么|啥|哪些|哪种)药|挂(?:谁|哪个|哪位|什么|啥)(?:的)?(?:号|科)|我的\p{Han}{0,4}药|(?:家庭医生|医生|大夫)(?:叫|是)(?:谁|啥|什么)|看\p{Han}{1,6}的(?:大夫|医生)|(?:理疗|复诊|复查|体检|打针|输液|透析|康复|针灸|推拿)\p{Han}{0,2}(?:是)?(?:周几|星期几|几点|哪天|什么时候|啥时候)|\p{Han}{0,4}药\p{Han}{0,4}(?:吃|服|用)(?:几|多少)(?:片|粒|颗|次|回|毫克)|药(?:叫|是)(?:什么|啥)(?:名|来着)?|(?:复查|复诊|看病|看医生|就诊)(?:找|挂|去)(?:谁|哪)`),
		facetRe(`\b(?:blood (?:type|group)|type (?:o|a|b|ab)\b|(?:o|a|b|ab)[+-](?:\s|$|[,.;)])|(?:o|a|b|ab) (?:positive|negative)|\d+\s*mg|medications?|meds|pills?|tablets?|prescribed|diagnosed|blood pressure|hypertension|asthma|diabet(?:es|ic)|cholesterol|inhaler|epi-?pen|insulin|statins?|allerg(?:y|ies|ic)|anaphyla\w*)\b`,
			`\b(?:gp|doctor|doc|physio|consultant|cardiologist|specialist|dentist)\b (?:says|said|told|wants|has (?:me|him|her)|put)\b`,
			`\b(?:aspirin|ibuprofen|paracetamol|acetaminophen|warfarin|metformin|levothyroxine|thyroxine|\w{3,}(?:pril|olol|statin|sartan|dipine|prazole|xetine|azepam|mycin|cillin|formin))\b`,
			`血型|[OABo]\s*型(?:血)?|AB\s*型|(?:吃|服|用|开)(?:的)?\p{Han}{0,4}药|药(?:物|片|丸)|每(?:天|日|朝|晚|早)\p{Han}{0,4}(?:一|两|1|2)\s*(?:粒|片|颗)|毫克|血压|糖尿病|哮喘|近视|体检|病史|慢性病|颈椎病|腰椎|医生(?:说|叫|让|嘱咐)|医嘱|`+zhDrug)},
}

// Pets are named by kind or breed ("a three-legged rescue greyhound called Pierogi", "养了一只
// 橘猫"). A note states that the person has one when it says so (has, adopted, my, called …):
// "a car covered in dog hair" and "怕狗" are not about a pet.
const (
	petBreedsEn = `greyhounds?|whippets?|lurchers?|labradors?|labs?|retrievers?|terriers?|spaniels?|collies?|corgis?|husk(?:y|ies)|malamutes?|samoyeds?|akitas?|shiba(?: inu)?s?|beagles?|poodles?|cockapoos?|labradoodles?|goldendoodles?|dachshunds?|sausage dogs?|pugs?|chihuahuas?|bulldogs?|frenchies|frenchie|boxers?|rottweilers?|dobermanns?|dobermans?|schnauzers?|shih tzus?|maltese|pomeranians?|heelers?|kelpies?|shepherds?|alsatians?|mastiffs?|great danes?|vizslas?|weimaraners?|jack russells?|staff(?:y|ie|ies)|mutts?|mongrels?|tabb(?:y|ies)|siamese|persians?|maine coons?|ragdolls?|bengals?|sphynx|moggies|moggy|british shorthairs?|calicos?|torties?|tortoiseshells?|hamsters?|guinea pigs?|gerbils?|ferrets?|tortoises?|turtles?|goldfish|geckos?|budgies?|parrots?|cockatiels?|rabbits?|bunn(?:y|ies)|horses?|ponies|pony|hens|chickens`
	petBreedsZh = `橘猫|狸花|布偶|英短|美短|蓝猫|加菲|暹罗|柯基|泰迪|金毛|哈士奇|二哈|萨摩耶|柴犬|边牧|拉布拉多|比熊|博美|雪纳瑞|德牧|田园犬|土狗|中华田园`
	petKind     = `(?:dogs?|cats?|pupp(?:y|ies)|pups?|kittens?|kitty|pets?|` + petBreedsEn + `)`
	ownsPet     = `\b(?:(?:has|have|had|got|owns?|adopted|rescued|keeps?|walks?|feeds?|fosters?|fostering) (?:(?:a|an|one|two|three|four|\d+|her|his|their|my|our) )?(?:[\w'-]+ ){0,3}` + petKind +
		`|(?:my|our|his|her|their|the family(?:'s)?) (?:[\w'-]+ ){0,2}` + petKind + `|` + petKind + `(?:'s name is|,? (?:called|named)\b)|(?-i:\p{Lu})\p{L}+,? (?:the|a|an|our|my|his|her|their) (?:[\w'-]+ ){0,3}` + petKind + `|` + petKind + `\s*[:=]|` + petKind + ` (?-i:\p{Lu})\p{L}+)\b`
)

// subGroups are the parts of a facet a question can name, each with the words that name it
// in a note: "what's my dog called" is answered by the note about the dog, not by every note
// that mentions a wife; "my blood type" by the note that gives it, not by one about pills. A
// question that names no part of a facet ("my family", "my health") takes any note of it.
var subGroups = append(append(lifeSubGroups, toolParts...), dietParts...)

// lifeSubGroups are the parts of the family and health facets.
var lifeSubGroups = []struct {
	facet            Facet
	question, answer *text.Regexp
}{
	{FacetFamily, text.Lazy(`(?i)\b(?:wife|husband|partner|spouse|missus|missis|hubby|fianc[eé]e?|gf|bf|girlfriend|boyfriend|other half|better half|significant other)\b|\bwho (?:am|was) i (?:seeing|dating|going out with|going with|with|married to|engaged to)\b|老婆|老公|媳妇|爱人|妻子|丈夫|太太|先生|对象|男朋友|女朋友|男友|女友|男票|女票|另一半|和谁`),
		text.Lazy(`(?i)\b(?:wife|husband|partner|spouse|missus|missis|hubby|fianc[eé]e?|married|gf|bf|girlfriend|boyfriend|dating|engaged|together since|other half|better half|significant other)\b|老婆|老公|媳妇|爱人|妻子|丈夫|太太|先生|对象|结婚|男朋友|女朋友|男友|女友|另一半|恋爱|在一起`)},
	{FacetFamily, text.Lazy(`(?i)\b(?:kids?|children|child|son|daughter|lad|boy|girl)s?\b|孩子|小孩|儿子|女儿|闺女|娃`),
		text.Lazy(`(?i)\b(?:kids?|children|child|sons?|daughters?|lad|boys?|girls?)\b|孩子|小孩|儿子|女儿|闺女|娃|子女|独子|独女|独生|长子|次子|长女|次女`)},
	{FacetFamily, text.Lazy(`(?i)\b(?:grandson|granddaughter|grandkids?|grandchild|grandchildren)\b|孙子|孙女|外孙`),
		text.Lazy(`(?i)\b(?:grandsons?|granddaughters?|grandkids?|grandchild|grandchildren)\b|孙子|孙女|外孙`)},
	{FacetFamily, text.Lazy(`(?i)\b(?:mum|mom|mother|dad|father|parents|folks)\b|爸|妈|父亲|母亲|父母`),
		text.Lazy(`(?i)\b(?:mum|mom|mother|dad|father|parents)\b|爸|妈|父亲|母亲|父母`)},
	{FacetFamily, text.Lazy(`(?i)\b(?:brother|sister|siblings)\b|哥|姐|弟|妹`),
		text.Lazy(`(?i)\b(?:brothers?|sisters?|siblings)\b|哥|姐|弟|妹`)},
	{FacetFamily, text.Lazy(`(?i)\b(?:cat|dog|pup|puppy|pets?|parrot|budgie|rabbit|horse|kitten|kitty|hamster|guinea pig|tortoise|turtle|goldfish|fish|snake|gecko)\b|猫|狗|宠物|鹦鹉|鸟|仓鼠|乌龟|兔子|我(?:家)?养的`),
		text.Lazy(`(?i)\b(?:cats?|dogs?|pup|puppy|pets?|kitten|kitty|` + petBreedsEn + `)\b|猫|狗|犬|宠物|鹦鹉|鸟|仓鼠|乌龟|兔子|` + petBreedsZh)},
	{FacetHealth, text.Lazy(`(?i)\bblood (?:type|group)\b|\b(?:blood|donat\w+|transfusion)\b[^?]{0,60}\bmy type\b|血型`),
		text.Lazy(`(?i)\bblood (?:type|group)\b|\btype (?:o|a|b|ab)\b|\b(?:o|a|b|ab)[+-](?:\s|$|[,.;)])|\b(?:o|a|b|ab) (?:positive|negative|neg|pos)\b|血型|[OABo]\s*型(?:血)?|AB\s*型`)},
	{FacetHealth, text.Lazy(`(?i)\b(?:meds|medications?|medicines?|pills|tablets|prescriptions?|take every)\b|药`),
		text.Lazy(`(?i)\b(?:meds|medications?|pills?|tablets?|prescribed|inhaler|epi-?pen|insulin|\d+\s*mg|aspirin|ibuprofen|paracetamol|acetaminophen|warfarin|metformin|levothyroxine|thyroxine|\w{3,}(?:pril|olol|statin|sartan|dipine|prazole|xetine|azepam|mycin|cillin|formin))\b|药|毫克|粒|片|` + zhDrug)},
}

// zhDrug is a medicine named after the verb that takes it, by the endings Chinese drug names
// share (吃雷贝拉唑, 服氨氯地平, 用布地奈德): a note may name the drug without saying 药.
const zhDrug = `(?:吃|服|用|打|口服)(?:着|的是)?\p{Han}{2,6}(?:唑|平|林|他|定|胍|芬|素|汀|坦|尔|酮|星|韦|松|德|胺|宁)`

// subAsk is the parts of facets a question names (indexes into subGroups).
type subAsk []int

// subAsked reads the parts a question names.
func subAsked(q string) subAsk {
	var out subAsk
	for i, g := range subGroups {
		if g.question.MatchString(q) {
			out = append(out, i)
		}
	}
	return out
}

// answers reports whether a note's text names one of the parts of f asked (any, when the
// question named none of f's).
func (ask subAsk) answers(f Facet, hay string) bool {
	named := false
	for _, i := range ask {
		if subGroups[i].facet != f {
			continue
		}
		named = true
		if subGroups[i].answer.MatchString(hay) {
			return true
		}
	}
	return !named
}

// Extra question forms of the core facets: the zodiac is asked of the birthday, and a meal out
// is an avoidance question when it asks what to be careful with ("chippy tea tonight —
// anything I've got to be careful with?", "晚上吃小龙虾,我得注意点啥").
var (
	reZodiacQuestion = text.Lazy(`(?i)\b(?:what(?:'s| is) my (?:star |zodiac |chinese |horoscope )?sign|what (?:star |zodiac )?sign (?:am i|i am|i'm)|my (?:star sign|zodiac(?: sign)?|horoscope|chinese zodiac)|which (?:zodiac|star sign) am i)\b|我(?:是)?(?:什么|啥|哪个)星座|我的星座|我(?:是)?(?:什么|啥)座(?:的)?(?:$|[？?吗呢])`)
	reZodiacAnswer   = text.Lazy(`(?i)\b(?:aries|taurus|gemini|virgo|libra|scorpio|sagittarius|capricorn|aquarius|pisces)\b|\b(?:a|sign:?|zodiac:?) (?:cancer|leo)\b|\b(?:cancer|leo)\s*[♋♌]|[♈-♓]|(?:白羊|金牛|双子|巨蟹|狮子|处女|天秤|天平|天蝎|射手|人马|摩羯|山羊|水瓶|宝瓶|双鱼)座|星座`)
	// reCarefulQuestion asks what to watch out for, and names a meal or food to be careful
	// with; reAvoidQuestion's forms name the avoiding itself.
	reCarefulQuestion = text.Lazy(`(?i)(?:\b(?:anything|what|something|owt|aught)\b[^.?!]{0,30}\b(?:watch out for|be careful (?:with|of|about)|look out for|keep an eye on|mind|steer clear of|keep away from|stay away from|give a miss|avoid)\b|\bwhat (?:do|should|must) i (?:have to |need to )?(?:watch out for|be careful (?:with|of|about))\b)[^.]*|(?:注意|小心|当心|留意)(?:点|些|一下)?(?:什么|啥|哪些)|(?:哪些|什么|啥)\p{Han}{0,4}我\p{Han}{0,3}(?:得|要|该|需要)?(?:躲|避|忌|别碰|不能碰)|(?:什么|啥|哪些)\p{Han}{0,3}(?:要|得|需要|应该)?(?:注意|小心|当心)`)
	reMealWords       = text.Lazy(`(?i)\b(?:eat|eating|dinner|lunch|breakfast|brunch|tea|supper|meal|restaurant|takeaway|takeout|sushi|seafood|curry|pizza|bbq|barbecue|buffet|pub|chippy|feast|banquet|wedding|party|order|menu|dish|food)\b|吃|饭|餐|火锅|海鲜|喜酒|宴|烧烤|聚餐|酒席|自助|外卖|边炉|小龙虾|料理|菜|夜宵|宵夜|饮茶`)
)

// More question forms of the core facets: a request for something the person likes ("put on
// some tunes I'd like", "放首我喜欢的歌", "get me my usual"), what they go for, where they spent
// their childhood, who their boss is.
var (
	reLikeRequest   = text.Lazy(`(?i)\b(?:put on|play|stick on|queue up|recommend|suggest|pick|find|order|get|grab|make|fix|pour)\b[^.?!]{0,40}\b(?:i(?:'d| would)? (?:like|love|enjoy|dig|go for|fancy)|i (?:usually|always|normally) (?:have|get|drink|order|eat))\b|\b(?:what|which) (?:\w+ )?(?:brand|kind|sort|type|one)s? (?:do|would|did) i (?:usually |normally |always )?(?:go for|get|order|pick|have|buy|drink)\b|(?:放|来|播|点|推荐|找|叫|买|帮我(?:叫|点|来|买|倒|泡))(?:一)?(?:首|个|部|本|杯|份|碗|点|瓶|罐)?\p{Han}{0,3}我(?:最)?(?:喜欢|爱|常|经常|平时|一般)\p{Han}{0,3}`)
	reOriginMore    = text.Lazy(`(?i)\b(?:where(?:'d| did)|which (?:\w+ ){1,2}did) i spend my (?:childhood|girlhood|boyhood|early years|youth|school days)|\bmy (?:childhood|girlhood|boyhood)\b|\b(?:what|which) (?:island|region|province|state|county|town|city|country|village) (?:do|did|am|was) i (?:\w+ )?(?:come from|from|grow up in|raised in)|我(?:从小|小时候)?(?:是)?在哪\p{Han}{0,3}(?:出生|长大)|(?:回|返)(?:老家|家乡)|(?:寒假|暑假|春节|过年|国庆|放假|五一|十一|中秋)\p{Han}{0,8}回家|回家(?:的)?(?:车票|机票|火车票|高铁票|航班)`)
	reHomeMore      = text.Lazy(`(?i)\b(?:what|which) (?:village|island|street|estate|road|borough|county|province|region|block|building|floor) (?:do |am |are )?(?:i|we) (?:live|in|based|living|reside|staying)`)
	rePastimeAnswer = text.Lazy(`(?i)(?:^|\n|[.;。；]\s*)\s*(?:music|telly|tv|books?|reading|films?|movies?|shows?|podcasts?|sports?|games?|listening|watching|faves?|favou?rites?)\s*[:：]|(?:^|\n|[。；;]\s*)\s*(?:听歌|音乐|歌手|电影|剧|追剧|看剧|书|读书|游戏|运动|爱听|爱看)\s*[:：]|\bspends? (?:most |all |every |the |his |her |their |my )?(?:saturdays?|sundays?|weekends?|evenings?|nights?|days off|free time|spare time|summers?|winters?|holidays?)\b|\bcurls? up with\b|(?:周末|休息日|放假|下班后?|闲时|有空)(?:一般|通常|都|常|就|会)?(?:去|在家)?(?:打|玩|看|听|钓|爬|逛|练|学|跳|唱)`)
	// reHobbyMore asks about a pastime in detail: its class, its position, its kit.
	reHobbyMore = text.Lazy(`(?i)\bwhen(?:'s| is| are| do i have) my (?:[\w-]+ ){0,2}(?:class|classes|lesson|lessons|practice|rehearsal|rehearsals|training|club|match|game)(?:\z| (?:today|tonight|tomorrow|this|next|on|again|at|start|starts|begin|begins))|\bwhat time (?:does|do|is) (?:my )?(?:[\w-]+ ){0,2}(?:class|lesson|practice|rehearsal|training|club|bridge|choir|band|league|match|game)(?: night)? (?:start|begin|finish|end|on)\b|\b(?:what|which) (?:position|instrument|grade|belt|handicap|level|rating) (?:do|am|did) i (?:play|have|hold|on|at)\b|我(?:打球|踢球|打)?(?:打|踢)(?:啥|什么)位置|我(?:的)?(?:兴趣班|培训班|课)\p{Han}{0,2}(?:是)?(?:周几|星期几|几点|哪天)`)
	reWorkMore  = text.Lazy(`(?i)\bwho(?:'s| is) my (?:boss|manager|supervisor|employer|line manager|gaffer)\b|\bwhat time (?:do|should|must|will) i (?:have to |need to |usually )?(?:be in|start|finish|clock (?:in|on|off|out)|get off|knock off|sign (?:in|off)|leave work|start work|finish work)\b|\b(?:which|what) days? (?:do|can|am|must) i (?:work|wfh|work from home|go (?:in|into the office)|be in the office)\b|(?:夜班|白班|早班|晚班|中班|小夜班|大夜班|小夜|大夜|夜勤)\p{Han}{0,2}(?:是)?(?:几点|什么时候|啥时候)|\b(?:which|what) (?:company|outfit|firm|crew|agency|haulier|client|hospital|school) am i (?:driving|working|riding|contracting|nursing|teaching) (?:for|at)\b|\bwhich days am i (?:usually |normally )?(?:out|on the road|on shift|working|in)\b|我(?:周几|星期几|礼拜几|哪天|哪几天)(?:可以|能|要|得|该)?(?:在家)?(?:办公|上班|远程|坐班|去公司|去单位)|\b(?:what|which|when)(?:'s|s| is| are)? my (?:days? off|off days?|rest days?)\b`)
	// reNearHome is a task about the person's surroundings ("suggest a restaurant near my
	// place", "推荐一家我家附近的甜品店"): where they live is what it needs.
	reNearHome = text.Lazy(`(?i)\b(?:near|nearby|close to) me\b|\b(?:near|nearby|close to|around|walking distance (?:of|from)|within \w+ (?:minutes?|mins?|miles?|km) of) (?:my (?:place|home|house|flat|apartment|neighbou?rhood|street|area|building|digs|pad)|where i (?:live|stay|am based))\b|\bin my (?:neighbou?rhood|area|part of town)\b|我家(?:附近|旁边|楼下|周边|周围|边上|那边|这边|门口)|离我家(?:近|不远|最近)|我住的(?:地方|小区|那|这)\p{Han}{0,1}(?:附近|旁边|周边|周围|边上)|我(?:住|家)(?:那|这)(?:边|块|片|一带)`)
	// reRecommend asks for something to enjoy without saying "I'd like" ("suggest a few songs
	// for a quiet evening in", "推荐几本书"): what the person enjoys is what it needs.
	reRecommend = text.Lazy(`(?i)\b(?:suggest|recommend|pick|choose|queue up|put on|watch on|stick on)\b[^.?!]{0,30}\b(?:songs?|music|tunes|albums?|playlists?|books?|novels?|reads|films?|movies?|shows?|series|podcasts?|games?|restaurants?|places to eat|dishes|recipes?|desserts?|snacks?|drinks?|wines?|beers?|cocktails?|gifts?|presents?|telly|tv|the box|radio)\b|(?:推荐|介绍|挑|选|放)(?:几|一|两)?(?:首|本|部|个|家|道|杯|款|些|点)?\p{Han}{0,4}(?:歌|音乐|书|小说|电影|剧|节目|游戏|餐厅|饭店|馆子|甜品|甜点|饮料|礼物)`)
	// reAvoidTask asks what the person may not eat or drink without saying so: what to write
	// on a takeaway order ("点外卖的时候备注要写点啥"), or whether they may, with no subject
	// ("晚上能跟兄弟们喝两盅不？").
	reAvoidTask = text.Lazy(`(?:点|叫|订)(?:个|份)?(?:外卖|餐|菜|饭)\p{Han}{0,8}(?:备注|要求)|备注\p{Han}{0,4}(?:写|填|要)(?:点)?(?:什么|啥)|^(?:我)?(?:今晚|晚上|今天|明天|中午|周末|过年|过节|聚餐|这次|待会)?(?:还)?能(?:不能)?\p{Han}{0,8}(?:喝|吃)\p{Han}{0,4}(?:不|吗|么|嘛)`)
	// reTasteRequest asks for something chosen by the person's taste ("make me a gym playlist
	// based on my taste", "按我的口味点个外卖", "something safe for me to eat").
	reTasteRequest = text.Lazy(`(?i)\b(?:based on|according to|suited to|that suits|to suit|that fits|matching|for) my (?:tastes?|preferences|palate|likes)\b|\bmy (?:tastes?|palate) in\b|\bsafe for me to (?:eat|drink|order|have)\b|\b(?:fits?|suits?) my diet\b|(?:按|照|根据|符合|合|对)(?:着)?我(?:的)?(?:口味|喜好|胃口|品味)|(?:别|不要|避开|避免|小心|注意)(?:让我)?踩(?:到)?(?:我的)?雷|我的雷(?:点|区)|我能吃的|我可以吃的`)
)

// reMealTask is a meal to plan, cook, order or book for the person, or the question what it
// will be ("plan my dinners this week", "what should I cook tonight", "order me a takeaway",
// "帮我规划这周的晚饭", "今晚吃什么", "帮我点个外卖"): what they eat and what they must not is what
// it needs, though it names neither. Menus and recipes count only as a meal's ("the dinner
// menu"), not alone, so that "fix the menu bar" stays a question about code.
var reMealTask = text.Lazy(`(?i)\b(?:plan|planning|cook|cooking|make|making|prepare|preparing|prep|fix|order|ordering|get|getting|grab|book|booking|reserve|pick|choose|suggest|recommend|decide on|sort out|organi[sz]e|put together|draw up|write)\b[^.?!]{0,30}\b(?:dinners?|lunch(?:es)?|breakfasts?|brunch(?:es)?|suppers?|meals?|takeaways?|takeouts?|take-?out|groceries|grocery (?:list|run|order|shop(?:ping)?)|food shop(?:ping)?|food order|something to eat|a bite|restaurants?|somewhere to eat|places? to eat)\b|\bwhat (?:should|shall|can|could|will) (?:i|we) (?:eat|cook)\b|\bwhat (?:should|shall|can|could|will) (?:i|we) (?:have|make|order|get|fix) for (?:dinner|lunch|breakfast|brunch|supper|tea)\b|\bwhat(?:'s| is) for (?:dinner|lunch|breakfast|brunch|supper|tea)\b|\b(?:meal|dinner|lunch|breakfast|supper) (?:plan|planning|prep|ideas?|menu|options?)\b|(?:规划|安排|计划|准备|想想|决定|搭配|列|做|煮|烧|点|叫|订|定|买|推荐|选)\p{Han}{0,8}(?:早饭|午饭|晚饭|早餐|午餐|晚餐|饭菜|夜宵|宵夜|外卖|便当|盒饭|年夜饭|三餐|菜单|菜谱|食谱|餐厅|饭店|馆子|买菜|菜)|(?:今晚|今天|明天|后天|中午|晚上|早上|明早|今早|周末|这周|下周|早饭|午饭|晚饭|早餐|午餐|晚餐|夜宵)\p{Han}{0,2}(?:吃|做|煮)(?:点)?(?:什么|啥)`)

// reSoftwareWords mark a question about building or fixing something ("fix the dinner booking
// page", "修复外卖页面的 bug"): a meal named there is the software's subject, not the person's.
var reSoftwareWords = text.Lazy(`(?i)\b(?:bugs?|page|pages|api|apis|endpoints?|components?|schema|database|db|tests?|deploy(?:ment)?|release|repo|pull request|pr|feature|button|screen|frontend|backend|server|code|function|module|css|html|ui|ux|form|field|migration|query|queries|model|service|website|site)\b|页面|接口|组件|数据库|测试|上线|版本|代码|按钮|功能|模块|需求|前端|后端|服务器|字段|表单|程序|系统|(?i:bug)`)

// reHabit marks a question about what the person usually does ("what do I cook when I need
// cheering up", "我早饭一般吃啥"): a taste answers it, not a meal to plan.
var reHabit = text.Lazy(`(?i)\b(?:usually|normally|always|typically|often|tend to|generally)\b|\bwhat do (?:i|we) (?:eat|cook|have|make)\b|一般|平时|平常|通常|经常|常常|总是|老是|习惯`)

// mealTask reports a meal to plan, cook or order (reMealTask) that is neither a question about
// software nor one about a habit.
func mealTask(q string) bool {
	return reMealTask.MatchString(q) && !reSoftwareWords.MatchString(q) && !reHabit.MatchString(q)
}

// lifeQuestionFacets adds the core facets a question asks in a form of this file.
func lifeQuestionFacets(q string, out []Facet) []Facet {
	add := func(f Facet) {
		for _, g := range out {
			if g == f {
				return
			}
		}
		out = append(out, f)
	}
	if reZodiacQuestion.MatchString(q) {
		add(FacetAge)
	}
	if (reCarefulQuestion.MatchString(q) && reMealWords.MatchString(q)) || reLikeRequest.MatchString(q) || reRecommend.MatchString(q) {
		add(FacetPreference)
	}
	if reOriginMore.MatchString(q) {
		add(FacetOrigin)
	}
	if reTasteRequest.MatchString(q) || reAvoidTask.MatchString(q) || mealTask(q) || dietPermission(q) {
		add(FacetPreference)
	}
	if reHomeMore.MatchString(q) || reNearHome.MatchString(q) {
		add(FacetHome)
	}
	if reHobbyMore.MatchString(q) {
		add(FacetPreference)
	}
	if reWorkMore.MatchString(q) {
		add(FacetWork)
	}
	return out
}

// dialectWords are Cantonese words folded into their Mandarin ones (after the characters are
// folded to Simplified), so that the facet rules, written in Mandarin, read a question or a
// note in Cantonese ("我屋企喺边?" → "我家在哪?"). Longer words first: a replacer compares its
// words in order at each position.
var dialectWords = strings.NewReplacer(
	"乜嘢", "什么", "乜野", "什么", "咩嘢", "什么", "咩野", "什么", "咩", "什么", "乜", "什么",
	"喺边", "在哪", "边度", "哪里", "边处", "哪里", "边个", "谁", "边间", "哪间", "边区", "哪个区", "边座", "哪座",
	"边年", "哪年", "边日", "哪天", "边位", "哪位", "边条", "哪条",
	"几时", "什么时候", "几多岁", "几岁", "几多", "多少",
	"点样", "怎么", "点解", "为什么",
	"屋企人", "家人", "屋企", "家", "钟意", "喜欢", "中意", "喜欢",
	"瞓觉", "睡觉", "瞓", "睡", "起身", "起床",
	"食紧", "在吃", "食嘢", "吃东西", "食咩", "吃什么", "食饭", "吃饭", "成日食", "常吃", "要食", "要吃",
	"饮紧", "在喝", "饮咩", "喝什么", "成日饮", "常喝", "饮酒", "喝酒",
	// 饮 and 食 are Cantonese for drink and eat, and Mandarin in these words.
	"饮料", "饮料", "饮品", "饮品", "饮食", "饮食", "餐饮", "餐饮", "冷饮", "冷饮", "饮茶", "饮茶", "饮水机", "饮水机", "饮", "喝",
	"食物", "食物", "食品", "食品", "食堂", "食堂", "美食", "美食", "零食", "零食", "食谱", "食谱", "素食", "素食",
	"主食", "主食", "粮食", "粮食", "伙食", "伙食", "食材", "食材", "面食", "面食", "甜食", "甜食", "肉食", "肉食",
	"食欲", "食欲", "食量", "食量", "饱食", "饱食", "食", "吃",
	"喺", "在", "嘅", "的", "唔", "不", "冇", "没有", "佢哋", "他们", "佢", "他", "嗰", "那", "𠮶", "那", "咗", "了",
	"个仔", "儿子", "个女", "女儿", "囡囡", "女儿", "雀仔", "小鸟",
	"讲嘢", "说话", "同我", "跟我", "啲咩", "点什么",
	"返工", "上班", "细个", "小时候", "成日", "经常", "乡下", "老家", "得闲", "有空", "睇", "看", "而家", "现在", "依家", "现在",
	// Northern Mandarin: 俺 is 我; 中不中 asks 行不行 (命中不中 is a hit or a miss), 整不整 要不要.
	"俺们", "我们", "俺", "我", "命中不中", "命中不中", "中不中", "行不行", "整不整", "要不要", "晌午", "中午", "要得不", "行不行", "啥子", "啥",
	"哪疙瘩", "哪里", "这疙瘩", "这里", "那疙瘩", "那里", "打小", "从小", "长起来", "长大",
	"啱听", "喜欢听", "啱食", "喜欢吃", "啱饮", "喜欢喝", "啱睇", "喜欢看", "嚟", "来", "畀", "给", "俾", "给",
)

// foldDialect writes s in Simplified characters and Mandarin words (see dialectWords): the
// form the facet rules read. Text without Chinese is returned as it is.
func foldDialect(s string) string {
	if !text.HasCJK(s) {
		return s
	}
	// 係 (Cantonese "is") folds to 系, which is another Mandarin word: it is read first.
	return dialectWords.Replace(text.FoldTraditional(strings.ReplaceAll(s, "係", "是")))
}
