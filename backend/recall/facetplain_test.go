package recall

import (
	"slices"
	"testing"
)

// The plain wordings of blind sets 54-56 and 58-59 (2026-12-05: people far from software) are read for
// their facets, advice in plain words is read as advice, and task questions that share their
// words are not read as either.
func TestPlainFacetsOf(t *testing.T) {
	for q, want := range map[string]Facet{
		"What time do I usually get out of bed?": FacetRoutine, "what time do I normally leave the house on school days": FacetRoutine,
		"whens bowls on": FacetRoutine, "我店早上几点开门来着": FacetRoutine, "小夜班几点到几点来着": FacetRoutine, "我一周哪天休息来着": FacetRoutine,
		"How much are we keeping back each month for my daughter's studies?": FacetMoney,
		"about how much does the milk bring me every month":                  FacetMoney, "我一个月到手大概多少": FacetMoney, "店里一个月除开成本能落多少": FacetMoney,
		"我攒钱是打算干嘛": FacetGoal, "我明年想给店里添啥新东西来着": FacetGoal, "我不是想换个活儿嘛，打算干啥来着": FacetGoal,
		"remind me how I said I want you to answer me": FacetManner, "你给我回消息咋样我看着最舒服": FacetManner,
		"以后回我别啰嗦，我之前怎么跟你说的": FacetManner, "你回俺话的时候得注意点啥": FacetManner,
		"Remind me which suburb I'm living in these days.": FacetHome, "俺家地址是啥来着，寄快递要填": FacetHome,
		"when do I turn seventeen": FacetAge, "Declan's asking what to send me for Christmas. What would I like?": FacetPreference,
		"我这胃平时吃东西该忌点啥": FacetHealth, "How would you describe my job for a form?": FacetWork,
		"What rank did I finish up at in the Army?": FacetWork, "我现在具体在哪个科": FacetWork,
		"When did my husband pass away? I need it for a form.": FacetFamily,
		"俺是从哪儿嫁过来的":                                            FacetOrigin, "who's my landlord": FacetContact,
		"what sets off my breathing problems": FacetHealth, "which language test am I preparing for": FacetGoal,
		"我哪天可以不用去公司": FacetRoutine, "我现在租的房子在哪一块": FacetHome,
		"can you give me the number for the guy who fixed my knee": FacetContact,
		"how would you describe what I do for a living":            FacetWork, "whats my actual title at work, updating my CV": FacetWork,
		"what time do I normally get down to the harbour of a morning": FacetRoutine, "wat tablets am i on for the sugar": FacetHealth,
		"what was that big trip I had in mind for me and Bríd": FacetGoal, "what's the long term plan for my career again": FacetGoal,
		"how do I like you to set out your answers": FacetManner, "how should you reply when I'm talking to you from the cab": FacetManner,
		"where'd I grow up back home": FacetOrigin, "what grade am i in again lol": FacetEducation,
		"what am I supposed to do before practice so I don't get all wheezy": FacetHealth,
		"remind me which area our flat is in":                                FacetHome, "who's my doctor and what's the number": FacetContact,
	} {
		if got := facetsOf(q); !slices.Contains(got, want) {
			t.Errorf("facetsOf(%q) = %v, want %s among them", q, got, want)
		}
	}
	for _, q := range []string{
		"what time do I usually deploy the release", "when is the standup on", "how much does the endpoint bring us in latency",
		"what rank does the search model give it", "describe the job queue", "我们店的接口几点开门",
		"fill in the form component", "what would I like the button to say",
	} {
		if got := facetsOf(q); len(got) > 0 {
			t.Errorf("facetsOf(%q) = %v, want none", q, got)
		}
	}
}

func TestPlainAdviceAsked(t *testing.T) {
	for _, q := range []string{
		"A trekking company asked me to walk tourists up to the Maras viewpoint, three hours uphill. What do you think?",
		"The shop has a laptop for 1,400 cedis. Can I buy it this month?",
		"Nuala's bringing a Thai curry full of garlic on Saturday. Will I like it?",
		"The club's putting on an all-you-can-eat dessert night. Worth me going?",
		"Some buyers at the market want to celebrate with me over a beer. What do I tell them?",
		"thinking of going for a run tomorrow morning, it's meant to be -2. anything I should bring?",
		"隔壁叫俺帮着摘一天棉花，一直猫着腰那种，中不中", "站点让跑老小区没电梯的单，一单多给两块，我这腿吃得消吗",
		"想给朵朵买个八千的二手钢琴，钱够不够", "朵朵天天磨叽要养只小猫，整不整", "儿叫俺去苏州住几天，他家在十八楼，咋弄",
		"someone in my group has spare altitude tablets, ok if i take a couple?", "bloke at the club wants $9,000 for his caravan, can I swing it?",
		"the ladies are putting on a pav and sponge arvo, can I go back for seconds?", "老姐妹约我这周六去爬青城山，要得不",
		"看中一个8000的包，这个月买了会不会耽误存钱", "今天麻将输了两百多，这个月还打得不",
		"the bakery has cream slices on offer, will I grab a couple for the tea?", "the clinic wants me in for bloods next week, any tips for me?",
		"team dinner is at Rudy's BBQ, anything I should think about before ordering?", "concert tickets are $65, can I grab them this week?",
	} {
		if !adviceAsked(facetText(q)) {
			t.Errorf("adviceAsked(%q) = false, want true", q)
		}
	}
	for _, q := range []string{
		"the pipeline is bringing a new build, will I like it?", "can I buy more server credits for 40 dollars?",
		"what do you think of this function", "要不要把接口挪去新服务器",
	} {
		if adviceAsked(facetText(q)) {
			t.Errorf("adviceAsked(%q) = true, want false", q)
		}
	}
}

// A question's plain situation names the constraint it meets: offal for "不吃内脏", a high floor
// for a fear of lifts, a boat for seasickness, bending for a bad back.
func TestPlainConstraintKinds(t *testing.T) {
	for _, c := range []struct{ q, note string }{
		{"同事约我去吃烤脑花、卤肥肠，去不去", "在减脂，晚饭不吃主食；不吃内脏。"},
		{"儿叫我去苏州住几天，他家在十八楼，怎么办", "一个人不敢坐电梯，怕卡里头。"},
		{"科室组织坐三天游轮游三峡，我要不要报名", "晕船特别厉害，坐船必吐。"},
		{"隔壁叫我帮着摘一天棉花，一直猫着腰那种，行不行", "腰不好，弯腰时间一长就疼得直不起来。"},
		{"a trek three hours uphill, what do you think?", "Knees ache badly on steep paths."},
		{"胃有点难受，还想来碗冰粉，吃不吃", "胃不舒服的时候不能吃冰的。"},
		{"the class trip includes a treetop rope course, should I sign up?", "Terrified of heights."},
		{"the ladies are putting on a pav and sponge arvo", "Type 2 diabetic; the GP wants him off cakes."},
		{"the lads are heading for a few after the meeting, should I get a round of pints in?", "Off the drink since January 2019."},
		{"my cousin wants to take me out round the bay in his kayak, any reason not to?", "Never learned to swim."},
		{"Bríd fancies a picnic up in the fields in June, good idea for me?", "Bad hay fever from late May, worst in cut grass."},
		{"mate needs help moving a couch on Monday, should I say yes?", "Lower back flares up; nothing over 10kg."},
		{"concert tickets are $240, can I swing it this week?", "House deposit goal: $60k, $31k saved so far."},
	} {
		found := false
		for _, k := range constraintKinds {
			if k.things.MatchString(c.q) && k.constraint.MatchString(c.note) {
				found = true
			}
		}
		if !found {
			t.Errorf("no constraint kind relates %q to %q", c.q, c.note)
		}
	}
}

// A working bee is an event, not an insect: advice about it asks the person's week, and a
// situation at a day and an hour asks it even when it names a thing of a kind.
func TestPlainWeekAsked(t *testing.T) {
	for _, q := range []string{
		"the footy club wants volunteers for a Saturday morning working bee, am I free?",
		"some girls asked me to a pool party on saturday at 2, can i go?",
	} {
		if got := facetsOf(q); !slices.Contains(got, FacetWeek) {
			t.Errorf("facetsOf(%q) = %v, want week among them", q, got)
		}
	}
	if !namesKind("a bee stung me at the picnic") || namesKind("a working bee at the club") {
		t.Error("a bee is a thing of a kind, a working bee is not")
	}
}

// Questions a coding or project agent asks in the plain forms' words (a review of the forms
// wrote them to misread) stay ordinary searches: neither a facet of the person nor advice.
func TestPlainLeavesTaskQuestions(t *testing.T) {
	for _, q := range []string{
		"when's the demo on", "whens the webinar on", "when should I go to production", "when will I get to the hotfix",
		"how much does the referral program bring us in", "how much does each seat pay us", "how much should we set aside for the Datadog bill",
		"这个项目利润多少", "这批消息每秒落多少条", "客户付款扣完手续费到手多少", "这个季度收入大概多少",
		"what did I mean to do with the orphaned rows", "存这些快照是打算做什么", "这个定时任务打算干啥", "我们想换个工作流引擎",
		"the approach I had in mind for retries", "the long-term plan for my side project",
		"what's my actual role on this project", "what's my current position in the review queue",
		"what rank did I give this candidate", "我在哪个组提的工单",
		"评审意见我之前怎么跟你说的",
		"what's the number of failing tests", "give me the number of open PRs", "wat's the number of shards",
		"when do I turn on the dark launch flag", "what triggers my lambda", "what sets off my pager at 3am",
		"what would I want as the default retry count", "写周报要忌什么", "what class am I in at this breakpoint", "我租的那间机房在哪",
		"我每周哪天写周报", "我们店铺的官网什么时候开张",
	} {
		if got := facetsOf(q); len(got) > 0 {
			t.Errorf("facetsOf(%q) = %v, want none", q, got)
		}
	}
	if got := facetsOf("who is my boss on this ticket"); slices.Contains(got, FacetContact) {
		t.Errorf("facetsOf(who is my boss on this ticket) = %v, want no contact", got)
	}
	for _, q := range []string{
		"would it be a problem to ship a 2k line diff", "any tips for preallocating slices", "should I make these fields optional?",
		"is it ok to return -1 on error?", "can I keep the job running until midnight?", "这条规则命中不中，老板让我查",
		"模型堆了12层，要不要让高层审批", "客户让我导出报表，咋弄", "几百个用例跑不完怎么办",
	} {
		if adviceAsked(facetText(q)) {
			t.Errorf("adviceAsked(%q) = true, want false", q)
		}
	}
}
