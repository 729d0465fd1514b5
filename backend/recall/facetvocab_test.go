package recall

import (
	"testing"

	"engram/backend/memory"
)

// A question names a kind of food or drink and the note a thing of that kind.
func TestFoodKinds(t *testing.T) {
	for _, tc := range []struct {
		q, note string
		want    bool
	}{
		{"what coffee do I drink", "I drink flat whites", true},
		{"what coffee do I drink", "My usual order is a cortado.", true},
		{"what coffee do I drink", "I like green tea", false},
		{"what do I like to drink", "I like green tea", true},
		{"我能吃虾吗", "我对海鲜过敏", true},
		{"can I eat prawns", "I'm allergic to shellfish", true},
		{"can I have peanut butter", "Allergic to peanuts (severe)", true},
		{"do I eat fish", "I'm vegetarian: no meat, no fish.", true},
		{"can I eat prawns", "I'm allergic to peanuts", false},
		{"我喝什么咖啡", "我每天早上一杯美式", true},
	} {
		if got := namesFoodKind(kindsNamed(tc.q), tc.note); got != tc.want {
			t.Errorf("%q / %q: %v, want %v (kinds %v)", tc.q, tc.note, got, tc.want, kindsNamed(tc.q))
		}
	}
}

// The note that answers names a thing of the kind asked and shares no word with the question:
// it ranked below a reference note that said "coffee", and "我不太能吃辣" ("能吃") ranked above
// the seafood allergy for "我能吃虾吗".
func TestFoodKindsRankTheAnswer(t *testing.T) {
	for _, tc := range []struct {
		lang string
		ms   []mem
		q    string
		want string
	}{
		{"en", []mem{
			{slug: "coffee", typ: memory.TypeUser, title: "Usual order", body: "My usual order is a flat white."},
			{slug: "music", typ: memory.TypeUser, title: "Likes jazz", body: "I like jazz."},
			{slug: "machine", typ: memory.TypeReference, title: "Coffee machine API", body: "The coffee machine exposes an API; drink id 7 is coffee."},
		}, "what coffee do I drink", "coffee"},
		{"en", []mem{
			{slug: "allergy", typ: memory.TypeUser, title: "Allergy", body: "I'm allergic to shellfish."},
			{slug: "no-pork", typ: memory.TypeUser, title: "No pork", body: "I can't eat pork, I never eat it."},
		}, "can I eat prawns", "allergy"},
		{"zh", []mem{
			{slug: "allergy", typ: memory.TypeUser, title: "海鲜过敏", body: "我对海鲜过敏。"},
			{slug: "spicy", typ: memory.TypeUser, title: "不吃辣", body: "我不太能吃辣。"},
			{slug: "food", typ: memory.TypeUser, title: "喜欢火锅", body: "最爱吃火锅。"},
		}, "我能吃虾吗", "allergy"},
	} {
		e := newEnv(t)
		e.write(tc.ms...)
		if got := slugs(e.search(tc.q)); len(got) == 0 || got[0] != tc.want {
			t.Errorf("%q ranks %v, want %s first", tc.q, got, tc.want)
		}
	}
}
