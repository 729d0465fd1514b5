package recall

import (
	"slices"
	"strings"
	"sync"

	"engram/backend/memory"
	"engram/backend/text"
)

// A question about what the person drinks or eats names a kind ("what coffee do I drink",
// "can I eat prawns", "我能吃虾吗") and the note that answers it names a thing of that kind
// ("I drink flat whites", "allergic to shellfish", "我对海鲜过敏"): they share no word, so the
// note ranked with every other preference, below a reference note that said "coffee". These
// are kinds of food and drink in both languages, each with the words for the kind and for the
// things in it. When a preference question names a kind, a user memory that names any word of
// that kind answers it and leans ahead (facetQuery.leans), whichever word either used. A broad
// kind (any drink) counts only when the question names no narrower one: "what coffee do I
// drink" is about coffee, not the tea note. For whether the person may have something, a note
// that holds back only other kinds is no answer (otherKindOnly). A thing of two kinds is in
// both (a latte is coffee and milk).
type vocabKind struct {
	name  string
	broad bool
	words []string
}

var vocabKinds = []vocabKind{
	{name: "coffee", words: kindWords(`caffeine coffee coffees espresso espressos latte lattes flat_white flat_whites cappuccino cappuccinos americano americanos cortado cortados macchiato mocha cold_brew filter_coffee pour-over decaf oat_milk oat_latte barista 咖啡 拿铁 美式 卡布奇诺 摩卡 澳白 馥芮白 浓缩 冷萃 手冲 挂耳`)},
	{name: "tea", words: kindWords(`caffeine tea teas green_tea black_tea oolong matcha chai earl_grey rooibos herbal_tea jasmine_tea builder's_tea 茶 龙井 普洱 乌龙 绿茶 红茶 花茶 铁观音 碧螺春 抹茶 白茶 奶茶 茶叶`)},
	{name: "alcohol", words: kindWords(`alcohol alcoholic booze pint pints beer beers ale lager stout ipa cider wine wines whisky whiskey gin vodka rum tequila sake cocktail cocktails prosecco champagne teetotal sober 酒 啤酒 红酒 白酒 葡萄酒 黄酒 威士忌 鸡尾酒 清酒 喝酒 戒酒`)},
	{name: "soft", words: kindWords(`juice juices smoothie smoothies soda sodas cola coke lemonade kombucha sparkling_water fizzy_drink soft_drink 果汁 可乐 汽水 气泡水 饮料`)},
	{name: "milk", words: kindWords(`latte lattes flat_white flat_whites cappuccino cappuccinos cortado macchiato milkshake 拿铁 澳白 卡布奇诺 milk dairy lactose oat_milk soy_milk almond_milk cream cheese yogurt yoghurt butter ice_cream 牛奶 奶 乳糖 乳制品 奶酪 芝士 酸奶 黄油 奶油 冰淇淋`)},
	{name: "drink", broad: true, words: kindWords(`drink drinks beverage beverages 饮料 饮品 喝的`)},
	{name: "seafood", words: kindWords(`seafood shellfish shrimp shrimps prawn prawns crab crabs lobster lobsters crayfish crawfish oyster oysters mussel mussels clam clams scallop scallops squid calamari octopus 海鲜 海产 虾 蟹 螃蟹 龙虾 小龙虾 生蚝 牡蛎 蛤蜊 扇贝 鱿鱼 章鱼 贝类 虾仁`)},
	{name: "fish", words: kindWords(`fish salmon tuna cod haddock sardine sardines anchovy anchovies mackerel trout sushi sashimi fish_sauce vegetarian vegan pescatarian 鱼 三文鱼 金枪鱼 鳕鱼 鱼肉 刺身 寿司 素食 吃素`)},
	{name: "nuts", words: kindWords(`nut nuts peanut peanuts peanut_butter groundnut almond almonds cashew cashews walnut walnuts hazelnut hazelnuts pistachio pistachios pecan pecans macadamia satay praline marzipan nutella pesto tree_nuts 花生 坚果 核桃 杏仁 腰果 榛子 开心果 花生酱 碧根果`)},
	{name: "gluten", words: kindWords(`gluten wheat flour bread pasta barley rye coeliac celiac 麸质 小麦 面粉 面包 面食`)},
	{name: "meat", words: kindWords(`meat meats beef pork chicken lamb mutton bacon ham sausage sausages steak turkey duck veal venison halal kosher vegetarian vegan 肉 牛肉 猪肉 鸡肉 羊肉 鸭肉 火腿 培根 香肠 牛排 荤 素食 吃素 清真`)},
	{name: "egg", words: kindWords(`egg eggs omelette omelet 鸡蛋 蛋 蛋类`)},
	{name: "spicy", words: kindWords(`spicy spice chilli chili chillies chilies jalapeño jalapeno sriracha hot_sauce sichuan szechuan 辣 辣椒 麻辣 香辣 川菜 辣味`)},
	{name: "soy", words: kindWords(`soy soya tofu edamame soy_sauce 大豆 豆腐 黄豆 豆制品`)},
	{name: "herb", words: kindWords(`herb herbs cilantro coriander parsley basil mint dill 香菜 芫荽 香草 薄荷`)},
	{name: "sweet", words: kindWords(`sugar sugary sweet sweets dessert desserts cake cakes chocolate candy 糖 甜 甜食 甜点 蛋糕 巧克力`)},
}

// kindWords splits a word list; "_" joins the words of a phrase.
func kindWords(s string) []string {
	out := strings.Fields(s)
	for i, w := range out {
		out[i] = strings.ReplaceAll(w, "_", " ")
	}
	return out
}

// vocabKey is how a kind's word is looked for: a stemmed English word, a lower-case English
// phrase, or Chinese as written.
type vocabKey struct {
	word   string
	phrase bool
	cjk    bool
}

var vocabKeys = sync.OnceValue(func() [][]vocabKey {
	out := make([][]vocabKey, len(vocabKinds))
	for i, k := range vocabKinds {
		for _, w := range k.words {
			switch {
			case text.HasCJK(w):
				out[i] = append(out[i], vocabKey{word: w, cjk: true})
			case strings.ContainsAny(w, " '-"):
				out[i] = append(out[i], vocabKey{word: strings.ToLower(w), phrase: true})
			default:
				out[i] = append(out[i], vocabKey{word: text.Stem(strings.ToLower(w))})
			}
		}
	}
	return out
})

// vocabText is a text as the kinds are looked for in it: its English stems and its lower case.
type vocabText struct {
	lower string
	stems map[string]bool
}

func newVocabText(s string) vocabText {
	_, stems := text.Words(s)
	have := make(map[string]bool, len(stems))
	for _, st := range stems {
		have[st] = true
	}
	return vocabText{lower: strings.ToLower(s), stems: have}
}

// names reports whether the text holds a word of kind i.
func (t vocabText) names(i int) bool {
	for _, k := range vocabKeys()[i] {
		switch {
		case k.cjk || k.phrase:
			if strings.Contains(t.lower, k.word) {
				return true
			}
		case t.stems[k.word]:
			return true
		}
	}
	return false
}

// kindsNamed lists the kinds a question names (see vocabKinds): the narrow ones, or the broad
// ones when it names no narrow one.
func kindsNamed(q string) []int {
	t := newVocabText(q)
	var narrow, broad []int
	for i, k := range vocabKinds {
		if !t.names(i) {
			continue
		}
		if k.broad {
			broad = append(broad, i)
		} else {
			narrow = append(narrow, i)
		}
	}
	if len(narrow) > 0 {
		return narrow
	}
	if len(broad) > 0 {
		// Any drink: the broad kind's words and those of every drink.
		for i, k := range vocabKinds {
			if !k.broad && drinkKinds[k.name] {
				broad = append(broad, i)
			}
		}
	}
	return broad
}

// drinkKinds are the kinds a question about any drink covers.
var drinkKinds = map[string]bool{"coffee": true, "tea": true, "alcohol": true, "soft": true, "milk": true}

// namesFoodKind reports whether text names one of the kinds (vocabKinds).
func namesFoodKind(kinds []int, s string) bool {
	if len(kinds) == 0 {
		return false
	}
	t := newVocabText(s)
	for _, i := range kinds {
		if t.names(i) {
			return true
		}
	}
	return false
}

// holdsKindAsked reports whether one of the user memories holds back a kind the question
// names ("allergic to shellfish" for "can I eat prawns"). Only then is a note that holds back
// another kind no answer (otherKindOnly): "chippy tea tonight, anything to be careful with?"
// names tea (an evening meal there) and is answered by the coeliac note all the same.
func holdsKindAsked(kinds []int, ms []*memory.Memory) bool {
	for _, m := range ms {
		if m != nil && m.Type == memory.TypeUser && (avoidAsk{}).answersText(aboutThePerson(m)) && namesFoodKind(kinds, m.Title+"\n"+m.Body) {
			return true
		}
	}
	return false
}

// otherKindOnly reports a note that names kinds of food or drink, none of them one the
// question names (kinds): what it holds back is something else.
func otherKindOnly(kinds []int, s string) bool {
	if len(kinds) == 0 {
		return false
	}
	t := newVocabText(s)
	other := false
	for i, k := range vocabKinds {
		if k.broad || !t.names(i) {
			continue
		}
		if slices.Contains(kinds, i) {
			return false
		}
		other = true
	}
	return other
}

// orderRules are statements of what the person has, orders or gets as a rule, which the
// preference forms did not read ("My usual order is a cortado", "go-to drink: oat latte",
// "我每天早上一杯美式"): the note was never among a preference question's answers.
var orderRules = []facetRule{
	{FacetPreference, nil,
		facetRe(`\bmy (?:usual|regular|go-to|standard|daily|morning|evening|default) (?:order|drink|coffee|tea|brew|cup|pint|tipple|snack|breakfast|lunch|dinner|meal|takeaway|takeout)\b|\b(?:usual|regular|go-to|standard) (?:order|drink)\b|\bi (?:usually |always |normally |typically )?(?:order|get|grab|have) (?:a|an|my|two|one) (?:[\w-]+ ){0,3}(?:every|each|most) (?:morning|day|evening|night|week)\b|`+sentenceStart+`(?:usually |always |normally )?orders (?:a|an|the) `,
			`(?:每天|平时|一般|通常|早上|上午|下午|晚上|每次|天天)\p{Han}{0,4}(?:一|两|1|2)\s*(?:杯|碗|份|瓶|罐|壶)|(?:常点|必点|一般点|总点|老样子)`)},
}
