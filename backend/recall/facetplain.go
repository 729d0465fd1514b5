package recall

import "engram/backend/text"

// Plain wordings (2026-12-05, from blind sets of people far from software: a weaver in Peru,
// a farmer in Kenya, a retired soldier, a delivery rider, a shop owner in a county town). They
// ask about their day by what they do in it ("what time do I usually get out of bed", "whens
// bowls on", "小夜班几点到几点", "我店早上几点开门"), their money by what it brings in ("how much
// does the milk bring me", "一个月到手多少", "除开成本能落多少"), their plans by what they save
// for ("我攒钱是打算干嘛"), and they ask advice in their own words ("worth me going?", "good
// dates?", "中不中", "吃得消吗", "钱够不够"). These forms are read like wordingFacetRules: not
// in a question about software or work items.
var plainFacetRules = []facetRule{
	{FacetRoutine,
		facetRe(`\b(?:what time|when|how early) (?:do|did|should|will|must) i (?:usually |normally |typically |generally |always )?(?:get out of bed|leave (?:the house|home|for (?:work|school|the \w+))|(?:get|head|go) (?:down |in |over |up |out )?to (?:the |my )?(?:harbou?r|pier|port|quay|docks?|yard|site|shop|office|work|school|uni|college|class|gym|pool|farm|market|station|depot|hospital|ward|clinic|surgery|church|mosque|temple|fields?|stall|garage|mill|mine|club|pub|bar|restaurant|kitchen|bakery|salon|plant|factory|warehouse|job|boat|rank|kiosk|studio)\b|arrive at (?:the |my )?(?:harbou?r|pier|port|quay|docks?|yard|site|shop|office|work|school|uni|college|class|gym|pool|farm|market|station|depot|hospital|ward|clinic|surgery|church|mosque|temple|fields?|stall|garage|mill|mine|club|pub|bar|restaurant|kitchen|bakery|salon|plant|factory|warehouse|job|boat|rank|kiosk|studio)\b|head (?:out|off) (?:to|for)|start (?:work|my shift|my day)|finish (?:work|my shift|up)|knock off|clock (?:in|on|off|out))\b|\bwhen(?:'s| is| are) (?:my [\w-]+(?: [\w-]+)?|[\w-]+) on\z`,
			`(?:白|夜|早|中|晚|小夜|大夜|前|后)班(?:是)?(?:从)?几点(?:到|至)几点|我\p{Han}{0,2}(?:一周|每周|一个礼拜|一个星期|每个礼拜|每个星期)\p{Han}{0,2}哪(?:天|几天)(?:休息|休|修息|歇|上班|值班|上课|有空|不上班|放假)|(?:我|我的|我们)(?:的)?(?:店|铺子|摊子?|档口|馆子|饭馆|小卖部|超市)(?:的|里)?(?:早上|晚上|每天|一般|平时)?(?:几点|什么时候|啥时候)(?:开门|关门|开张|营业|打烊|收摊|出摊)`),
		facetRe(`\b(?:opens?|closes?|open|leaves? (?:for (?:work|school) |home |the house )?at|heads? out at|starts? work at|finishes (?:work )?at) \d{1,2}(?:[:.]\d\d)?\b`,
			`\d{1,2}\s*点半?\p{Han}{0,2}(?:开门|关门|营业|打烊|出摊|收摊|上工|收工|出车|上线|下线|开工)|(?:开门|关门|营业|打烊|出摊|收摊|上工|收工|出车|开工)\p{Han}{0,2}[\d一二三四五六七八九十]|[三两]班倒|(?:小|大)夜(?:班)?\s*\d`)},
	{FacetMoney,
		facetRe(`\bhow much (?:am i|are we|do i|have i|i'm|did i|should i) (?:\w+ ){0,2}(?:keeping back|keep back|putting aside|set(?:ting)? aside)\b|\bhow much (?:does|do|did|will) (?:\w+ ){0,3}(?:bring me(?: in)?|earn me|make me|pay me|fetch me)\b`,
			`我\p{Han}{0,6}(?:到手|净落|净赚|纯利|利润|月入|收入|工资)\p{Han}{0,4}(?:大概|差不多|能有)?多少|(?:一个月|每个月|每月|一年)\p{Han}{0,6}(?:能|可以)?落(?:个|下)?多少|我\p{Han}{0,4}一个月(?:能)?(?:挣|赚|落|到手)(?:多少|几)`),
		facetRe(`\b(?:income|take-home|cheque|brings? in)\b|\bpaid [£$€¥]?\d|[£$€¥]\s?\d[\d.,]*\s*(?:an|per|a|/)\s*(?:hour|hr|week|month|year)\b|\b\d[\d.,]*\s*/\s*(?:hr|hour)\b`, `纯利|净落|净赚|流水`)},
	{FacetGoal,
		facetRe(`\bwhat (?:do|did) i (?:want|plan|hope|mean) to (?:study|become|train as)\b`,
			`(?:攒钱|存钱|攒了|存了)\p{Han}{0,4}(?:是)?(?:打算|准备|为了|想)\p{Han}{0,2}(?:干嘛|干啥|做什么|做啥|干什么|买啥|买什么)|我(?:明年|以后|将来|退休后|下半年)(?:想|打算|准备|计划)\p{Han}{0,10}(?:啥|什么)\p{Han}{0,4}来着|我\p{Han}{0,8}打算干(?:啥|嘛|什么)|(?:想|打算)(?:换|转)(?:个)?(?:活儿?|行|工作)(?:$|[，,。？?吗呢了嘛])`),
		nil},
	{FacetManner,
		facetRe(`\bhow i (?:said|told you|asked) (?:i )?(?:want|like|prefer|wanted|liked|preferred) you to (?:answer|reply|talk|write|respond|speak)\b`,
			`(?:你|您)(?:给|跟)?我回(?:个)?(?:消息|信息|话)\p{Han}{0,2}(?:咋样|怎样|怎么样|怎么)|(?:^|[，,])我(?:之前|以前|上次|早先)?(?:是)?(?:怎么|咋)跟你说的$|回我\p{Han}{0,4}(?:别|不要)(?:啰嗦|废话|绕)`),
		nil},
	{FacetHome,
		facetRe(`\b(?:what|which) (?:[a-z]+ )?(?:city|town|suburb|district|neighbou?rhood|area|village|estate|street|road) (?:i'm|i am) (?:living|based|staying|renting) in\b`),
		nil},
	{FacetHome, facetRe(`我家\p{Han}{0,2}(?:地址|住址|门牌)`), nil},
	{FacetAge, facetRe(`\bwhen (?:do|will|did) i turn (?:\d+|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a hundred)\b`), nil},
	{FacetPreference,
		facetRe(`\bwhat would i (?:like|love|enjoy|want)(?:\z| for (?:christmas|my birthday|a present|a gift))|\bwhat to (?:get|buy|give) me\b`, `(?:吃|喝|饮食|药|病|胃|身体)\p{Han}{0,6}(?:该|要|得)忌(?:点|些)?(?:啥|什么)`),
		nil},
	{FacetHealth, facetRe(`(?:吃|喝|饮食|药|病|胃|身体)\p{Han}{0,6}(?:该|要|得)忌(?:点|些)?(?:啥|什么)`), nil},
	{FacetHealth,
		facetRe(`\bmy (?:breathing|chest|lungs?|skin|stomach|gut|tummy|back|knees?|hips?|eyes?|ears?|heart|sleep|sugar|blood pressure) (?:problems?|issues?|trouble|condition|stuff)\b|\bwhat (?:sets off|triggers|brings on|sparks) my (?:asthma|allerg\w*|migraines?|eczema|symptoms|flare-?ups?|hay ?fever|breathing|chest|skin|gout|reflux|headaches?|attacks?|stomach|back)\b`),
		facetRe(`\b(?:gastritis|ulcers?|crohn'?s|colitis|gout|anaemi\w*|anemi\w*|insomnia|thyroid|kidney stones?|eczema|psoriasis)\b`, `胃炎|胃溃疡|胃病|胃不好|反流|肠胃|结石|痛风|甲状腺|贫血|失眠`)},
	{FacetRoutine,
		facetRe(`我(?:哪天|周几|星期几|礼拜几)(?:可以)?(?:不用|不)(?:去|上)(?:公司|班|学校|单位)`),
		facetRe(`(?:周|星期|礼拜)[一二三四五六日天]\p{Han}{0,4}(?:在家办公|居家办公|远程|不用去)`)},
	{FacetGoal, facetRe(`\b(?:trip|holiday|plan|idea|gift|present|treat) (?:that )?i had in mind\b|\bthe (?:long[- ]term |big |main )?plan for my (?:future|life|career|retirement|savings|money|family|kids)\b`), nil},
	{FacetWork, facetRe(`\bwhat i do for (?:a )?(?:living|work)\b|\bwhat(?:'s| is) my (?:actual|real|exact|official|current|proper) (?:job(?: title)?|title|role|occupation)(?:\z|,| at work| at my job)`), nil},
	{FacetManner, facetRe(`\bhow (?:do|did) i (?:want|like|prefer) you to (?:set out|present|organi[sz]e|arrange|lay out|format|write|structure) (?:your |the |my )?(?:answers|replies|responses|messages)(?:\z| to me)|\bhow should you (?:reply|answer|respond|talk|write) when i\b`), nil},
	{FacetOrigin, facetRe(`\bwhere(?:'d| did) i grow up\b`), nil},
	{FacetEducation, facetRe(`\bwhat (?:grade|year|form|class) am i in(?:\z| again| now| this year)`), nil},
	{FacetHealth, facetRe(`\b(?:wheez\w*|breathless|out of breath|short of breath|my (?:inhaler|puffer))\b`), nil},
	{FacetHome, facetRe(`\bwhich (?:area|part of town|suburb|neighbou?rhood|district) (?:our|my) (?:flat|house|place|apartment|home) is in\b`), nil},
	{FacetHome, facetRe(`我(?:现在|目前)?(?:租|住)的(?:房子|地方|屋|那间(?:房|屋))\p{Han}{0,2}(?:在)?哪`), nil},
}

// plainPersonalRules are plain forms bound to the person so closely ("what rank did I finish
// at", "describe my job for a form", "who's my doctor") that a shared word does not make them a
// task question.
var plainPersonalRules = []facetRule{
	{FacetWork,
		facetRe(`\b(?:describe|put down|write down|fill in|enter) (?:what )?my (?:job|occupation|profession|line of work)\b|\bwhat rank (?:did i (?:finish|retire|leave|reach|hold|get to)|was i|am i)\b`,
			`我(?:现在|目前)?(?:具体)?在哪(?:个|一个)(?:科|科室|部门|组|车间|班组|病区|站点|校区|门店)(?:$|上班|工作|待|干活|的)`),
		nil},
	{FacetGoal, facetRe(`\b(?:what|which) (?:\w+ ){0,2}(?:exam|test|certification|certificate|qualification|course|licen[cs]e) (?:am|was) i (?:\w+ )?(?:preparing|studying|training|revising|sitting|taking|doing|signed up)\b`), nil},
	{FacetContact, facetRe(`\b(?:the )?(?:number|phone number|contact details) (?:for|of) (?:the|my) (?:\w+ ){0,2}(?:guy|woman|man|lady|bloke|person|doctor|surgeon|vet|dentist)\b`), nil},
	{FacetContact, facetRe(`\b(?:what(?:'s| is)|give me) the (?:phone )?number(?:\z| for\b| to (?:call|ring)\b)`), nil},
	{FacetContact, facetRe(`\bwho(?:'s| is) my (?:landlord|landlady|lawyer|solicitor|accountant|boss|manager|social worker|case worker)(?:\z| again| now|,| and)`), nil},
	{FacetOrigin,
		facetRe(`我(?:是)?从哪(?:儿|里)?(?:嫁|搬|来)(?:过来|到这|来)?|我(?:的)?娘家`),
		facetRe(`\bborn\b[^.;\n]{0,30}?\bin (?-i:\p{Lu})\p{L}+`, `娘家`)},
	// A time range states a fixed time of the week (a shift, a class, opening hours).
	{FacetWeek, nil,
		facetRe(`\b\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?\s*(?:[–—-]|to|till|until)\s*\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)\b|\b\d{1,2}:\d\d\s*(?:[–—-]|to|till|until)\s*\d{1,2}:\d\d\b`,
			`\d{1,2}\s*点半?\s*(?:到|至|-|—|~)\s*\d{1,2}\s*点|(?:白|夜|早|中|晚|小夜|大夜)班\s*\d`)},
}

// reAdvicePlain asks advice in the plain words of reAdviceAsk's kind; reSituationPlain names
// the situations they ask about.
var (
	reAdvicePlain    = text.Lazy(`(?i)\b(?:what do you (?:think|reckon|say)|will i (?:like|enjoy|love|cope|manage|be (?:ok|okay|fine|alright))|worth (?:me |my )?(?:going|it|the trip)|good (?:dates|days?|timing|time|weekend)|can i (?:buy|afford|stay|go out|book|take (?:it|the|them|this))|anything i should (?:bring|take|pack|wear|carry)|what (?:do|should) i (?:tell|say to) (?:them|him|her)|what can i (?:actually )?(?:eat|have|drink|order)(?: there)?|would it be (?:ok|okay|wise|smart|a problem)|any reason (?:not to|i shouldn'?t)|ok if i (?:take|have|eat|drink|go|join)|go back for seconds|have seconds|swing it|stretch to it|will i (?:grab|get|have|take|buy|order)|any tips|tips for me|any advice|can i (?:grab|snag) (?:it|them|one|a|some)|anything i should (?:think about|consider|keep in mind|bear in mind))\b|会不会(?:耽误|影响)|(?:还|能)\p{Han}{1,2}得不\z|怎么办|咋办|咋弄|咋整|能去\p{Han}{0,2}不\z|吃得消|顶得住|撑得住|够不够|够吗|够用吗|哪(?:几)?天\p{Han}{0,3}合适|(?:什么|啥)时候\p{Han}{0,3}合适|行吗|成吗|可以吗|靠谱吗`)
	reSituationPlain = text.Lazy(`(?i)\b(?:booking (?:me|us)|(?:has|have|got) (?:some )?spare|bringing|(?:is|are|'s|'re) (?:cooking|making|doing) (?:us|me|a|some)|putting on|(?:quiz|games?|movie|film|curry|dessert|pizza|karaoke|trivia|bingo|poker|date|club|pub|comedy|open mic|all-you-can-eat [\w-]+) nights?|celebrat\w+|over (?:a|some) (?:beer|drink|pint|coffee|meal|wine)|going for (?:a|an) (?:run|jog|walk|swim|hike|ride|cycle|paddle|dip)|working bee|overtime|extra shift|double shift|cover (?:a|her|his|their|my) shift|wants? (?:me|us) for|flights?|tickets?)\b|` + sumWords + `|手头紧|看中|想买|买了|[一二三四五六七八九十两几]+百|挪(?:用|去)|借钱|借给|请假|暴雨|大雨|下雪|降温|台风|高温|让(?:我)?(?:去|跑|干|做|加班|值班|帮)|想去|打算去|准备去|来(?:一|个)?(?:碗|杯|瓶|份|盘|串)|养(?:只|条|个)|(?:给\p{Han}{1,4})?买(?:个|台|辆|只)`)
)

// sumWords is a sum in a currency named by word, code or sign ("1,400 cedis", "KSh 2,000",
// "Rs 500", "₹900").
const sumWords = `\b\d[\d,.]*\s?(?:grand|dollars?|bucks|quid|pounds?|euros?|cedis?|rand|naira|shillings?|rupees?|yuan|soles?|pesos?|reais|kronor|kroner|krona|zloty|lira|yen|dirhams?|ringgit|baht|francs?)\b|\b(?:ksh|kes|rs\.?|inr|usd|eur|gbp|cad|aud|nzd|sgd|hkd|chf|rmb|cny|php|mxn|brl|zar|ngn|ghs|pen)\s?\d|[₹₦₱₩₫₺₵]\s?\d`

// constraintKindsPlain relate more everyday things to what holds a person back: offal, cold
// food for a bad stomach, a high floor for a fear of lifts, a ropes course for heights, cakes for
// blood sugar, walking uphill, bending or moving furniture for the knees and back, a freezing
// morning for asthma, a field for hay fever, a late night for a curfew.
var constraintKindsPlain = []constraintKind{
	{text.Lazy(`(?i)\b(?:offal|tripe|kidneys|haggis|sweetbreads|black pudding|blood sausage|foie gras|giblets|chitterlings|brains|intestines|menudo)\b|脑花|肥肠|大肠|猪肝|腰子|腰花|毛肚|百叶|鸭肠|鹅肝|牛杂|羊杂|卤煮|内脏|下水|猪肚|鸡胗|鸭血|血旺|肺片`),
		text.Lazy(`(?i)\b(?:offal|organ meats?|tripe|innards)\b|内脏|下水`)},
	{text.Lazy(`(?i)\b(?:ice cream|iced (?:coffee|tea|drinks?|latte)|ice-cold|cold drinks?|slushies?)\b|冰粉|冰淇淋|雪糕|冷饮|冰的|冰镇|冰水|冰奶茶|刨冰|冰棍|冰沙|凉的|冰啤`),
		text.Lazy(`(?i)\b(?:nothing (?:cold|iced)|no (?:cold|iced))\b|不能吃冰|不能喝冰|不喝冰|不吃冰|冰的|生冷|凉的`)},
	{text.Lazy(`(?i)\b(?:\d+(?:st|nd|rd|th) floor|high-?rise|tower block|top floor)\b|(?:[十二三四五六七八九]{1,3}|\d{2,})\s*楼|住\p{Han}{0,4}(?:[十二三四五六七八九]{1,3}|\d{2,})\s*层|顶楼`),
		text.Lazy(`(?i)\b(?:lifts?|elevators?|claustrophob\w*)\b|电梯|幽闭`)},
	{text.Lazy(`(?i)\b(?:treetop|ropes? course|high ropes|via ferrata|climbing wall|rock climbing|zip ?lin\w*)\b`), text.Lazy(`(?i)\b(?:heights?|acrophob\w*|vertigo)\b|恐高`)},
	{text.Lazy(`(?i)\b(?:pav|pavlova|sponge cake|sponge|scones?|tarts?|muffins?|lamingtons?|(?:cake|cream|vanilla|caramel) slices?|trifle)\b`), text.Lazy(`(?i)\b(?:sugar|diabet\w*|prediabet\w*|glucose|cakes?)\b`)},
	{text.Lazy(`(?i)\b(?:picnic|meadows?|(?:hay|grass|open|wheat|corn|barley) ?fields?|fields in (?:may|june|july)|cut grass|mowing|hay|pollen|gardening)\b|柳絮|花粉|草地|割草`),
		text.Lazy(`(?i)\b(?:hay ?fever|pollen|cut grass|grass)\b|花粉|柳絮|过敏性鼻炎`)},
	{text.Lazy(`(?i)\b(?:mov(?:e|ing) (?:a |the |his |her |their )?(?:couch|sofa|fridge|furniture|house|wardrobe|piano|washing machine|boxes)|carry\w* (?:\w+ ){0,3}up(?:stairs| the stairs| to the \d+\w* floor)|help (?:\w+ ){0,2}mov(?:e|ing) (?:house|flat|a couch|a sofa|furniture))\b|搬家|扛|爬楼`),
		text.Lazy(`(?i)\b(?:lower back|back flares|(?:nothing|anything|not) (?:over|above|heavier than) \d+\s*kg|lift(?:ing)? anything over|heavy lifting|don'?t lift)\b|腰|搬重|莫扛|不能扛`)},
	{text.Lazy(`(?i)\b(?:uphill|steep (?:hill|climb|path|track|slope|walk|stairs|steps)|trek\w*|bending|stooping|kneel\w*|squat\w*|heavy lifting|lift(?:ing)? heavy|carry(?:ing)? (?:heavy|boxes|sacks))\b|猫着腰|弯腰|蹲着|爬楼|上楼|楼梯|没电梯|扛|搬重`),
		text.Lazy(`(?i)\b(?:knees?|hips?|ankles?|joints?|arthritis|steep|stairs|bending|kneel\w*|lifting|bad back|back (?:pain|problems?|injury)|sore back)\b|膝|腰|腿|髋|关节|半月板|弯腰|爬楼|搬重`)},
	{text.Lazy(`(?i)(?:^|\s)-\d{1,2}(?:\s*(?:°|degrees|c)\b|[.!,]|$)|\b(?:freezing|frost\w*|below zero|minus \d+|cold (?:air|morning|weather)|icy)\b|零下|冷空气|寒潮`),
		text.Lazy(`(?i)\b(?:asthma\w*|inhaler|cold air|freezing air|raynaud\w*)\b|哮喘|怕冷|冷空气`)},
	{text.Lazy(`(?i)\b(?:(?:goes|going|go on|party|out|stay(?:ing)?|dancing) (?:till|until|til) (?:\d{1,2}\s*(?:am|pm)?|midnight|late|dawn)|sleepover)\b|通宵|半夜`),
		text.Lazy(`(?i)\b(?:curfew|(?:home|in|back) by \d{1,2}\s*(?:am|pm)?)\b|门禁|宵禁|\d+点(?:前|之前)(?:到家|回家)`)},
}
