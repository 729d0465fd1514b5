package recall

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// identitySet is one language's memories and questions from testdata/identity.json.
type identitySet struct {
	Lang     string `json:"lang"`
	Memories []struct {
		Slug  string `json:"slug"`
		Type  string `json:"type"`
		Title string `json:"title"`
		Body  string `json:"body"`
	} `json:"memories"`
	Questions []struct {
		Q    string   `json:"q"`
		Want []string `json:"want"`
	} `json:"questions"`
}

// TestIdentityRegression asks the identity and preference questions of testdata/identity.json
// in both languages, with and without the local embedder: the first hit must be a user memory
// that answers the question, above distractors that share its words ("the spec lives in…",
// "我的猫叫豆豆").
func TestIdentityRegression(t *testing.T) {
	raw, err := os.ReadFile("testdata/identity.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Sets []identitySet `json:"sets"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, set := range file.Sets {
		total += len(set.Questions)
	}
	if total < 30 {
		t.Fatalf("the regression set has %d questions, want at least 30", total)
	}
	for _, vectors := range []bool{false, true} {
		for _, set := range file.Sets {
			name := set.Lang
			if vectors {
				name += "/vectors"
			}
			t.Run(name, func(t *testing.T) {
				var opts []envOpt
				if vectors {
					opts = append(opts, withVectors)
				}
				e := newEnv(t, opts...)
				var ms []mem
				for _, m := range set.Memories {
					ms = append(ms, mem{slug: m.Slug, typ: memory.Type(m.Type), title: m.Title, body: m.Body})
				}
				e.write(ms...)
				if vectors {
					e.embedAll()
				}
				for _, q := range set.Questions {
					res := e.search(q.Q)
					got := slugs(res)
					if len(got) == 0 {
						t.Errorf("%q found nothing, want %v", q.Q, q.Want)
						continue
					}
					ok := false
					for _, w := range q.Want {
						if got[0] == w {
							ok = true
						}
					}
					if !ok {
						t.Errorf("%q ranks %v first (top 3 %v), want one of %v", q.Q, got[0], got[:min(3, len(got))], q.Want)
					}
				}
			})
		}
	}
}

// TestFacetsOf reads the facet a question asks about, and only for questions about the person.
func TestFacetsOf(t *testing.T) {
	for q, want := range map[string]Facet{
		"what is my name": FacetName, "我叫什么名字": FacetName, "where do I live": FacetHome, "我住在哪里": FacetHome,
		"我是哪里人": FacetOrigin, "where do I work": FacetWork, "我多大了": FacetAge, "what do I like to drink": FacetPreference,
		"我喜欢喝什么": FacetPreference,
	} {
		got := facetsOf(q)
		if len(got) == 0 || got[0] != want {
			t.Errorf("facetsOf(%q) = %v, want %s first", q, got, want)
		}
	}
	// Task questions that share a facet's words, and questions about someone else.
	for _, q := range []string{"where does the OpenAPI spec live", "what is the cat's name", "猫叫什么名字", "老王住在哪里", "what does Mia like to drink",
		"how should I name the branch", "what should I call this function", "how do I call the API", "call me when the build breaks",
		"where do I put the config", "what did I work on yesterday", "what kind of tests do I need", "what is my cat's name",
		"where does my sister live", "我该怎么给分支起名字", "我的代码放在哪里", "我上次在哪个分支工作", "我的狗叫什么"} {
		if got := facetsOf(q); len(got) != 0 {
			t.Errorf("facetsOf(%q) = %v, want none", q, got)
		}
	}
}

// TestRelaxCJKOnNothingFound searches a Chinese question whose chunk no memory holds ("狗叫")
// by its characters once nothing was found, and leaves a question that found something alone.
func TestRelaxCJKOnNothingFound(t *testing.T) {
	for _, vectors := range []bool{false, true} {
		var opts []envOpt
		if vectors {
			opts = append(opts, withVectors)
		}
		e := newEnv(t, opts...)
		e.write(mem{slug: "dog", typ: memory.TypeUser, title: "狗", body: "养了一条柯基叫馒头，喜欢吃鸡胸肉。"},
			mem{slug: "music", typ: memory.TypeUser, title: "音乐", body: "最喜欢的歌手是周杰伦。"})
		if vectors {
			e.embedAll()
		}
		if got := slugs(e.search("我的狗叫什么")); len(got) == 0 || got[0] != "dog" {
			t.Errorf("vectors=%v: 我的狗叫什么 found %v, want dog first", vectors, got)
		}
		if got := slugs(e.search("柯基")); len(got) != 1 || got[0] != "dog" {
			t.Errorf("vectors=%v: 柯基 found %v, want dog alone", vectors, got)
		}
	}
	if _, ok := relaxCJK(Analyze("deploy 狗叫", time.Now(), time.UTC)); ok {
		t.Error("a query with an English word was relaxed")
	}
	if a, ok := relaxCJK(Analyze("我的狗叫什么", time.Now(), time.UTC)); !ok || len(a.Keywords) != 0 || strings.Join(a.Singles, "") != "狗叫" {
		t.Errorf("relaxCJK(我的狗叫什么) = %v %v, %v", a.Keywords, a.Singles, ok)
	}
}
