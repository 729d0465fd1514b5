package thesaurus

import (
	"slices"
	"testing"
)

func words(ws []Word, k Kind) []string {
	var out []string
	for _, w := range ws {
		if w.Kind == k {
			out = append(out, w.Text)
		}
	}
	return out
}

func TestBases(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"camping", []string{"camping", "camp"}}, // a word of its own, and camp + ing
		{"mice", []string{"mouse"}},              // irregular
		{"bought", []string{"buy"}},
		{"happier", []string{"happy"}},
		{"genre", []string{"genre"}},
		{"xqzzy", nil}, // unknown
		{"the", nil},   // stop words are not in the table
	}
	for _, c := range cases {
		if got := Bases(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Bases(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestRelated(t *testing.T) {
	cases := []struct {
		in   string
		kind Kind
		want string
	}{
		{"buy", Synonym, "purchase"},
		{"bought", Synonym, "purchase"},
		{"marry", Derived, "marriage"},
		{"screenplay", Broader, "script"},
		{"car", Synonym, "automobile"},
		{"family", Synonym, "household"},
	}
	for _, c := range cases {
		got := words(Related(c.in, 8, c.kind), c.kind)
		if !slices.Contains(got, c.want) {
			t.Errorf("Related(%q, %v) = %v, want %q among them", c.in, c.kind, got, c.want)
		}
	}
	// per bounds each relation of each base; relations not asked for are left out.
	if got := Related("car", 1, Synonym); len(got) != 1 || got[0].Kind != Synonym {
		t.Errorf("Related(car, 1, Synonym) = %v, want one synonym", got)
	}
	if got := Related("xqzzy", 8, Synonym, Derived, Broader, Narrower); got != nil {
		t.Errorf("unknown word related to %v", got)
	}
	if got := Related("car", 8, Kind(7)); got != nil {
		t.Errorf("unknown relation gave %v", got)
	}
}
