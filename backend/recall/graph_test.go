package recall

import (
	"path/filepath"
	"slices"
	"testing"

	"engram/backend/memory"
)

// TestGraphHop: a query naming an entity finds the memories one relation away from it, which
// share none of the query's words, in English and Chinese; without the relation they are not
// found; and an entity of another project leads nowhere the caller may not see.
func TestGraphHop(t *testing.T) {
	e := newEnv(t)
	a, b := filepath.Join(e.home, "proj-a"), filepath.Join(e.home, "proj-b")
	e.write(
		mem{slug: "alice-team", typ: memory.TypeReference, title: "Alice's team",
			body: "- [[Alice]] member_of [[Beacon Crew]]"},
		mem{slug: "crew-database", typ: memory.TypeReference, title: "Database choice",
			body: "[[Beacon Crew]] stores orders in Postgres 16."},
		mem{slug: "unrelated-db", typ: memory.TypeReference, title: "Cache",
			body: "The cache layer is Redis; nobody remembers why."},
		mem{slug: "zhang-team", typ: memory.TypeReference, title: "张伟的组",
			body: "- [[张伟]] 属于 [[灯塔小组]]"},
		mem{slug: "team-deploy", typ: memory.TypeReference, title: "发布流程",
			body: "[[灯塔小组]] 每周四下午发布，先灰度百分之五。"},
		mem{scope: memory.ScopeProject, workdir: b, slug: "bob-secret-team", typ: memory.TypeProject,
			title: "Bob in project B", body: "- [[Bob]] member_of [[Skunkworks]]"},
		mem{scope: memory.ScopeProject, workdir: b, slug: "skunkworks-plan", typ: memory.TypeProject,
			title: "Plan", body: "[[Skunkworks]] ships the secret prototype in March."},
	)
	cases := []struct {
		name, q, workdir, want string
		absent                 []string
	}{
		{"english neighbour", "what does Alice use?", "", "crew-database", []string{"unrelated-db"}},
		{"chinese neighbour", "张伟什么时候发布", "", "team-deploy", nil},
		{"another project's entity", "what is Bob working on", a, "", []string{"skunkworks-plan", "bob-secret-team"}},
		{"own project's entity", "what is Bob working on", b, "skunkworks-plan", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.search(c.q, func(p *SearchParams) { p.Workdir = c.workdir })
			if c.want != "" {
				i := rankOf(res, c.want)
				if i < 0 {
					t.Fatalf("%q: %s not found, got %v", c.q, c.want, slugs(res))
				}
				if !slices.Contains(res.Hits[i].Via, "graph") {
					t.Errorf("%q: %s found via %v, want graph among them", c.q, c.want, res.Hits[i].Via)
				}
			}
			for _, s := range c.absent {
				if rankOf(res, s) >= 0 {
					t.Errorf("%q: %s must not be found, got %v", c.q, s, slugs(res))
				}
			}
		})
	}
	// The same store without the hop: the neighbour is not found by words alone, so the hop is
	// what finds it above.
	off := DefaultTuning()
	off.WGraph = 0
	e.svc = New(e.store, Options{Logger: quiet, Tuning: off})
	if res := e.search("what does Alice use?"); rankOf(res, "crew-database") >= 0 {
		t.Errorf("without the graph hop crew-database was found anyway (%v): the test proves nothing", slugs(res))
	}
}

// TestQueryNames reads names of one to four words and CJK stretches, skips lone stop words.
func TestQueryNames(t *testing.T) {
	cases := []struct {
		q          string
		has, hasnt []string
	}{
		{"where does Open AI keep it", []string{"openai", "keepit", "open"}, []string{"it", "where", "wheredoes"}},
		{"张伟什么时候发布", []string{"张伟", "发布", "张伟什么时候"}, []string{"张"}},
		{"the Beacon Crew", []string{"beaconcrew", "beacon"}, []string{"the", "thebeacon"}},
	}
	for _, c := range cases {
		got := queryNames(c.q)
		for _, h := range c.has {
			if !slices.Contains(got, h) {
				t.Errorf("queryNames(%q) = %v, want %q among them", c.q, got, h)
			}
		}
		for _, h := range c.hasnt {
			if slices.Contains(got, h) {
				t.Errorf("queryNames(%q) = %v, must not hold %q", c.q, got, h)
			}
		}
	}
	long := ""
	for i := 0; i < 400; i++ {
		long += "word" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + " "
	}
	if n := len(queryNames(long)); n > memory.MaxHopNames {
		t.Errorf("a long query gave %d names, want at most %d", n, memory.MaxHopNames)
	}
}
