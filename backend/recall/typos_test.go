package recall

import (
	"testing"

	"engram/backend/memory"
)

func TestOneEditKinds(t *testing.T) {
	for _, tc := range []struct {
		typed, meant string
		want         int
	}{
		{"nmae", "name", editSwap},
		{"lvie", "live", editSwap},
		{"liv", "live", editDropped},
		{"wher", "where", editDropped},
		{"wheere", "where", editAdded},
		{"speek", "speak", editChanged},
		{"wher", "when", editChanged},
		{"name", "name", editNone},
		{"nmea", "name", editNone},
		{"lv", "live", editNone},
	} {
		if got := oneEdit(tc.typed, tc.meant); got != tc.want {
			t.Errorf("oneEdit(%q, %q) = %d, want %d", tc.typed, tc.meant, got, tc.want)
		}
	}
	// The likelier edit wins ("wher" drops a letter of where, changes one of when); two
	// equally near words are no reading ("lie" is like and live less a letter).
	for typed, want := range map[string]string{"wher": "where", "nmae": "name", "wfie": "wife", "lie": "", "zzzz": ""} {
		if got := meantWord(typed); got != want {
			t.Errorf("meantWord(%q) = %q, want %q", typed, got, want)
		}
	}
}

// A question about the person with a typo found journal noise; a word the memories hold is
// never read as a typo, and a question that does not ask about the person is searched as typed.
func TestTyposInQuestionsAboutThePerson(t *testing.T) {
	e := newEnv(t)
	e.write(
		mem{slug: "user-name", typ: memory.TypeUser, title: "Name: Marta Kowalski", body: "My name is Marta Kowalski."},
		mem{slug: "user-home", typ: memory.TypeUser, title: "Based in Rotterdam", body: "I live in Rotterdam."},
		mem{slug: "spec", typ: memory.TypeReference, title: "Spec lives in docs", body: "The OpenAPI spec lives in docs/; names are ASCII."},
		mem{slug: "nmae-tool", typ: memory.TypeReference, title: "nmae", body: "nmae is our name-mangling tool; where it runs: CI."},
	)
	for _, tc := range []struct{ q, want string }{
		{"whats my nmae", "nmae-tool"}, // nmae is a word of the store: no typo
		{"where do i lvie", "user-home"},
		{"wher do i liv", "user-home"},
	} {
		if got := slugs(e.search(tc.q)); len(got) == 0 || got[0] != tc.want {
			t.Errorf("%q ranks %v, want %s first", tc.q, got, tc.want)
		}
	}
	res := e.search("where do i lvie")
	if res.Analysis.Query != "where do i live" || len(res.Analysis.Facets) == 0 {
		t.Errorf("analysis %+v, want the question read as 'where do i live'", res.Analysis)
	}
	// Nor is a word with a letter beyond ASCII cut into a typo ("caf" of café read as "cat"
	// made a question about the cat).
	for _, q := range []string{"the spce lives in docs", "what are my café shifts"} {
		if res := e.search(q); res.Analysis.Query != q {
			t.Errorf("%q was read as %q", q, res.Analysis.Query)
		}
	}
}
