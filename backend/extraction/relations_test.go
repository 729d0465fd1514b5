package extraction

import (
	"reflect"
	"testing"

	"engram/backend/text/wikilink"
)

// A plan's relations are written in the graph's grammar and read back by it as the same
// relation: a Chinese relation type is one (an ASCII-only rule dropped it with a warning),
// and what the grammar cannot read is left out and warned about.
func TestRenderRelationsReadsBackAsTheGraphReadsThem(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rel   Relation
		want  []wikilink.Relation
		warns int
	}{
		{"english", Relation{Relation: "Works At", Object: "Acme", ObjectType: "organization"},
			[]wikilink.Relation{{Type: "works_at", To: "Acme", ToType: "organization"}}, 0},
		{"chinese", Relation{Relation: "就职于", Object: "阿里巴巴"}, []wikilink.Relation{{Type: "就职于", To: "阿里巴巴"}}, 0},
		{"chinese pair", Relation{Subject: "张三", Relation: "同事", Object: "李四", ObjectType: "person"},
			[]wikilink.Relation{{From: "张三", Type: "同事", To: "李四", ToType: "person"}}, 0},
		{"full width", Relation{Relation: "ｕｓｅｓ", Object: "Go"}, []wikilink.Relation{{Type: "uses", To: "Go"}}, 0},
		{"dashes and spaces", Relation{Relation: " depends - on ", Object: "Redis"}, []wikilink.Relation{{Type: "depends_on", To: "Redis"}}, 0},
		{"punctuation is no type", Relation{Relation: "works at!", Object: "Acme"}, nil, 1},
		{"empty", Relation{Relation: "", Object: "Acme"}, nil, 1},
		{"bracketed name", Relation{Relation: "uses", Object: "[[Go]]"}, []wikilink.Relation{{Type: "uses", To: "Go"}}, 0},
		// The '#' of C# was blanked, so the relation named C.
		{"sharp name", Relation{Subject: "C#/.NET", Relation: "uses", Object: "C#", ObjectType: "tool"},
			[]wikilink.Relation{{From: "C#/.NET", Type: "uses", To: "C#", ToType: "tool"}}, 0},
		{"heading mark is not kept", Relation{Relation: "read", Object: "Acme#History"},
			[]wikilink.Relation{{Type: "read", To: "Acme History"}}, 0},
		{"leading hash", Relation{Relation: "uses", Object: " # go"}, []wikilink.Relation{{Type: "uses", To: "go"}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, warns := renderRelations("Notes.", []Relation{tc.rel})
			if got := wikilink.Parse(body).Relations; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("body %q reads as %+v, want %+v", body, got, tc.want)
			}
			if len(warns) != tc.warns {
				t.Errorf("warnings %v, want %d", warns, tc.warns)
			}
		})
	}
}

// A model's body that ends inside a code block it never closed took the relation lines in as
// code: the item was written and the graph got none of its relations. The block is closed
// where it ended and the lines are read as relations.
func TestRenderRelationsAfterAnOpenCodeBlock(t *testing.T) {
	rels := []Relation{{Relation: "uses", Object: "Postgres"}, {Subject: "Ann", Relation: "knows", Object: "Bo"}}
	want := []wikilink.Relation{{Type: "uses", To: "Postgres"}, {From: "Ann", Type: "knows", To: "Bo"}}
	for _, in := range []string{"Deploy with:\n\n```sh\nmake ship\n", "Deploy with:\n\n~~~\nmake ship", "Deploy with:\n\n```sh\nmake ship\n```"} {
		body, warns := renderRelations(in, rels)
		if got := wikilink.Parse(body).Relations; !reflect.DeepEqual(got, want) || len(warns) != 0 {
			t.Errorf("after %q: body %q reads as %+v (warnings %v), want %+v", in, body, got, warns, want)
		}
	}
}
