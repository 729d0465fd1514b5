package recall

import (
	"strings"

	"engram/backend/text"
)

// A person asks whether they may have something before they eat or drink it: "can I have a
// latte this late", "am I ok to get the chicken tacos?", "is an omelette fine for me?",
// "虾饺我能不能吃", "我能来杯美式不". Those are questions about their diet — an allergy, an
// intolerance, a drink they gave up — so they ask the preference facet, as "what can't I eat"
// does. The permission forms alone are too broad ("can I have the logs", "can I get a
// review"), so the question must also name something to eat or drink: a meal word or a food
// of the list below, a general one written for this purpose, not from any question set.

var (
	// reMayIHave asks for permission to have something, in English and Chinese.
	reMayIHave = text.Lazy(`(?i)\b(?:can|could|may|should|shall) i (?:still |safely |even |really )?(?:have|get|order|try|grab|eat|drink|go for|risk)\b|\bam i (?:ok|okay|fine|alright|all right|allowed|able|safe|good) (?:to|with) (?:have|get|order|eat|drink|try)\b|\b(?:is|are|would) (?:an? |the |some |this |that |these |those |my )?(?:[\w-]+ ){1,3}(?:be )?(?:ok|okay|fine|safe|alright|all right|a good idea|a bad idea|good|bad) for me\b|\bwould (?:an? |the |some )?(?:[\w-]+ ){1,3}be (?:ok|okay|fine|safe|alright|a good idea|a bad idea)\b|\b(?:is it|would it be) (?:ok|okay|fine|safe|alright|a good idea) (?:for me )?to (?:have|get|eat|drink|order)\b|我\p{Han}{0,3}(?:能|可以|能不能|可不可以|还能|还可以)\p{Han}{0,2}(?:吃|喝|来(?:杯|碗|份|瓶|罐|口|块|串|盘|个|点))|(?:能|可以)(?:吃|喝)(?:吗|不|么|嘛)|(?:吃|喝)(?:得|不得)(?:吗|不|么)?(?:$|[？?])|(?:给我|我)(?:来|点)(?:一)?(?:份|杯|碗|瓶|盘|串|个|罐)\p{Han}{1,8}(?:行不行|可以吗|可不可以|行吗|能吗|好吗|成吗|行不)`)

	// reFoodWords names everyday foods and drinks, English and Chinese.
	reFoodWords = text.Lazy(`(?i)\b(?:` +
		// drinks
		`coffee|latte|lattes|cappuccino|espresso|americano|flat white|mocha|macchiato|decaf|tea|chai|matcha|juice|smoothie|milkshake|shake|soda|coke|cola|lemonade|beer|beers|pint|pints|lager|ale|stout|cider|wine|prosecco|champagne|cocktail|cocktails|whisky|whiskey|vodka|rum|tequila|sake|soju|baijiu|energy drink|red bull|milk|oat milk|hot chocolate|kombucha|` +
		// dishes and foods
		`pizza|pasta|spaghetti|lasagne|lasagna|risotto|salad|sandwich|sandwiches|burger|burgers|hot dog|fries|chips|crisps|soup|ramen|pho|noodles|pad thai|curry|curries|biryani|dal|naan|tacos?|burrito|quesadilla|nachos|sushi|sashimi|dumplings?|dim sum|bao|steak|chicken|beef|pork|lamb|bacon|ham|sausages?|turkey|duck|fish|salmon|tuna|cod|shrimp|prawns?|crab|lobster|oysters?|mussels|clams|seafood|shellfish|eggs?|omelette|omelet|cheese|yoghurt|yogurt|ice cream|butter|cream|bread|toast|bagel|croissant|pastry|pastries|cake|cakes|cookies?|biscuits?|brownies?|chocolate|sweets|candy|dessert|pie|donuts?|doughnuts?|pancakes?|waffles?|cereal|porridge|oatmeal|granola|rice|fried rice|tofu|beans|lentils|chickpeas|hummus|falafel|kebab|gyro|shawarma|peanuts?|nuts|almonds|cashews|walnuts|peanut butter|avocado|mango|strawberries|bananas?|apples?|oranges?|grapes|kiwi|pineapple|tomatoes|mushrooms|onions?|garlic|chilli|chili|spicy food|olives|pickles|kimchi|pretzels?|popcorn|fast food|takeaway|takeout|brunch|barbecue|bbq|roast|stew|casserole|paella|tapas|gelato|tiramisu|cheesecake|fish and chips` +
		`)\b|咖啡|美式|拿铁|奶茶|茶|果汁|啤酒|白酒|红酒|酒|可乐|牛奶|豆浆|饮料|面|饭|粥|饺子|包子|馒头|虾饺|烧卖|点心|火锅|烧烤|串|海鲜|虾|蟹|鱼|肉|鸡|鸭|鹅|牛|羊|猪|蛋|豆腐|辣|糖|甜品|蛋糕|冰淇淋|水果|花生|坚果|芒果|榴莲|菌|葱|蒜|香菜|外卖|夜宵|宵夜`)
)

// reOrderOK asks whether a dish may be ordered, or a food or drink had, in Chinese forms that
// say no 我 ("火锅能点红锅吗", "今晚想喝杯夏枯草，得不得" — the Cantonese "得唔得" folded): the
// verb of eating, drinking or ordering is in the form itself, with what is had after it.
var reOrderOK = text.Lazy(`(?i)(?:能|可以|能不能|可不可以)(?:先|再|还)?(?:点|要|叫|整|来)\p{Han}{0,6}(?:吗|不|么|嘛)|(?:(?:想|要)(?:吃|喝|来)(?:杯|碗|份|瓶|罐|口|块|串|盘|个|点)?|来(?:杯|碗|份|瓶|罐|口|块|串|盘|个|点))\p{Han}{1,8}[，,、\s]*(?:得不得|行不行|可以吗|可不可以|行吗|能吗|好吗|成吗|行不|可以不|得吗)`)

// reIsItOK asks whether something is all right, the thing named before it and nothing after
// ("ringers are going to the pub after, is a pint alright?"): with a food or drink named,
// whether the person may have it.
var reIsItOK = text.Lazy(`(?i)\b(?:is|would) (?:an? |one |another |the |some |this |that )?(?:[\w-]+ ){0,2}(?:be )?(?:ok|okay|fine|alright|all right|a good idea|a bad idea)\s*[?？.!]*\z`)

// dietPermission reports a question asking whether the person may have a food or a drink.
func dietPermission(q string) bool {
	if taskWorded(q) {
		return false
	}
	return (reMayIHave.MatchString(q) && (reMealWords.MatchString(q) || reFoodWords.MatchString(q) || reDrinkWords.MatchString(q))) ||
		(reOrderOK.MatchString(q) && (reMealWords.MatchString(q) || reFoodWords.MatchString(q) || strings.ContainsAny(q, "吃喝啤"))) ||
		(reIsItOK.MatchString(q) && reFoodWords.MatchString(q))
}

// dietParts is the part of the preference facet a may-I-have question names (see subGroups):
// the person's diet — what they eat and drink, an allergy, an intolerance, a drink given up —
// answers "can I have a latte?", their football team or their music does not.
var dietParts = []struct {
	facet            Facet
	question, answer *text.Regexp
}{
	{FacetPreference, reMayIHave, text.Lazy(reFoodWords.String() + `|(?i)\b(?:eats?|eating|drinks?|drinking|diet|dietary|vegan|vegetarian|pescatarian|gluten|lactose|dairy|allerg\w*|intoleran\w*|coeliac|celiac|teetotal|sober|alcohol|caffeine|sugar|salt|spicy|halal|kosher|food)\b|吃|喝|素|忌口|过敏|不耐受|戒`)},
}
