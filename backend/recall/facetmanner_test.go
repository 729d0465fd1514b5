package recall

import (
	"slices"
	"testing"

	"engram/backend/memory"
)

func TestMannerFacetOf(t *testing.T) {
	for q, want := range map[string]bool{
		"how should you talk to me?":                      true,
		"What did I tell you about how to talk to me":     true,
		"how do I like my answers":                        true,
		"what did I tell you not to call me?":             true,
		"what tone should you use":                        true,
		"你跟我说事儿，我以前是咋交代你的？":                               true,
		"我是不是跟你说过别那样称呼我":                                  true,
		"你该怎么跟我说话":                                        true,
		"how should I talk to my landlord about the rent": false,
		"what's my name":                                  false,
		"我叫什么名字":                                          false,
		"how do I reply to this e-mail from Tom":          false,
	} {
		if got := slices.Contains(facetsOf(q), FacetManner); got != want {
			t.Errorf("%q asks manner: %v, want %v (facets %v)", q, got, want, facetsOf(q))
		}
	}
}

// TestContactOwner: the family member named in a contact question is whose number is asked.
func TestContactOwner(t *testing.T) {
	for _, q := range []string{"我儿子手机号多少？想给他打一个", "what's my son's number", "my mum's phone number"} {
		got := facetsOf(q)
		if !slices.Contains(got, FacetContact) || slices.Contains(got, FacetFamily) {
			t.Errorf("facetsOf(%q) = %v, want contact without family", q, got)
		}
	}
	if got := facetsOf("how old is my son"); !slices.Contains(got, FacetFamily) {
		t.Errorf("facetsOf(how old is my son) = %v, want family", got)
	}
}

func TestFacetKinds(t *testing.T) {
	mem := func(typ memory.Type, title, body string) *memory.Memory {
		return &memory.Memory{Type: typ, Title: title, Body: body, Version: title + body}
	}
	for _, c := range []struct {
		m     *memory.Memory
		facet Facet
		want  bool
	}{
		// How to talk to the person is kept as feedback, written about them or to the agent.
		{mem(memory.TypeFeedback, "跟老赵说话", "说话简单点、慢点，一回别说太多。别整英文字母，也别用网上那些新词儿，他看不懂。"), FacetManner, true},
		{mem(memory.TypeFeedback, "别太正经", "跟我说话轻松点，可以玩梗；别叫我“亲”（像客服）；回复短一点"), FacetManner, true},
		{mem(memory.TypeFeedback, "Replies", "Keep answers short. No emoji, and don't call me 'buddy'."), FacetManner, true},
		{mem(memory.TypeUser, "关于我", "本名邓可欣，朋友都叫我邓邓 or 可可，店里客人喊我Kiki老师"), FacetManner, false},
		{mem(memory.TypeUser, "about me", "Margaret Anne Thwaite. Goes by Maggie."), FacetManner, false},
		// A feedback note answers nothing but manner; a coding rule is not about talking.
		{mem(memory.TypeFeedback, "tests", "Never mock the database in integration tests."), FacetManner, false},
		{mem(memory.TypeFeedback, "Replies", "Keep answers short. No emoji."), FacetPreference, false},
		// Contacts are kept as references.
		{mem(memory.TypeReference, "numbers", "Pete Medeiros (boss) - 508-555-0142\nMrs. Costa (landlady) - 508-555-0197"), FacetContact, true},
		{mem(memory.TypeReference, "电话本", "儿子建国：13904582736\n林场调度室：0458-3621120"), FacetContact, true},
		{mem(memory.TypeReference, "numbers", "Pete Medeiros (boss) - 508-555-0142"), FacetHome, false},
		{mem(memory.TypeProject, "numbers", "Pete Medeiros (boss) - 508-555-0142"), FacetContact, false},
		// A year in brackets and a date are not telephone numbers.
		{mem(memory.TypeUser, "bg", "Born Ponta Delgada. Came over w/ mom at 11 (2008)."), FacetContact, false},
		{mem(memory.TypeUser, "x", "Moved in on 2023-05-14."), FacetContact, false},
		{mem(memory.TypeUser, "x", "Mum: +44 7700 900123"), FacetContact, true},
		{mem(memory.TypeUser, "x", "Dentist (508) 555-0110, Dr. Kim."), FacetContact, true},
	} {
		if got := answersFacet([]Facet{c.facet}, c.m); got != c.want {
			t.Errorf("%s %s %q: answers %v, want %v", c.m.Type, c.facet, c.m.Body, got, c.want)
		}
	}
}

// TestFacetPathReadsKinds asks manner and contact questions of a home where the answers are a
// feedback and a reference note beside user notes that share their words; a project note
// holding a number is not read for the contact facet.
func TestFacetPathReadsKinds(t *testing.T) {
	for _, vectors := range []bool{false, true} {
		var opts []envOpt
		if vectors {
			opts = append(opts, withVectors)
		}
		e := newEnv(t, opts...)
		e.write(
			mem{slug: "about-me", title: "关于我", body: "本名邓可欣，朋友都叫我邓邓，店里客人喊我Kiki老师。"},
			mem{slug: "family", title: "家人", body: "儿子邓子轩，读高三。"},
			mem{typ: memory.TypeFeedback, slug: "talk", title: "别太正经", body: "跟我说话轻松点，可以玩梗；别叫我“亲”（像客服）；回复短一点。"},
			mem{typ: memory.TypeReference, slug: "phonebook", title: "电话本", body: "儿子子轩：13904582736\n房东：0458-3621120"},
			mem{slug: "background", title: "bg", body: "Came over w/ mom at 11 (2008). Worked a call center job for two years."},
			mem{typ: memory.TypeReference, slug: "numbers", title: "numbers", body: "Mrs. Costa (landlady) - 508-555-0197, rent due the 1st"},
			mem{typ: memory.TypeProject, slug: "truck", title: "Food truck", body: "Seller of the step van: 508-555-0188. Still need a permit."},
			mem{typ: memory.TypeFeedback, slug: "tests", title: "tests", body: "Never mock the database in integration tests."},
		)
		if vectors {
			e.embedAll()
		}
		for q, want := range map[string]string{
			"我是不是跟你说过别那样称呼我":                     "talk",
			"你该怎么跟我说话":                           "talk",
			"how should you talk to me?":         "talk",
			"我儿子手机号多少？想给他打一个":                    "phonebook",
			"the sink's leaking, who do I call?": "numbers",
		} {
			got := slugs(e.search(q))
			if len(got) == 0 || got[0] != want {
				t.Errorf("vectors %v: %q ranks %v, want %s first", vectors, q, got, want)
			}
		}
	}
}

// TestRoundFacets reads the money facet and this round's forms of the others, and the notes
// that answer them.
func TestRoundFacets(t *testing.T) {
	for q, want := range map[string]Facet{
		"which bank am I with":                  FacetMoney,
		"when is my mortgage due":               FacetMoney,
		"贷款哪个月该还了":                              FacetMoney,
		"我在哪家银行开的户":                             FacetMoney,
		"我养的那个小家伙爱吃啥零食":                         FacetFamily,
		"我博士做的是啥方向来着":                           FacetEducation,
		"which year did I move to England":      FacetOrigin,
		"remind me how i like you to answer me": FacetManner,
	} {
		if got := facetsOf(q); !slices.Contains(got, want) {
			t.Errorf("facetsOf(%q) = %v, want %s", q, got, want)
		}
	}
	for _, q := range []string{"which bank does the payments API call", "how do I pay the invoice in the admin UI"} {
		if got := facetsOf(q); slices.Contains(got, FacetMoney) {
			t.Errorf("facetsOf(%q) = %v: not a question about the person's money", q, got)
		}
	}
	mem := func(title, body string) *memory.Memory {
		return &memory.Memory{Type: memory.TypeUser, Title: title, Body: body, Version: title + body}
	}
	for _, c := range []struct {
		m     *memory.Memory
		facet Facet
		want  bool
	}{
		{mem("Money habits", "Pays cash for nearly everything. Banks at the credit union on Portland St."), FacetMoney, true},
		{mem("x", "建大棚跟农商银行贷了15万，每年11月还一次。"), FacetMoney, true},
		{mem("Food", "Likes seafood chowder and strong tea."), FacetMoney, false},
		{mem("Job", "Staff nurse, adult ICU. Permanent nights, 19:30–08:00, usually three shifts a week."), FacetRoutine, true},
		{mem("Food", "Likes seafood chowder and strong tea."), FacetRoutine, false},
		{mem("芝麻", "我养了只仓鼠叫芝麻，一岁半，最爱啃南瓜子。"), FacetFamily, true},
		{mem("About me", "From Iloilo City — came over to the UK in 2016 through an NHS recruitment drive."), FacetOrigin, true},
	} {
		if got := answersFacet([]Facet{c.facet}, c.m); got != c.want {
			t.Errorf("%s %q: answers %v, want %v", c.facet, c.m.Body, got, c.want)
		}
	}
}

// TestFamilyBirthday: a family member's birthday is answered by the note that names them and
// gives a birthday, not by the family note that only says who they are, nor by the person's own.
func TestFamilyBirthday(t *testing.T) {
	e := newEnv(t)
	e.write(
		mem{slug: "family", title: "家里人", body: "老伴李秀英；儿子王磊在青岛干外卖站长，孙女朵朵3岁。"},
		mem{slug: "dates", title: "杂记", body: "自己生日是腊月初八。孙女朵朵生日是六月一号，儿童节那天。"},
		mem{slug: "en-family", title: "Family", body: "Kid sister Jo lives in Leeds, bday 3 May. Brother Sam is in Perth."},
		mem{slug: "en-bday", title: "bday", body: "My birthday is 9 October."},
	)
	for q, want := range map[string]string{"孙女几号过生日": "dates", "when's my kid sister's bday?": "en-family"} {
		if got := slugs(e.search(q)); len(got) == 0 || got[0] != want {
			t.Errorf("%q ranks %v, want %s first", q, got, want)
		}
	}
}
