package recall

import (
	"slices"
	"testing"

	"engram/backend/memory"
)

// foldDialect writes Traditional characters and Cantonese words as the Mandarin the facet rules
// are written in, and leaves Mandarin words that share a Cantonese character alone.
func TestFoldDialect(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"where do I live", "where do I live"},
		{"我住在哪里", "我住在哪里"},
		{"我屋企喺邊座幾樓?", "我家在哪座几楼?"},
		{"啲同行叫我咩嚟?", "啲同行叫我什么来?"},
		{"我幾點瞓覺?", "我几点睡觉?"},
		{"幫我叫杯我成日飲嗰隻", "帮我叫杯我常喝那只"},
		{"我每日食緊咩藥?", "我每日在吃什么药?"},
		{"凍檸茶少甜係必須", "冻柠茶少甜是必须"},
		// Mandarin words with 饮, 食 and 边 keep them.
		{"饮料只喝白水，零食不吃，住在河边", "饮料只喝白水，零食不吃，住在河边"},
		{"机械工程系", "机械工程系"},
	} {
		if got := foldDialect(c.in); got != c.want {
			t.Errorf("foldDialect(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The facets of a person's life are asked in the first person, in English, Mandarin and
// Cantonese; a task question with the same words is not one.
func TestLifeFacetsOf(t *testing.T) {
	for q, want := range map[string]Facet{
		"what time do I usually get up?":                             FacetRoutine,
		"when do I normally go to bed":                               FacetRoutine,
		"我一般几点睡觉?":                                                   FacetRoutine,
		"我平時幾點上床?":                                                   FacetRoutine,
		"how old's my grandson now?":                                 FacetFamily,
		"who picks my daughter up on Fridays?":                       FacetFamily,
		"我老婆在哪上班":                                                    FacetFamily,
		"what's my blood type":                                       FacetHealth,
		"which meds do I take in the morning?":                       FacetHealth,
		"表上血型那一栏我该填什么?":                                              FacetHealth,
		"我每日食緊咩藥?":                                                   FacetHealth,
		"what's my star sign?":                                       FacetAge,
		"我是什么星座的?":                                                   FacetAge,
		"我咩星座?":                                                      FacetAge,
		"chippy tea tonight - anything I've got to be careful with?": FacetPreference,
		"晚上同事约吃小龙虾,我得注意点啥?":                                          FacetPreference,
		"put on some tunes I'd like":                                 FacetPreference,
		"放首我喜欢的歌":                                                    FacetPreference,
		"where'd I spend my childhood?":                              FacetOrigin,
		"我喺邊區長大㗎?":                                                   FacetOrigin,
		"which village am I living in now?":                          FacetHome,
		"who's my boss?":                                             FacetWork,
	} {
		if got := facetsOf(q); !slices.Contains(got, want) {
			t.Errorf("facetsOf(%q) = %v, want %s among them", q, got, want)
		}
	}
	for _, q := range []string{"how long should the worker sleep between retries", "what time does the cron job wake up",
		"when does the build go to sleep", "which tablets does the app support", "what should I watch out for in this migration",
		"anything I should be careful with before merging?", "我需要注意什么问题", "the dog-food build of the app",
		"play the test suite again", "what is the blood pressure field in the schema", "这个函数什么时候睡眠"} {
		if got := facetsOf(q); len(got) != 0 {
			t.Errorf("facetsOf(%q) = %v, want none", q, got)
		}
	}
}

// A note states a life facet in the forms people write; a family or health question is
// answered only by a note that names the part it asks about.
func TestLifeFacetStatements(t *testing.T) {
	user := func(title, body string) *memory.Memory {
		return &memory.Memory{Type: memory.TypeUser, Title: title, Body: body, Version: title + body}
	}
	for _, c := range []struct {
		m     *memory.Memory
		facet Facet
		want  bool
	}{
		{user("day", "In season: up 3:15, on the water by 4:30, asleep by 8:30pm."), FacetRoutine, true},
		{user("作息", "6:40起 7:20送娃 23:00前睡"), FacetRoutine, true},
		{user("habits", "返工日子:朝早6點起身,晚上十點半瞓。"), FacetRoutine, true},
		{user("food", "Black coffee by the gallon."), FacetRoutine, false},
		{user("fam", "Single mum to Tyler (9). Cat: Biscuit, ginger, fat."), FacetFamily, true},
		{user("家里人", "老公刘建国,搞装修的。家里一只英短,叫汤圆。"), FacetFamily, true},
		{user("health", "Type 2 diabetes since 2018, metformin 2x/day. Blood type O neg."), FacetHealth, true},
		{user("身體", "高血壓,每朝一粒 Amlodipine 5mg。O型血。"), FacetHealth, true},
		{user("工作", "济康大药房执业药师兼店长。"), FacetHealth, false},
		{user("dates", "22 June 1991 - Cancer ♋"), FacetAge, true},
		{user("日子", "生日:1973年11月8號。屬牛,天蠍座。"), FacetAge, true},
	} {
		if got := answersFacet([]Facet{c.facet}, c.m); got != c.want {
			t.Errorf("%s %q: answers %v, want %v", c.facet, c.m.Body, got, c.want)
		}
	}

	fam := user("family", "Wife Joanne, married 1990. Daughter Kayla (31) out in Calgary. Dog Skipper, chocolate Chessie, 6.")
	wife := user("home", "目前和爱人住在南京鼓楼区。")
	dog := user("狗", "养了一条柯基叫馒头，喜欢吃鸡胸肉。")
	blood := user("health stuff", "Asthma - blue inhaler always in handbag. Blood group A+.")
	pills := user("meds", "Takes 20 mg atorvastatin at night.")
	for _, c := range []struct {
		q    string
		m    *memory.Memory
		want bool
	}{
		{"what's my dog called", fam, true},
		{"what's my dog called", wife, false},
		{"我的狗叫什么", dog, true},
		{"我的狗叫什么", wife, false},
		{"where does my wife work", fam, true},
		{"tell me about my family", wife, true},
		{"what's my blood type", blood, true},
		{"what's my blood type", pills, false},
		{"which meds do I take", pills, true},
	} {
		asked := facetsOf(c.q)
		r := newPersonRead(c.m)
		r.check(asked)
		fact, pref := r.answers(asked, subAsked(foldDialect(c.q)))
		if got := fact || pref; got != c.want {
			t.Errorf("%q on %q: answers %v, want %v", c.q, c.m.Body, got, c.want)
		}
	}
}

// A meal to plan, cook, order or book asks for the person's tastes and restrictions in food,
// though it names neither; a meal that is the subject of software, or another task, does not.
func TestMealTask(t *testing.T) {
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"plan my dinners this week", true},
		{"what should I cook tonight", true},
		{"what should we have for dinner", true},
		{"order me a takeaway", true},
		{"what's for dinner", true},
		{"make me a meal plan for the week", true},
		{"book a table somewhere for lunch on Saturday", true},
		{"pick a restaurant for my birthday", true},
		{"put together a grocery list", true},
		{"帮我规划这周的晚饭", true},
		{"今晚吃什么", true},
		{"帮我点个外卖", true},
		{"明天中午做什么菜", true},
		{"订哪家餐厅好", true},
		{"帮我列个这周的买菜清单", true},
		// Not meals, or meals in code.
		{"plan the v2 release this week", false},
		{"order the tasks by priority", false},
		{"make a playlist for the gym", false},
		{"what should I wear tonight", false},
		{"fix the menu bar on mobile", false},
		{"fix the dinner booking page", false},
		{"add a test for the lunch order form", false},
		{"修复外卖页面的 bug", false},
		{"给点餐系统加个按钮", false},
		{"我住在哪里", false},
	} {
		if got := mealTask(c.q); got != c.want {
			t.Errorf("mealTask(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// Habits are tastes, not meals to plan.
func TestMealTaskHabits(t *testing.T) {
	for _, q := range []string{"what do I cook when I need cheering up?", "我早饭一般吃啥", "Where do I gotta be before lunch on Sundays?",
		"what do I usually order for lunch", "我平时晚饭吃什么"} {
		if mealTask(q) {
			t.Errorf("mealTask(%q) = true, want false", q)
		}
	}
}
