package recall

import (
	"slices"
	"testing"

	"engram/backend/memory"
)

// Studies, tools and fears are asked in the first person; a task question that shares their
// words is not one of them.
func TestMoreFacetsOf(t *testing.T) {
	for q, want := range map[string]Facet{
		"Where did I do my masters?":                                            FacetEducation,
		"what did I study at uni":                                               FacetEducation,
		"which university did I graduate from?":                                 FacetEducation,
		"我是哪个大学毕业的":                                                             FacetEducation,
		"我学的什么专业":                                                               FacetEducation,
		"which text editor do i like using":                                     FacetTools,
		"what's my setup":                                                       FacetTools,
		"what OS do I run on my laptop":                                         FacetTools,
		"我平时用什么编辑器":                                                             FacetTools,
		"is there anything I'm scared of?":                                      FacetFear,
		"what am I afraid of":                                                   FacetFear,
		"我最怕什么":                                                                 FacetFear,
		"who am I seeing?":                                                      FacetFamily,
		"remind me where my gf works":                                           FacetFamily,
		"我男朋友在哪上班":                                                              FacetFamily,
		"我英文名叫啥？":                                                               FacetName,
		"Suggest a restaurant near my place":                                    FacetHome,
		"推荐一家我家附近的甜品店":                                                          FacetHome,
		"anything safe for me to eat there?":                                    FacetPreference,
		"点菜的时候别踩我的雷":                                                            FacetPreference,
		"make me a gym playlist based on my taste":                              FacetPreference,
		"What certification am I preparing for right now?":                      FacetGoal,
		"what are my goals for this year":                                       FacetGoal,
		"我在攒钱买什么":                                                               FacetGoal,
		"Am I working this Saturday night?":                                     FacetRoutine,
		"what's my rota":                                                        FacetRoutine,
		"我周六要上班吗":                                                               FacetRoutine,
		"明天周三，早上得几点起？":                                                          FacetRoutine,
		"帮我规划下寒假从成都回家的路线":                                                       FacetOrigin,
		"点外卖的时候备注要写点啥？":                                                         FacetPreference,
		"晚上能跟兄弟们喝两盅不？":                                                          FacetPreference,
		"the sink's leaking again, who do I call?":                              FacetContact,
		"我儿子手机号多少？想给他打一个":                                                       FacetContact,
		"Suggest a few songs for a quiet evening in.":                           FacetPreference,
		"Got the evening to myself, what should I put on the box?":              FacetPreference,
		"is there owt on the menu I should steer clear of?":                     FacetPreference,
		"桌上哪些菜我得躲着？":                                                            FacetPreference,
		"Someone at the club asked what sign I am":                              FacetAge,
		"Doctor's offering me antibiotics. Anything I ought to tell her first?": FacetHealth,
		"The form at the donation centre wants to know my type.":                FacetHealth,
		"What time's my alarm in the warmer months?":                            FacetRoutine,
		"Which city am I renting in right now?":                                 FacetHome,
		"我现在在哪儿租的房子来着":                                                          FacetHome,
		"which island do I actually come from?":                                 FacetOrigin,
		"Which seaside town did I spend my girlhood in?":                        FacetOrigin,
		"我打小是在哪疙瘩长起来的？":                                                         FacetOrigin,
		"I'm in the drive-thru, what's my regular?":                             FacetPreference,
		"我身份证上那名字咋写的？":                                                          FacetName,
		"我在哪个单位上的班？":                                                            FacetWork,
		"小孙女过生日是哪天？":                                                            FacetFamily,
		"大夫问我天天吃的啥药":                                                            FacetHealth,
		"配眼镜要报度数 我多少度":                                                          FacetHealth,
	} {
		if got := facetsOf(q); !slices.Contains(got, want) {
			t.Errorf("facetsOf(%q) = %v, want %s among them", q, got, want)
		}
	}
	for _, q := range []string{"which editor does the plugin target", "what did the study find",
		"where did the students graduate from", "is the scheduler afraid of long jobs", "我儿子读几年级了",
		"which OS does the CI run", "what is the fear and greed index", "who am I seeing today at 3pm? check the calendar",
		"am I working on the parser refactor", "what's the plan for the migration", "明天几点起飞", "帮我规划下寒假从成都回家的路线",
		"what is the cat's name", "what's the support email", "who should call the retry handler"} {
		for _, f := range facetsOf(q) {
			if f == FacetEducation || f == FacetTools || f == FacetFear || f == FacetName || f == FacetGoal || f == FacetRoutine || f == FacetContact {
				t.Errorf("facetsOf(%q) = %v, want none of education, tools, fear, name, goal, routine, contact", q, facetsOf(q))
			}
		}
	}
	if got := facetsOf("who am I seeing today at 3pm? check the calendar"); len(got) != 0 {
		t.Errorf("a question about the calendar is read as %v, want none", got)
	}
}

// A note states studies, tools or a fear in the forms people and extraction write; a note that
// only mentions the words in passing does not, and a pet is one the person has.
func TestMoreFacetStatements(t *testing.T) {
	user := func(title, body string) *memory.Memory {
		return &memory.Memory{Type: memory.TypeUser, Title: title, Body: body, Version: title + body}
	}
	for _, c := range []struct {
		m     *memory.Memory
		facet Facet
		want  bool
	}{
		{user("studies", "MSc Computer Science at TU Munich (2019-2021)."), FacetEducation, true},
		{user("x", "The user graduated from McGill in 2015 with a degree in nursing."), FacetEducation, true},
		{user("背景", "浙大本科，硕士在复旦读的。"), FacetEducation, true},
		{user("roots", "Born and raised in Enugu, Nigeria. Came to Germany for his master's in 2019."), FacetEducation, false},
		{user("setup", "Uses Neovim for basically everything; Arch on the personal laptop."), FacetTools, true},
		{user("x", "Daily driver is a ThinkPad X1 running Fedora."), FacetTools, true},
		{user("x", "平时用 VS Code 写代码，系统是 macOS。"), FacetTools, true},
		{user("food", "Loves jollof and suya."), FacetTools, false},
		{user("note", "Terrified of deep open water - hates ferries."), FacetFear, true},
		{user("备注", "怕狗，小时候被咬过。"), FacetFear, true},
		{user("food", "Loves jollof and suya."), FacetFear, false},
		{user("the hound", "Has a three-legged rescue greyhound called Pierogi."), FacetFamily, true},
		{user("misc", "Drives a silver Skoda, permanently covered in dog hair."), FacetFamily, false},
		{user("馒头", "养了一只橘猫叫馒头，很胖。"), FacetFamily, true},
		{user("备注", "怕狗，小时候被咬过。"), FacetFamily, false},
		{user("pets", "Dog Skipper, chocolate lab, 6."), FacetFamily, true},
		{user("Lena", "Partner: Lena, she's a nurse at the Charité."), FacetFamily, true},
		{user("numbers", "Mrs. Costa (landlady) - 508-555-0197, rent due the 1st"), FacetContact, true},
		{user("电话", "儿子小军：138 0013 8000"), FacetContact, true},
		{user("food", "Loves jollof and suya."), FacetContact, false},
		{user("bg", "born & raised Whitby. dad was on the trawlers."), FacetOrigin, true},
		{user("x", "Born Ponta Delgada, São Miguel (Azores)."), FacetOrigin, true},
		{user("daily", "Summer: up 5.30, out to the apiaries by 7."), FacetRoutine, true},
		{user("x", "Allergic to penicillin - came out in hives."), FacetHealth, true},
		{user("Goals", "Studying for the CCRN exam this fall."), FacetGoal, true},
		{user("身体", "用户有高血压，每天早上吃一片氨氯地平。医生交代要少吃盐、别喝酒。"), FacetPreference, true},
	} {
		if got := answersFacet([]Facet{c.facet}, c.m); got != c.want {
			t.Errorf("%s %q: answers %v, want %v", c.facet, c.m.Body, got, c.want)
		}
	}

	editor := user("setup", "Uses Neovim for basically everything; Arch on the personal laptop.")
	phone := user("phone", "Has an iPhone 13 mini, refuses to go bigger.")
	for _, c := range []struct {
		q    string
		m    *memory.Memory
		want bool
	}{
		{"which text editor do i like using", editor, true},
		{"which text editor do i like using", phone, false},
		{"what phone do I have", phone, true},
		{"what phone do I have", editor, false},
		{"what's my setup", phone, true},
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

// Every facet has its own bit in a reading's uint32 sets.
func TestFacetBitsFit(t *testing.T) {
	seen := uint32(0)
	for _, f := range allFacets {
		b := facetBit(f)
		if b == 0 || seen&b != 0 {
			t.Fatalf("facet %s has bit %#x (taken %#x): more facets than a personRead's uint32 holds", f, b, seen)
		}
		seen |= b
	}
	for _, r := range facetRules {
		if facetBit(r.facet) == 0 {
			t.Errorf("facet %s has a rule but no bit (allFacets)", r.facet)
		}
	}
}
