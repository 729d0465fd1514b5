package wikilink

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		links []Link
		rels  []Relation
	}{
		{"plain mention", "Met [[Alice]] today.", []Link{{Target: "Alice"}}, nil},
		{"label", "Ask [[Robert Smith|Bob]] about it", []Link{{Target: "Robert Smith", Label: "Bob"}}, nil},
		{"heading stripped", "see [[deploy-notes#Steps]]", []Link{{Target: "deploy-notes", Heading: "#Steps"}}, nil},
		{"subject relation", "- works_at [[Acme]]", []Link{{Target: "Acme"}}, []Relation{{Type: "works_at", To: "Acme"}}},
		{"pair relation", "* [[Alice]] manages [[Bob]]", []Link{{Target: "Alice"}, {Target: "Bob"}},
			[]Relation{{From: "Alice", Type: "manages", To: "Bob"}}},
		{"type hint", "- works_at [[Acme]] #organization", []Link{{Target: "Acme"}},
			[]Relation{{Type: "works_at", To: "Acme", ToType: "organization"}}},
		{"chinese names and relation", "- 就职于 [[字节跳动]]\n- [[张三]] 同事 [[李四]]。",
			[]Link{{Target: "字节跳动"}, {Target: "张三"}, {Target: "李四"}},
			[]Relation{{Type: "就职于", To: "字节跳动"}, {From: "张三", Type: "同事", To: "李四"}}},
		{"relation type folded", "- Works-At [[Acme]]", []Link{{Target: "Acme"}}, []Relation{{Type: "works_at", To: "Acme"}}},
		{"prose list line is a mention", "- I met [[Bob]] at lunch", []Link{{Target: "Bob"}}, nil},
		{"code span", "use `[[NotALink]]` and [[Real]]", []Link{{Target: "Real"}}, nil},
		{"double backtick span", "x ``a ` [[No]] `` [[Yes]]", []Link{{Target: "Yes"}}, nil},
		{"fenced block", "```\n[[Inside]]\n- uses [[Fence]]\n```\nafter [[Out]]", []Link{{Target: "Out"}}, nil},
		{"tilde fence", "~~~go\n[[Inside]]\n~~~\n", nil, nil},
		{"unclosed fence hides the rest", "```\n[[Inside]]", nil, nil},
		{"indented code", "text\n\n    [[Code]]\n\n[[Text]]", []Link{{Target: "Text"}}, nil},
		{"list continuation is not code", "- uses [[Go]]\n    also [[Rust]]", []Link{{Target: "Go"}, {Target: "Rust"}},
			[]Relation{{Type: "uses", To: "Go"}}},
		{"empty and spaces", "[[ ]] [[  Alice  ]]", []Link{{Target: "Alice"}}, nil},
		{"nested brackets are text", "[[a[b]]]", nil, nil},
		{"pipe relation target", "- knows [[Robert|Bob]]", []Link{{Target: "Robert", Label: "Bob"}},
			[]Relation{{Type: "knows", To: "Robert"}}},
		{"trailing prose is not a relation", "- uses [[Go]] for the backend", []Link{{Target: "Go"}}, nil},
		{"full width", "［［Ａｃｍｅ］］ [[Ａｃｍｅ]]", []Link{{Target: "Ａｃｍｅ"}}, nil},
		// An input method's ideographic space and a pasted no-break space are spaces too.
		{"ideographic spaces", "- [[张三]]\u3000认识\u3000[[李四]]", []Link{{Target: "张三"}, {Target: "李四"}},
			[]Relation{{From: "张三", Type: "认识", To: "李四"}}},
		{"no-break space", "- [[Ann]] knows\u00a0[[Bo]]\u00a0#person", []Link{{Target: "Ann"}, {Target: "Bo"}},
			[]Relation{{From: "Ann", Type: "knows", To: "Bo", ToType: "person"}}},
		{"subject relation, ideographic space", "- 就职于\u3000[[阿里巴巴]]。", []Link{{Target: "阿里巴巴"}},
			[]Relation{{Type: "就职于", To: "阿里巴巴"}}},
		{"heading of this note is no entity", "see [[#Summary]], [[#^b1|there]] and [[Carol#Work|卡罗尔]]",
			[]Link{{Target: "Carol", Label: "卡罗尔", Heading: "#Work"}}, nil},
		// A '#' at the end of a name or before punctuation is the name's: C# was C.
		{"sharp names", "[[C#]], [[F#|F sharp]], [[C#/.NET]], [[C++/CLI]], [[.NET]], [[ASP.NET]], [[Node.js]], [[Objective-C]]",
			[]Link{{Target: "C#"}, {Target: "F#", Label: "F sharp"}, {Target: "C#/.NET"}, {Target: "C++/CLI"},
				{Target: ".NET"}, {Target: "ASP.NET"}, {Target: "Node.js"}, {Target: "Objective-C"}}, nil},
		{"sharp name with a heading", "[[C##Generics]] and [[Acme#History]], [[Acme#^b1]], [[会议#议程]]",
			[]Link{{Target: "C#", Heading: "#Generics"}, {Target: "Acme", Heading: "#History"}, {Target: "Acme", Heading: "#^b1"}, {Target: "会议", Heading: "#议程"}}, nil},
		{"relation to a sharp name", "- uses [[C#]] #language\n- [[Bob]] knows [[F#]]",
			[]Link{{Target: "C#"}, {Target: "Bob"}, {Target: "F#"}},
			[]Relation{{Type: "uses", To: "C#", ToType: "language"}, {From: "Bob", Type: "knows", To: "F#"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse(tt.body)
			if !reflect.DeepEqual(p.Links, tt.links) {
				t.Errorf("links = %#v, want %#v", p.Links, tt.links)
			}
			if !reflect.DeepEqual(p.Relations, tt.rels) {
				t.Errorf("relations = %#v, want %#v", p.Relations, tt.rels)
			}
		})
	}
}

func TestNorm(t *testing.T) {
	same := [][]string{
		{"OpenAI", "open ai", "Open-AI", "ＯｐｅｎＡＩ", "openai."},
		{"张三", "张 三", "张　三"},
		{"C++", "c++"},
		{"C#", "c #", "C♯", "Ｃ＃"},
		{"Node.js", "NodeJS", "node js"},
	}
	for _, g := range same {
		for _, n := range g[1:] {
			if Norm(n) != Norm(g[0]) {
				t.Errorf("Norm(%q) = %q, Norm(%q) = %q; want equal", n, Norm(n), g[0], Norm(g[0]))
			}
		}
	}
	differ := [][2]string{
		{"Alice", "Alicia"},
		// A relation to C became one to C++ (symbols were dropped with punctuation).
		{"C++", "C"},
		{"Notepad++", "Notepad"},
		{"A+", "A"},
		// '#' was punctuation and dropped: C# and C, F# and F were one entity.
		{"C#", "C"},
		{"F#", "F"},
		{"C#/.NET", "C/.NET"},
		// A Devanagari vowel sign is a spacing mark (Mc): dropping it changed the word.
		{"किताब", "कताब"},
	}
	for _, d := range differ {
		if Norm(d[0]) == Norm(d[1]) {
			t.Errorf("Norm(%q) = Norm(%q) = %q; different names must not meet", d[0], d[1], Norm(d[0]))
		}
	}
	if Norm("!!") == "" {
		t.Error("a punctuation-only name keeps a key")
	}
}

func TestFormat(t *testing.T) {
	cases := []struct{ from, typ, to, toType, want string }{
		{"", "works at", "Acme", "organization", "- works_at [[Acme]] #organization"},
		{"张三", "同事", "李四", "", "- [[张三]] 同事 [[李四]]"},
		{"Bob", "uses", "C#", "language", "- [[Bob]] uses [[C#]] #language"},
		{"C#/.NET", "part of", "F#", "", "- [[C#/.NET]] part_of [[F#]]"},
	}
	for _, c := range cases {
		got, ok := Format(c.from, c.typ, c.to, c.toType)
		if !ok || got != c.want {
			t.Errorf("Format = %q %v, want %q", got, ok, c.want)
		}
		p := Parse(got)
		if len(p.Relations) != 1 || p.Relations[0].To != c.to {
			t.Errorf("Format output %q does not parse back: %#v", got, p)
		}
	}
	// A '#' read as a heading would not read back: "Acme#History" is Acme.
	for _, bad := range []string{"a]]b", "x|y", "", "a\nb", "Acme#History", "#tag", "note#^b1"} {
		if _, ok := Format("", "knows", bad, ""); ok {
			t.Errorf("Format accepted %q", bad)
		}
	}
	if _, ok := Format("", "two words!", "A", ""); ok {
		t.Error("Format accepted a relation type with punctuation")
	}
}

func TestRewriteAndDrop(t *testing.T) {
	body := "Met [[Bob|Bobby]] and [[bob]].\n`[[Bob]]` stays\n```\n[[Bob]]\n```\n- knows [[Bob]]\n- uses [[Go]]"
	got := Rewrite(body, func(l Link) (string, bool) {
		if Norm(l.Target) != Norm("Bob") {
			return "", false
		}
		return Link{Target: "Robert", Label: l.Label}.Raw(), true
	})
	want := "Met [[Robert|Bobby]] and [[Robert]].\n`[[Bob]]` stays\n```\n[[Bob]]\n```\n- knows [[Robert]]\n- uses [[Go]]"
	if got != want {
		t.Fatalf("Rewrite =\n%s\nwant\n%s", got, want)
	}
	dropped := DropRelations(want, func(r Relation) bool { return r.Type == "knows" })
	if dropped != "Met [[Robert|Bobby]] and [[Robert]].\n`[[Bob]]` stays\n```\n[[Bob]]\n```\n- uses [[Go]]" {
		t.Fatalf("DropRelations = %q", dropped)
	}
}

// TestRelationLengths: a relation type of up to 64 runes and a target type of up to 32 make a
// relation line; one rune more and the line is prose with mentions (Chinese counts by rune).
func TestRelationLengths(t *testing.T) {
	long := func(r string, n int) string { return strings.Repeat(r, n) }
	for _, tc := range []struct {
		name, line string
		rel        bool
	}{
		{"type of 64", "- " + long("a", 64) + " [[Bob]]", true},
		{"type of 65", "- " + long("a", 65) + " [[Bob]]", false},
		{"chinese type of 64", "- " + long("认", 64) + " [[Bob]]", true},
		{"chinese type of 65", "- " + long("认", 65) + " [[Bob]]", false},
		{"pair, type of 65", "- [[Ann]] " + long("b", 65) + " [[Bob]]", false},
		{"target type of 32", "- knows [[Bob]] #" + long("p", 32), true},
		{"target type of 33", "- knows [[Bob]] #" + long("p", 33), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Parse(tc.line)
			if got := len(p.Relations) == 1; got != tc.rel {
				t.Fatalf("relation = %v, want %v (%+v)", got, tc.rel, p)
			}
			if len(p.Links) == 0 {
				t.Fatalf("the link is a mention either way: %+v", p)
			}
		})
	}
	if l, ok := Format("", long("a", 65), "Bob", ""); !ok || l != "- "+long("a", 64)+" [[Bob]]" {
		t.Fatalf("Format cuts a relation type to 64 runes: %q %v", l, ok)
	}
	if l, ok := Format("", "knows", "Bob", long("p", 33)); !ok || strings.Contains(l, "#") {
		t.Fatalf("Format with a 33-rune target type: %q %v", l, ok)
	}
}

// Naming the subject turns a subject-less relation line into text that says the same thing:
// the line no longer parses as a relation, code is untouched, other lines are kept.
func TestNameSubject(t *testing.T) {
	body := "Notes.\n- knows [[Bob]]\n* 认识 [[李四]]\n- [[Ann]] knows [[Bob]]\n```\n- knows [[Bob]]\n```\n- uses [[Go]]"
	got := NameSubject(body, "Carol Smith", func(r Relation) bool { return r.Type != "uses" })
	want := "Notes.\n- Carol Smith knows [[Bob]]\n* Carol Smith 认识 [[李四]]\n- [[Ann]] knows [[Bob]]\n```\n- knows [[Bob]]\n```\n- uses [[Go]]"
	if got != want {
		t.Fatalf("NameSubject =\n%s\nwant\n%s", got, want)
	}
	p := Parse(got)
	if len(p.Relations) != 2 || p.Relations[0].From != "Ann" || p.Relations[1].Type != "uses" {
		t.Fatalf("relations left = %+v", p.Relations)
	}
	if len(Parse(NameSubject("- knows [[Bob]]", "张三", func(Relation) bool { return true })).Relations) != 0 {
		t.Fatal("a Chinese subject made a relation")
	}
}
