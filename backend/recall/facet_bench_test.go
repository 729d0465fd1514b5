package recall

import (
	"fmt"
	"testing"

	"engram/backend/memory"
)

// BenchmarkFacetQuestion times an identity question against a scope holding many user
// memories, beside an ordinary question over the same store.
func BenchmarkFacetQuestion(b *testing.B) {
	e := newEnv(b)
	var ms []mem
	for i := 0; i < 1500; i++ {
		ms = append(ms, mem{slug: fmt.Sprintf("u-%04d", i), title: fmt.Sprintf("Note %d about the person", i),
			body: fmt.Sprintf("Prefers tabs over spaces in project %d. Usually reviews code in the morning and keeps notes in Markdown; likes short meetings.", i)})
	}
	for i := 0; i < 3000; i++ {
		ms = append(ms, mem{slug: fmt.Sprintf("p-%04d", i), typ: "project", title: fmt.Sprintf("Build step %d", i),
			body: fmt.Sprintf("The build of module %d runs go vet before the tests and caches the results.", i)})
	}
	for i := 0; i < len(ms); i += 500 {
		e.write(ms[i:min(i+500, len(ms))]...)
	}
	for _, q := range []string{"what do I like to drink", "我喜欢喝什么", "where do I live", "build cache for the tests"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				e.search(q)
			}
		})
	}
}

// BenchmarkReadPerson reads user memories for every facet with nothing cached.
func BenchmarkReadPerson(b *testing.B) {
	bodies := []string{
		"Prefers tabs over spaces in project 3. Usually reviews code in the morning and keeps notes in Markdown; likes short meetings.",
		"My sister Ana lives in Porto. I moved to Lisbon in 2019 and work as a nurse at Santa Maria.",
		"用户住在杭州，平时喜欢喝龙井。老婆是老师。",
		"Deploys go through the staging cluster first; the person wants a summary after each deploy.",
	}
	ms := make([]*memory.Memory, len(bodies))
	for i, body := range bodies {
		ms[i] = &memory.Memory{Type: memory.TypeUser, Title: "About the person", Body: body}
	}
	for b.Loop() {
		for _, m := range ms {
			r := newPersonRead(m)
			r.check(allFacets)
		}
	}
}
