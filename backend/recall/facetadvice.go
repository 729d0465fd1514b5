package recall

import (
	"slices"

	"engram/backend/memory"
	"engram/backend/text"
)

// A person asks advice on a situation more often than they ask a fact: "Rana asked if I'll
// take the wheel for the second half, thoughts?", "hospital booked me for a scan in the tube
// thing, anything I should warn them about?", "老同学约我周末去爬千山，我这身子能去吗". The
// answer is what holds them back — a fear, a condition, an allergy, a drink given up — in
// words the question does not use ("claustrophobic", "半月板损伤"). So such a question asks the
// fear and health facets, and the notes that state a fear, a condition or an abstention are
// put first; the words the question shares with one of them still order them.

var (
	// reAdviceAsk asks whether the person should, may or would (or what to mind).
	reAdviceAsk = text.Lazy(`(?i)\b(?:should i|shall i|would i (?:enjoy|like|love|manage|cope|be (?:ok|okay|fine|alright))|(?:can|could|may) i (?:go|join|come|dig in|tuck in|have (?:one|some|a bit|a piece|a glass|a slice|a taste)|eat (?:it|that|some|one)|drink (?:it|that|some|one))|do i (?:raise|join|go|say yes|accept)|am i (?:ok|okay|fine|safe|able) to)\b|\b(?:good idea|bad idea|thoughts|yes or no|go or not|take it or (?:leave it|nah|not)|worth it|wise|(?:ok|okay|alright|all right|safe|fine) for me|gonna be (?:ok|okay|fine|alright)|anything i should (?:warn|tell|mention|know|watch)|should i (?:warn|tell|mention))\b|\b(?:good plan|good call|good shout|good move|smart move|yay or nay|in or out|can (?:i|we) (?:manage|afford) it|afford it|realistic|big deal|can i (?:make it|take it|fit it in|do it)|(?:am i|will i be) (?:free|around|available)|do i have time|(?:will there|is there) (?:even )?(?:be )?anything (?:for me )?(?:to eat|i can eat)|anything (?:on [\w-]+ )?i can (?:actually )?(?:have|eat|drink)|(?:anything|what) (?:do )?i (?:need to|have to|should) (?:watch|look) out for|(?:any way|how) (?:can |do )?i (?:can )?(?:get out of|skip|avoid|dodge))\b|\b(?:ok|okay|alright|all right|can i|should i|worth it)\s*[?？]*\s*\z|去不去|要不要|能不能去|能去吗|可以去吗|行不行|行不|合适不|合适吗|好不好|该不该|咋样|怎么样|能行吗|要紧吗|有没有事|会不会有事|有(?:啥|什么)要\p{Han}{0,6}(?:说|注意)|能去不|去得了吗|扛得住吗|受得了吗|(?:接不接|吃不吃|喝不喝|抽不抽|跑不跑|买不买|报不报|答应不答应|参加不参加|玩不玩|坐不坐|去吗|接吗|没事吧|没问题吧|有问题吗|能行不|可以不|现在就(?:下单|买|换|刷)|直接(?:刷|买|下单)|现在(?:换|买)吗|买不买|换不换|搞不搞|做不做|干不干|买得起吗|划算吗|值不值|去得了吗|有空吗|有时间吗|赶得上吗|来得及吗)`)
	// reAdviceSituation names a situation the person is invited to or plans: an invitation, an
	// offer, an activity, a booking.
	reAdviceSituation = text.Lazy(`(?i)\b(?:invited|invites?|asked me|asking me|asked if i|wants? me|wants? us|want me|want us|offered|offering|offers me|treat me|take me|join (?:them|him|her|us)|come along|booked me|signed me up|wants? to (?:meet|go|come|hang out|catch up)|meet up|party|trip|road trip|holiday|wedding|festival|concert|night out|gig|bake sale|tasting|taste-test|canteen|restaurant|bbq|barbecue|dinner|lunch|brunch|hike|camping|retreat|offsite|tour|selling|for sale|someone (?:ordered|brought)|(?:[\w-]+-making|cooking|dance|dancing|yoga|art|pottery|fitness|spin|swim(?:ming)?|language|painting|music|salsa|boxing|climbing|diving) (?:class|course|lessons?)|(?:open|crack open|order) (?:the|a|another) (?:bottle|wine|beer|pint|round)|pints?)\b|[£$€¥]\s?~?\d|约我|叫我|喊我|请我|让我|邀请我|拉我|带我|想让我|问我|推荐|推销|合伙|递|陪|聚餐|饭局|聚会|酒局|旅游|出差|自驾|爬山|游泳|冬泳|体检|报名|考\p{Han}{0,2}证|\d+\s*(?:块|元|万)|[一二三四五六七八九十两几]+(?:千|万)`)
	// reConstraint states what holds the person back beyond the fear and health facets' own
	// words: a phobia by name, panic, dizziness, what they cannot or will not do.
	reConstraint = text.Lazy(`(?i)\b\w*phob(?:ia|ic|e)s?\b|\b(?:panick(?:ed|y|s)?|dizzy|faints?|fainted|queasy|seasick|travel sick|motion sickness|can'?t swim|non-swimmer|(?:won'?t|doesn'?t|never|can'?t) (?:go|fly|drive|climb|swim|do)|avoids?|gave up|sober|teetotal|vegetarian|vegan|can'?t stand|hates?|dislikes?|doesn'?t like|prediabet\w*|cutting (?:down on |back on |out )?(?:sugar|carbs|salt|caffeine|alcohol)|anxious|nervous)\b|晕(?:车|船|机|血|针)|不敢|不能(?:吃|喝|碰|坐|爬|游|跑|搬|熬|开车|去)|受不了|损伤|过敏|戒了|不爱吃|不喜欢|讨厌`)
)

// FacetWeek is the person's fixed times in a week — shifts, classes, days off — read for advice
// about a situation at a day or an hour ("study group wants to meet sunday 10am, can I make
// it?"), not asked by a question of its own.
const FacetWeek Facet = "week"

// adviceAsked reports a question asking advice on a situation (not a software or work-item
// task).
func adviceAsked(q string) bool {
	if reAdviceWh.MatchString(q) && !reAdviceWhAsk.MatchString(q) {
		return false // "what time should I ring mum on Sunday" asks a fact, not whether
	}
	return (reAdviceAsk.MatchString(q) || reAdvicePlain.MatchString(q)) && (reAdviceSituation.MatchString(q) || reSituationPlain.MatchString(q) || namesKind(q)) && !taskWorded(q)
}

// reAdviceWh opens a question that asks what, when or where; reAdviceWhAsk is such a question
// that still asks what to mind ("what should I tell the nurse before the scan").
var (
	reAdviceWh    = text.Lazy(`(?i)^\s*(?:what|what's|whats|when|where|which|who|whose|how)\b`)
	reAdviceWhAsk = text.Lazy(`(?i)\b(?:anything i should|what should i (?:tell|warn|mention|watch|avoid|bring|say)|should i (?:warn|tell|mention))\b`)
)

// adviceFacets adds the facets an advice question asks: the person's fears and health, and
// their money when it is about spending ("a ~$60k ute, realistic this year?").
func adviceFacets(q string, asked []Facet) []Facet {
	if !adviceAsked(q) {
		return asked
	}
	add := []Facet{FacetFear, FacetHealth}
	if reSpending.MatchString(q) {
		add = append(add, FacetMoney)
	}
	if reFoodWords.MatchString(q) || reMealWords.MatchString(q) || reDrinkWords.MatchString(q) {
		// Food and drink: what the person eats, avoids and cannot stand.
		add = append(add, FacetPreference)
	}
	day, hour := len(weekdaysOf(q)) > 0, reClockTime.MatchString(q)
	if (day && hour) || (!namesKind(q) && (day || hour)) {
		// A situation at a day or an hour depends on the person's week: their shifts, classes
		// and when they sleep (at a day and an hour, even when it names a thing of a kind:
		// "a pool party on saturday at 2").
		add = append(add, FacetWeek)
	}
	for _, f := range add {
		if !slices.Contains(asked, f) {
			asked = append(asked, f)
		}
	}
	return asked
}

// constraintKind pairs the things of a kind with the constraint a note states about them.
type constraintKind struct{ things, constraint *text.Regexp }

// constraintKinds (with constraintKindsMore) relate what a situation involves to the constraint a note states about it:
// cheese to a dairy intolerance, a steakhouse to a vegetarian, bubbly to a drink given up, a
// golden retriever to a fear of dogs, a ladder to heights. A general list of everyday
// constraints, written for this purpose, in English and Chinese; an advice or may-I-have
// question that names a thing of one kind credits the constraint notes of that kind above the
// others.
var constraintKinds = append([]constraintKind{
	{text.Lazy(`(?i)\b(?:steaks?|steakhouse|grill|grilled meat|carvery|braai|asado|churrasc\w+|yakiniku|nyama|beef|pork|bacon|ham|sausages?|burgers?|chicken|lamb|veal|meat|meatballs?|bbq|barbecue|kebab|brisket|ribs|turkey|duck|salami|pepperoni|chorizo)\b|牛排|牛肉|猪肉|羊肉|鸡肉|肉|烤串|烧烤|火腿|香肠|叉烧|腊肉`),
		text.Lazy(`(?i)\b(?:vegetarian|vegan|pescatarian|plant-based|no meat|doesn'?t eat meat|halal|kosher|pork)\b|吃素|素食|不吃肉|不吃猪肉|清真`)},
	{text.Lazy(`(?i)\b(?:cheese|cheesy|milk|milkshake|cream|creamy|butter|yog(?:h)?urt|ice cream|gelato|latte|cappuccino|custard|cheesecake|pizza|dairy|paneer|brie|cheddar|mozzarella|halloumi|kunafa|knafeh)\b|牛奶|奶茶|奶油|奶酪|酸奶|奶昔|芝士|奶酪|奶油|冰淇淋|雪糕|酸奶|拿铁`),
		text.Lazy(`(?i)\b(?:lactose|dairy)\b|乳糖|奶制品|不喝奶|牛奶过敏`)},
	{text.Lazy(`(?i)\b(?:beers?|pints?|lager|ale|wine|champagne|bubbly|prosecco|cava|cocktails?|sherry|whisk(?:e)?y|vodka|gin|rum|tequila|cider|booze|shots?|champagne toast|drinks? (?:after|at the|with)|pub|happy hour|wine tasting|brewery|sake|soju|baijiu|rioja|malbec|merlot|shiraz|pinot|chardonnay|sauvignon)\b|(?:喝|拼|敬|劝|白|红|啤|烧|黄|米|洋|葡萄)酒|酒局|酒吧|喝两杯|干杯|整两瓶|啤的|白的|扎啤|啤酒`),
		text.Lazy(`(?i)\b(?:alcohol|sober|sobriety|teetotal|aa|doesn'?t drink|don'?t drink|never drinks|no (?:alcohol|booze)|quit drinking|off the (?:drink|booze|sauce)|on the dry|stopped drinking|gave up (?:the )?(?:drink|booze|alcohol)|0\.0|in recovery|triggers?\b[^.\n]{0,40}\b(?:wine|alcohol|beer|spirits)|keeps? (?:drink|drinking|alcohol|booze) (?:to|under|down)|units a week|(?:one|a|half a) (?:small )?(?:sherry|beer|glass of (?:wine|red|white)|pint|cider)(?: max| a day| a night| in the evening)?)\b|戒酒|不喝酒|滴酒不沾|不能喝酒|酒精|一喝酒|别喝酒|不碰酒`)},
	{text.Lazy(`(?i)\b(?:dogs?|pupp(?:y|ies)|pups?|` + petBreedsEn + `)\b|狗|犬|` + petBreedsZh),
		text.Lazy(`(?i)\b(?:(?:afraid|scared|terrified|frightened|wary) of (?:\w+ ){0,2}dogs?|allergic to dogs?|bitten by a dog|cynophob\w*)\b|怕狗|被狗咬|狗毛过敏|对狗\p{Han}{0,2}过敏`)},
	{text.Lazy(`(?i)\b(?:cats?|kittens?|cat caf[eé])\b|猫`), text.Lazy(`(?i)\b(?:allergic to cats?|cat hair|cat dander|(?:afraid|scared) of cats)\b|猫毛过敏|对猫\p{Han}{0,2}过敏|怕猫`)},
	{text.Lazy(`(?i)\b(?:peanuts?|nuts?|almonds?|cashews?|walnuts?|satay|pad thai|praline|nutella|pesto|marzipan|baklava)\b|花生|坚果|核桃|杏仁|腰果`),
		text.Lazy(`(?i)\b(?:peanuts?|nuts?|tree nuts?)\b|花生|坚果`)},
	{text.Lazy(`(?i)\b(?:bread|pasta|pizza|noodles|beer|cake|biscuits?|cookies?|porridge|oats|wheat|barley|rye|croissants?|pastr(?:y|ies)|dumplings?|batter|battered)\b|面包|面条|馒头|包子|饺子|蛋糕|饼干|啤酒|小麦`),
		text.Lazy(`(?i)\b(?:gluten|coeliac|celiac|wheat)\b|麸质|乳糜泻`)},
	{text.Lazy(`(?i)\b(?:shrimps?|prawns?|crabs?|lobsters?|oysters?|mussels|clams|scallops|shellfish|seafood|paella|sushi|crayfish)\b|虾|蟹|海鲜|贝|生蚝|扇贝|小龙虾|生腌`),
		text.Lazy(`(?i)\b(?:shellfish|seafood|prawns?|shrimp)\b|海鲜|虾|蟹|贝类`)},
	{text.Lazy(`(?i)\b(?:swim|swimming|pool|diving|dive|snorkel\w*|kayak\w*|canoe\w*|boat|sailing|ferry|cruise|beach|surf\w*|lake|sea|deep end|water park|rafting)\b|游泳|冬泳|潜水|浮潜|坐船|划船|游艇|游轮|邮轮|轮渡|渡轮|漂流|海边|下水`),
		text.Lazy(`(?i)\b(?:can'?t swim|non-swimmer|never learn(?:ed|t) to swim|doesn'?t swim|water|drown\w*|seasick\w*|boats?|motion sickness)\b|不会游泳|旱鸭子|怕水|晕船|坐船|下水|冬泳|游泳`)},
	{text.Lazy(`(?i)\b(?:heights?|ladders?|roofs?|climb\w*|hik\w*|mountains?|cliff\w*|tower|rooftop|ferris wheel|zip ?line|bungee|abseil\w*|skydiv\w*|stairs)\b|爬\p{Han}{0,3}山|登\p{Han}{0,3}山|恐高|梯子|屋顶|高空|蹦极|摩天轮|爬楼|上下坡`),
		text.Lazy(`(?i)\b(?:heights?|ladders?|dizzy|vertigo|acrophob\w*|knees?|hips?)\b|恐高|爬山|爬楼|膝|半月板|上下坡`)},
	{text.Lazy(`(?i)\b(?:fly|flying|flight|flights|plane|airport|layover)\b|飞机|航班|坐飞机`), text.Lazy(`(?i)\b(?:fly|flying|planes?|flights?|aerophob\w*)\b|飞机`)},
	{text.Lazy(`(?i)\b(?:drive (?:us |them |him |her |myself )?(?:to|up|down|home|back|over|there)|driving|the wheel|road trip|behind the wheel|after dark)\b|开车|自驾|夜路`),
		text.Lazy(`(?i)\b(?:driv\w+|night driving|after dark)\b|开车|驾驶|夜路`)},
	{text.Lazy(`(?i)\b(?:mri|ct scan|pet scan|brain scan|scan in the tube|the tube thing|lift|elevator|cave|tunnel|crowd\w*|tight space|small room|escape rooms?|bunker|caves?|caving)\b|核磁|电梯|山洞|隧道|密室`),
		text.Lazy(`(?i)\b(?:claustrophob\w*|mri|enclosed|tight spaces|crowds?)\b|幽闭|密室|电梯`)},
	{text.Lazy(`(?i)\b(?:blood tests?|bloods|needles?|jabs?|injections?|vaccin\w*|flu shots?|booster|drip|blood donation)\b|抽血|打针|输液|献血|疫苗`),
		text.Lazy(`(?i)\b(?:needles?|blood|faints?|fainted|pass(?:es)? out|passed out|hemophob\w*|haemophob\w*)\b|晕血|晕针|怕打针|抽血`)},
	{text.Lazy(`(?i)\b(?:spicy|chilli|chili|curry|hot sauce|jalape\w+|sriracha|vindaloo|mala|hot ?pot|sichuan|szechuan|thai|mexican|korean)\b|辣|麻辣|火锅|红锅|川菜|湘菜`),
		text.Lazy(`(?i)\b(?:spicy|spice|chilli|chili|reflux|gastritis|ulcer|ibs|heartburn)\b|辣|胃炎|胃溃疡|反流`)},
	{text.Lazy(`(?i)\b(?:coffee|espresso|latte|americano|flat white|cappuccino|mocha|caffeine|energy drink|red bull|cola|coke|tea)\b|咖啡|美式|浓缩|红牛|可乐|茶`),
		text.Lazy(`(?i)\b(?:caffeine|coffee|decaf|palpitations?)\b|咖啡|心慌|咖啡因`)},
	{text.Lazy(`(?i)\b(?:aspirin|ibuprofen|nurofen|advil|naproxen|painkillers?|anti-inflammator\w*)\b|阿司匹林|布洛芬|止痛药`),
		text.Lazy(`(?i)\b(?:aspirin|ibuprofen|nsaids?|warfarin|blood thinner|anticoagul\w*|apixaban|rivaroxaban)\b|阿司匹林|布洛芬|华法林`)},
}, append(constraintKindsMore, constraintKindsPlain...)...)

// constraintKindsMore are sweets for blood sugar, the fears of animals, smoke for the lungs, a night without sleep,
// speaking in public, and spending for a budget.
var constraintKindsMore = []constraintKind{
	{text.Lazy(`(?i)\b(?:pies?|cakes?|desserts?|puddings?|sweets|candy|chocolate|soda|fizzy|coke|cola|ice cream|a la mode|cookies?|donuts?|doughnuts?|pastr(?:y|ies)|sugary|milkshakes?|sundae)\b|甜|蛋糕|奶茶|全糖|可乐|冰淇淋|雪糕`),
		text.Lazy(`(?i)\b(?:sugar|diabet\w*|prediabet\w*|a1c|hba1c|glucose|insulin)\b|控糖|血糖|糖尿病`)},
	{text.Lazy(`(?i)\b(?:all-nighters?|all nighters?|no sleep|stay(?:ing)? up (?:all night|late)|pull an? (?:all-nighter|late one)|late nights?)\b|通宵|熬夜`),
		text.Lazy(`(?i)\b(?:lost sleep|lack of sleep|sleep(?:ing)? (?:pattern|schedule)|seizures?|epilep\w+|triggers?)\b|熬夜|睡眠|癫痫`)},
	{text.Lazy(`(?i)\b(?:present(?:ing)? (?:our|my|the|a) (?:\w+ )?(?:project|work|findings|research|paper|talk) to|presentations?|speech(?:es)?|give a talk|public speaking|best man|on stage|host the|(?:to|before|in front of) (?:the|a) panel|panel (?:interview|talk|discussion))\b|演讲|发言|上台|主持`),
		text.Lazy(`(?i)\b(?:public speaking|present(?:ing)?|speeches|stage fright|glossophob\w*|freeze|toastmasters)\b|演讲|发言|怯场|上台`)},
	{text.Lazy(`(?i)\b(?:snakes?|pythons?|reptiles?|reptile house|serpents?)\b|蛇|蟒|爬虫|爬行动物`), text.Lazy(`(?i)\b(?:snakes?|ophidiophob\w*)\b|蛇`)},
	{text.Lazy(`(?i)\b(?:spiders?|tarantulas?|arachnids?)\b|蜘蛛`), text.Lazy(`(?i)\b(?:spiders?|arachnophob\w*)\b|蜘蛛`)},
	{text.Lazy(`(?i)\b(?:wasps?|bees|hornets?|honey farm|beekeep\w*)\b|(?:^|[^g]\s)bee\b|蜜蜂|马蜂|黄蜂|蜂`), text.Lazy(`(?i)\b(?:wasps?|bees?|stings?)\b|蜂`)},
	{text.Lazy(`(?i)\b(?:bonfires?|campfires?|smoke|smoky|smoking|fireworks|incense|vape|vaping|cigars?|cigarettes?)\b|烟|篝火|烧烤|鞭炮|香薰`),
		text.Lazy(`(?i)\b(?:asthma\w*|smoke|copd|lungs?|inhaler)\b|哮喘|烟|鼻炎`)},
	{reSpending,
		text.Lazy(`(?i)\b(?:tight|budget\w*|saving (?:up )?for|credit card|debt|loan|overdraft|big spends?|no (?:big )?spend\w*|cutting back|spending (?:limit|cap|to)|keeps? (?:\w+ )?spending|saved so far|deposit|emergenc(?:y|ies)|repair fund|won'?t touch it|talks? (?:it )?over with)\b|攒钱|存钱|预算|不想买|大件|冷静|大额|分期|花呗|还贷|首付|开支|商量|雷打不动|生活费|退休金`)},
}

// reSpending names a spending: a sum, a purchase, something that costs.
var reSpending = text.Lazy(`(?i)[£$€¥]\s?~?\d|` + sumWords + `|\b\d+\s*grand\b|\b(?:afford|spend|splurge|buy|purchase|pay for|cost|costs|price|expensive|upgrade to|invest)\b|\d+\s*(?:块|元|万)|[一二三四五六七八九十两几]+(?:千|万)|下单|刷了|换车|首付|合伙|买(?:个|台|辆|套|部|件)`)

// constraintOn reports a note that states a constraint of a kind the question names.
func constraintOn(q, hay string) bool {
	for _, k := range constraintKinds {
		if k.things.MatchString(q) && k.constraint.MatchString(hay) {
			return true
		}
	}
	return false
}

// constraintBoost is the extra credit of a boosted note that states a constraint of the kind
// an advice or may-I-have question names (constraintKinds): among the notes of what holds the
// person back, the one about the thing asked.
const constraintBoost = 1.5

// constrains reports whether m states a constraint of a kind the question names, for an advice
// or may-I-have question.
func (q facetQuery) constrains(m *memory.Memory) bool {
	if !q.advice && !q.permit {
		return false
	}
	hay := m.Title + "\n" + m.Body
	if constraintOn(q.folded, hay) {
		return true
	}
	// The day counts when the situation names no thing of a kind: "sailing on saturday" is
	// about the water, not about the Saturday shift.
	return q.advice && !namesKind(q.folded) && sameWeekday(q.folded, hay)
}

// namesKind reports whether a question names a thing of one of the constraint kinds.
func namesKind(q string) bool {
	for _, k := range constraintKinds {
		if k.things.MatchString(q) {
			return true
		}
	}
	return false
}

// reClockTime is an hour of the day ("9am", "10:30", "晚上7点").
var reClockTime = text.Lazy(`(?i)\b\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\bat (?:1[0-2]|[1-9])(?:\s*o'?clock)?(?:\s|[,.?!;]|$)|\b\d{1,2}:\d\d\b|\d{1,2}\s*点|[一二三四五六七八九十两]+点`)

// weekdayNames are the days of the week as English and Chinese write them, by index from Monday.
var weekdayNames = [7]*text.Regexp{
	text.Lazy(`(?i)\bmon(?:day)?s?\b|周一|星期一|礼拜一`), text.Lazy(`(?i)\btue(?:s|sday)?s?\b|周二|星期二|礼拜二`),
	text.Lazy(`(?i)\bwed(?:nesday)?s?\b|周三|星期三|礼拜三`), text.Lazy(`(?i)\bthu(?:rs|rsday)?s?\b|周四|星期四|礼拜四`),
	text.Lazy(`(?i)\bfri(?:day)?s?\b|周五|星期五|礼拜五`), text.Lazy(`(?i)\bsat(?:urday)?s?\b|周六|星期六|礼拜六`),
	text.Lazy(`(?i)\bsun(?:day)?s?\b|周[日天]|星期[日天]|礼拜[日天]`),
}

// weekdaysOf lists the days of the week s names.
func weekdaysOf(s string) []int {
	var out []int
	for i, r := range weekdayNames {
		if r.MatchString(s) {
			out = append(out, i)
		}
	}
	return out
}

// sameWeekday reports whether a note names a day of the week the question names ("they want
// to meet Thursday 7pm" — "band practice Thursday evenings").
func sameWeekday(q, hay string) bool {
	days := weekdaysOf(q)
	for _, d := range days {
		if weekdayNames[d].MatchString(hay) {
			return true
		}
	}
	return false
}
