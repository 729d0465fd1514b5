package recall

import (
	"testing"
)

// A question asks advice when it asks whether (should I, good plan?, 去不去, 能去吗) about a
// situation (an invitation, an offer, an activity), and is not a task about software or work
// items, nor a question of what, when or where.
func TestAdviceAsked(t *testing.T) {
	for q, want := range map[string]bool{
		"friend's invited me to a fresh pasta-making class on Saturday, good plan?":                                       true,
		"朋友约我去三亚考潜水证，去吗":                                                                                                  true,
		"老同学约我周末去爬千山，我这身子能去吗":                                                                                             true,
		"Rana wants to drive to Kenora Friday after work and asked if I'll take the wheel for the second half, thoughts?": true,
		"mate's offering me a bacon butty from the canteen, ok?":                                                          true,
		"hospital booked me for a scan in the tube thing next week, anything I should warn them about?":                   true,
		"等客的时候旁边师傅递根烟过来，接不接":                                                                                              true,
		"keen to upgrade to a ~$60k ute, realistic this year?":                                                            true,
		"有人叫我拿三万块合伙开奶茶店，搞不搞":                                                                                              true,
		"the lads want pints after Saturday's game, anything on tap I can actually have?":                                 true,
		"is the $20 plan realistic for the API quota?":                                                                    false,
		"should I buy the 4k monitor for the build server":                                                                false,
		"should I show a toast when the save fails?":                                                                      false,
		"should I format the external drive?":                                                                             false,
		"should I use a match statement here?":                                                                            false,
		"is 10k rows realistic for sqlite?":                                                                               false,
		"planning to split the monolith, thoughts?":                                                                       false,
		"这个请求要不要重新发送":                                                                                                     false,
		"要不要刷新缓存":                                                                                                         false,
		"这里要不要换行":                                                                                                         false,
		"我想把这个变量换个名字，好不好":                                                                                                 false,
		"should I add a settings panel tonight?":                                                                          false,
		"should I refactor the parser tomorrow?":                                                                          false,
		"should i use tabs or spaces tomorrow":                                                                            false,
		"can I merge this tonight?":                                                                                       false,
		"is it ok to deploy on friday?":                                                                                   false,
		"要不要加个索引":                                                                                                         false,
		"明天要不要上线":                                                                                                         false,
		"should I make this a class tonight?":                                                                             false,
		"should i take the meeting tomorrow":                                                                              false,
		"can I take the day off on Friday":                                                                                false,
		"what time should i ring mamá on sunday":                                                                          false,
		"should I upgrade the dependency this weekend":                                                                    false,
	} {
		if got := adviceAsked(foldDialect(q)); got != want {
			t.Errorf("adviceAsked(%q) = %v, want %v", q, got, want)
		}
	}
}

// A constraint note is credited for the kind of thing the question names: cheese for a dairy
// intolerance, a steakhouse for a vegetarian, bubbly for a drink given up, a golden retriever
// for a fear of dogs; not for another kind.
func TestConstraintOn(t *testing.T) {
	for _, c := range []struct {
		q, note string
		want    bool
	}{
		{"thinking of making knefeh with loads of akkawi cheese, is my stomach gonna be ok", "Lactose intolerant, takes Lactaid before dairy.", true},
		{"Claire wants to treat me to the steakhouse for my birthday. Would I enjoy that?", "Strict vegetarian since 1979.", true},
		{"do I raise a glass of bubbly too?", "Hasn't touched alcohol in 14 years — AA on Tuesdays.", true},
		{"ringers are going to the pub after, is a pint alright?", "Keeps drink to half a cider max because of the blood thinner.", true},
		{"隔壁大姐想让我帮她遛几天她那条大金毛，行不", "怕狗，小时候被咬过一口。", true},
		{"老同学约我周末去爬千山，我这身子能去吗", "右膝半月板损伤，爬山、爬楼多了就肿。", true},
		{"hospital booked me for a scan in the tube thing", "Claustrophobic — panicked in an MRI tube in 2021.", true},
		{"keen to upgrade to a ~$60k ute, realistic this year?", "With Dilani part-time the budget is tight this year.", true},
		{"Achieng wants us to pull an all-nighter before the jury, should I just do it?", "Epilepsy. Triggers: lost sleep, missed doses.", true},
		{"group wants me to present our project to the panel, should I volunteer?", "\"I literally freeze when I have to present.\"", true},
		{"女儿想去看那个爬虫展，里面有蟒蛇，我陪她去合适吗", "特别怕蛇，连图片都不敢看。", true},
		{"friend's having a bonfire in the backyard next weekend, anything I need to watch out for", "Asthmatic: smoke and cold air set it off.", true},
		{"Claire wants to treat me to the steakhouse for my birthday. Would I enjoy that?", "Terrified of wasps.", false},
		{"keen to upgrade to a ~$60k ute, realistic this year?", "Terrified of wasps.", false},
		{"奶奶叫我周末去她家吃饭，去不去", "乳糖不耐受，喝牛奶就拉肚子。", false},
		{"住酒店要不要多带件外套", "不喝酒，一沾就脸红。", false},
		{"my neighbour asked me to dog-sit this weekend, ok?", "Walks the dog every morning before work.", false},
		{"do I raise a glass of bubbly too?", "Strict vegetarian since 1979.", false},
		{"隔壁大姐想让我帮她遛几天她那条大金毛，行不", "痛风，海鲜、啤酒要少碰。", false},
	} {
		if got := constraintOn(foldDialect(c.q), c.note); got != c.want {
			t.Errorf("constraintOn(%q, %q) = %v, want %v", c.q, c.note, got, c.want)
		}
	}
}
