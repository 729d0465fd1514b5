package memory

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndexBucketsTotalsAndShadowing checks the Memory Index's buckets for a caller (global,
// its project, its agent): the totals per instance and type, and the global entries a live
// project entry of the same slug shadows (an archived one shadows nothing, nor does another
// project's, nor an archived global entry count).
func TestIndexBucketsTotalsAndShadowing(t *testing.T) {
	e := newEnv(t)
	wd, other := t.TempDir(), t.TempDir()
	in := func(it Item, scope Scope, workdir, agent string, typ Type) Item {
		it.Scope, it.Workdir, it.Agent, it.Type = scope, workdir, agent, typ
		return it
	}
	var items []Item
	for _, sl := range []string{"alpha", "beta", "gamma", "delta"} {
		items = append(items, wr(sl, "Global "+sl, "body"))
	}
	for _, sl := range []string{"epsilon", "zeta"} {
		items = append(items, in(wr(sl, "Global "+sl, "body"), ScopeGlobal, "", "", TypeFeedback))
	}
	for _, sl := range []string{"alpha", "beta", "gamma", "delta"} {
		items = append(items, in(wr(sl, "Project "+sl, "body"), ScopeProject, wd, "", TypeUser))
	}
	items = append(items,
		in(wr("build", "Project build", "body"), ScopeProject, wd, "", TypeReference),
		in(wr("epsilon", "Other project epsilon", "body"), ScopeProject, other, "", TypeFeedback),
		in(wr("note-1", "Ann's note", "body"), ScopeAgent, "", "ann", TypeExperience),
		in(wr("note-2", "Ann's other note", "body"), ScopeAgent, "", "ann", TypeExperience),
		in(wr("note-3", "Bob's note", "body"), ScopeAgent, "", "bob", TypeExperience),
	)
	for _, r := range e.batch(ActorUser, items...).Results {
		if !r.OK {
			t.Fatalf("%s: %s", r.Code, r.Message)
		}
	}
	// The project's gamma is archived (it no longer shadows), the global delta too (nothing to
	// shadow, and it is not counted).
	e.ok(Item{Op: OpArchive, Scope: ScopeProject, Workdir: wd, Slug: "gamma"})
	e.ok(Item{Op: OpArchive, Scope: ScopeGlobal, Slug: "delta"})

	show := func(bs []IndexBucket) string {
		var out []string
		for _, b := range bs {
			var slugs []string
			for _, en := range b.Entries {
				slugs = append(slugs, en.Slug)
			}
			key := b.Key
			if b.Scope == ScopeProject {
				key = "P"
				if b.Key != ProjectKey(mustWorkdir(t, wd)) {
					key = "other"
				}
			}
			out = append(out, fmt.Sprintf("%s/%s/%s %d %s", b.Scope, key, b.Type, b.Total, strings.Join(slugs, ",")))
		}
		return strings.Join(out, "; ")
	}
	for _, c := range []struct {
		name   string
		f      Filter
		shadow string
		want   string
	}{
		{"caller with project and agent", Filter{Workdir: wd, Agent: "ann"}, wd,
			"agent/ann/experience 2 note-1,note-2; global//feedback 2 epsilon,zeta; global//user 1 gamma; project/P/reference 1 build; project/P/user 3 alpha,beta,delta"},
		{"same view, nothing shadowed", Filter{Workdir: wd, Agent: "ann"}, "",
			"agent/ann/experience 2 note-1,note-2; global//feedback 2 epsilon,zeta; global//user 3 alpha,beta,gamma; project/P/reference 1 build; project/P/user 3 alpha,beta,delta"},
		{"another project shadows its own", Filter{Workdir: other}, other,
			"global//feedback 1 zeta; global//user 3 alpha,beta,gamma; project/other/feedback 1 epsilon"},
		{"agent only", Filter{Agent: "bob"}, "",
			"agent/bob/experience 1 note-3; global//feedback 2 epsilon,zeta; global//user 3 alpha,beta,gamma"},
		{"global only", Filter{Scope: ScopeGlobal}, "",
			"global//feedback 2 epsilon,zeta; global//user 3 alpha,beta,gamma"},
		{"one type", Filter{Workdir: wd, Type: TypeUser}, wd,
			"global//user 1 gamma; project/P/user 3 alpha,beta,delta"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bs, err := e.s.IndexBuckets(e.ctx, c.f, 30, c.shadow)
			if err != nil {
				t.Fatal(err)
			}
			// Entries come newest first; the writes share one instant, so compare them sorted.
			for i := range bs {
				sortEntries(bs[i].Entries)
			}
			if got := show(bs); got != c.want {
				t.Errorf("buckets\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func mustWorkdir(t *testing.T, wd string) string {
	t.Helper()
	c, err := CanonicalWorkdir(wd)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sortEntries(es []IndexEntry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Slug < es[j-1].Slug; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}
