package text

import (
	"slices"
	"testing"
)

func TestStem(t *testing.T) {
	// Examples from the description of Porter's algorithm, step by step.
	cases := map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed", "agreed": "agre",
		"plastered": "plaster", "motoring": "motor", "sing": "sing", "conflated": "conflat", "hopping": "hop",
		"falling": "fall", "filing": "file", "happy": "happi", "relational": "relat", "conditional": "condit",
		"digitizer": "digit", "operator": "oper", "hopefulness": "hope", "sensitiviti": "sensit", "triplicate": "triplic",
		"formative": "form", "electrical": "electr", "goodness": "good", "revival": "reviv", "allowance": "allow",
		"adjustable": "adjust", "replacement": "replac", "adoption": "adopt", "effective": "effect", "cease": "ceas",
		"controll": "control", "roll": "roll", "painting": "paint", "painted": "paint", "paints": "paint",
		"go": "go", "Café": "Café", "x86": "x86",
	}
	for in, want := range cases {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitAndWords(t *testing.T) {
	toks := Split("Caroline's café don't 咖啡cup")
	var got []string
	for _, t := range toks {
		got = append(got, t.Text)
	}
	if !slices.Equal(got, []string{"caroline", "café", "dont", "咖啡", "cup"}) || !toks[0].Upper || !toks[3].CJK {
		t.Fatalf("%+v", toks)
	}
	w, s := Words("The painters were painting")
	if !slices.Equal(w, []string{"painters", "painting"}) || !slices.Equal(s, []string{"painter", "paint"}) {
		t.Fatalf("%v %v", w, s)
	}
}

func TestChunks(t *testing.T) {
	cases := map[string][]string{
		"卡罗琳什么时候去的支持小组": {"卡罗琳", "去", "支持小组"},
		"我喜欢喝咖啡":        {"喜欢喝咖啡"},
		"的确":            {"的确"}, // two characters stay a word
		"他们":            nil,    // a function word alone
		"我的猫叫什么":        {"猫叫"},
	}
	for in, want := range cases {
		if got := Chunks(in); !slices.Equal(got, want) {
			t.Errorf("Chunks(%q) = %v, want %v", in, got, want)
		}
	}
	if got := Bigrams("支持小组"); !slices.Equal(got, []string{"支持", "持小", "小组"}) {
		t.Fatal(got)
	}
}

func TestConcepts(t *testing.T) {
	m := ConceptMembers("What martial arts does John practise?")
	if !slices.Contains(m, "kickboxing") || !slices.Contains(m, "跆拳道") {
		t.Fatalf("phrase trigger: %v", m)
	}
	if m := ConceptMembers("小梅养了什么宠物"); !slices.Contains(m, "猫") || !slices.Contains(m, "dog") {
		t.Fatalf("Chinese trigger: %v", m)
	}
	if m := ConceptMembers("parse the config file"); len(m) != 0 {
		t.Fatalf("no category named: %v", m)
	}
	if !slices.Contains(ConceptOf("puppies"), "pets") || !slices.Contains(ConceptOf("猫"), "pets") {
		t.Fatal("members map to their concept by stem")
	}
}
