//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/graph"
	"engram/backend/memory"
)

// GraphFigures are the knowledge graph's build and query measurements.
type GraphFigures struct {
	BuildMemories     int     `json:"build_memories"`
	BuildEntities     int     `json:"build_entities"`
	BuildEdges        int     `json:"build_edges"`
	ColdBuildSec      float64 `json:"cold_build_s"`       // files → index, graph rows included
	PlainBuildSec     float64 `json:"plain_cold_build_s"` // the same files with the links as plain text
	BuildResolveMs    float64 `json:"build_resolve_ms"`   // rows → resolved graph (first query)
	QueryEntities     int     `json:"query_entities"`
	QueryEdges        int     `json:"query_edges"`
	QueryResolveMs    float64 `json:"query_resolve_ms"`
	Neighbors1P50Ms   float64 `json:"neighbors_depth1_p50_ms"`
	Neighbors1P95Ms   float64 `json:"neighbors_depth1_p95_ms"`
	Neighbors2P50Ms   float64 `json:"neighbors_depth2_p50_ms"`
	Neighbors2P95Ms   float64 `json:"neighbors_depth2_p95_ms"`
	PathP50Ms         float64 `json:"path_p50_ms"`
	PathP95Ms         float64 `json:"path_p95_ms"`
	PathFoundShare    float64 `json:"path_found_share"`
	GoalP95Ms         float64 `json:"goal_p95_ms"`
	QueriesPerMeasure int     `json:"queries_per_measure"`
}

var (
	firstNames = strings.Fields("Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil Trent Victor Walter Yara 张伟 王芳 李娜 刘洋 陈静 杨磊 赵敏 黄勇")
	lastNames  = strings.Fields("Smith Chen Garcia Müller Rossi Tanaka Kim Novak Silva Dubois Ivanova Larsen Okafor Haddad")
	orgSuffix  = strings.Fields("Labs Systems GmbH Inc 科技 Studio Group Works")
	relTypes   = strings.Fields("works_at knows uses depends_on located_in member_of manages partner_of maintains 认识 使用 位于")
)

// entityNames is a pool of n distinct names: people, organisations and tools, English and Chinese.
func entityNames(r *rand.Rand, v *vocab, n int) []string {
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var name string
		switch r.IntN(3) {
		case 0:
			name = firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))]
		case 1:
			name = strings.ToUpper(v.en[r.IntN(len(v.en))][:1]) + v.en[r.IntN(len(v.en))][1:] + " " + orgSuffix[r.IntN(len(orgSuffix))]
		default:
			name = v.en[r.IntN(len(v.en))]
		}
		if seen[name] {
			name = fmt.Sprintf("%s %d", name, len(out))
		}
		seen[name] = true
		out = append(out, name)
	}
	return out
}

// writeMemoryFile writes m where the store reads it from.
func writeMemoryFile(root string, m *memory.Memory) error {
	data, err := memory.Render(m)
	if err != nil {
		return err
	}
	dir := filepath.Join(root, "memory", "global")
	if m.Scope == memory.ScopeAgent {
		dir = filepath.Join(root, "memory", "agents", m.Agent)
	}
	p := filepath.Join(dir, string(m.Type), m.Slug+".md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// generateGraphMemories writes n memories in the grammar, 400 to an agent (as the store bench
// spreads them): prose with 1–4 mentions and 0–3 relation lines, names drawn with Zipf's law
// from a pool per agent so the same people and tools come back, as they do in real notes.
// plain writes the same text with the links as plain names (the baseline without a graph).
func generateGraphMemories(root string, n int, seed uint64, plain bool) error {
	r := rand.New(rand.NewPCG(seed, 13))
	v := newVocab(r)
	names := entityNames(r, v, 3000)
	zipf := rand.NewZipf(r, 1.2, 4, uint64(len(names)-1))
	link := func(name string) string {
		if plain {
			return name
		}
		return "[[" + name + "]]"
	}
	now := time.Now()
	for i := 0; i < n; i++ {
		agent := i / 400
		// Each agent's names are a window of the pool: agents share some names, not all.
		pick := func() string { return names[(int(zipf.Uint64())+agent*37)%len(names)] }
		var b strings.Builder
		b.WriteString(v.sentence(r, 8+r.IntN(12)))
		for k := 1 + r.IntN(4); k > 0; k-- {
			b.WriteString(" " + link(pick()) + " " + v.sentence(r, 4+r.IntN(8)))
		}
		if k := r.IntN(4); k > 0 {
			b.WriteString("\n")
			for ; k > 0; k-- {
				typ := relTypes[r.IntN(len(relTypes))]
				if r.IntN(2) == 0 {
					fmt.Fprintf(&b, "\n- %s %s", typ, link(pick()))
				} else {
					fmt.Fprintf(&b, "\n- %s %s %s", link(pick()), typ, link(pick()))
				}
			}
		}
		m := &memory.Memory{ID: ulid.Make().String(), Slug: fmt.Sprintf("mem-%07d", i), Type: types[i%len(types)],
			Confidence: memory.ConfidenceMedium, Reviewed: true, SourceQuote: "synthetic", Created: now, Updated: now,
			Title: v.sentence(r, 4), Body: b.String(), Scope: memory.ScopeAgent, Agent: fmt.Sprintf("agent-%04d", agent)}
		if m.Type == memory.TypeReference && r.IntN(2) == 0 {
			m.Subject = pick()
		}
		if err := writeMemoryFile(root, m); err != nil {
			return err
		}
	}
	return nil
}

// generateQueryGraph writes a global graph of exactly entities names and edges distinct
// relations (ends drawn with a preferential skew: a few hubs, a long tail), ten relation lines
// to a memory.
func generateQueryGraph(root string, entities, edges int, seed uint64) ([]string, error) {
	r := rand.New(rand.NewPCG(seed, 17))
	v := newVocab(r)
	names := entityNames(r, v, entities)
	skew := rand.NewZipf(r, 1.05, 8, uint64(entities-1))
	end := func() int {
		if r.IntN(2) == 0 {
			return int(skew.Uint64())
		}
		return r.IntN(entities)
	}
	type triple struct{ a, b, t int }
	seen := make(map[triple]bool, edges)
	var lines []string
	// Every entity appears at least once, in a chain, so the count is exact and the graph mostly connected.
	for i := 1; i < entities && len(lines) < edges; i++ {
		t := triple{r.IntN(i), i, r.IntN(len(relTypes))}
		seen[t] = true
		lines = append(lines, fmt.Sprintf("- [[%s]] %s [[%s]]", names[t.a], relTypes[t.t], names[t.b]))
	}
	for len(lines) < edges {
		t := triple{end(), end(), r.IntN(len(relTypes))}
		if t.a == t.b || seen[t] {
			continue
		}
		seen[t] = true
		lines = append(lines, fmt.Sprintf("- [[%s]] %s [[%s]]", names[t.a], relTypes[t.t], names[t.b]))
	}
	now := time.Now()
	for i := 0; i*10 < len(lines); i++ {
		m := &memory.Memory{ID: ulid.Make().String(), Slug: fmt.Sprintf("rel-%06d", i), Type: memory.TypeReference,
			Confidence: memory.ConfidenceMedium, Reviewed: true, SourceQuote: "synthetic", Created: now, Updated: now,
			Title: fmt.Sprintf("relations %d", i), Body: strings.Join(lines[i*10:min(len(lines), i*10+10)], "\n"), Scope: memory.ScopeGlobal}
		if err := writeMemoryFile(root, m); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// timedOpen builds the index of home from its files and returns the store and the seconds taken.
func timedOpen(ctx context.Context, home string) (*memory.Store, float64, error) {
	t0 := time.Now()
	st, err := memory.Open(ctx, home, memory.Options{})
	return st, time.Since(t0).Seconds(), err
}

// RunGraph measures the graph: the build from buildN memories in the grammar (against the same
// files without links), and neighbours and path latency over a graph of entities / edges.
// queries is how many of each query are timed.
func RunGraph(ctx context.Context, buildN, entities, edges, queries int, progress io.Writer) (GraphFigures, error) {
	f := GraphFigures{BuildMemories: buildN, QueryEntities: entities, QueryEdges: edges, GoalP95Ms: 20, QueriesPerMeasure: queries}
	say := func(format string, a ...any) {
		if progress != nil {
			fmt.Fprintf(progress, "  [graph] "+format+"\n", a...)
		}
	}
	home := func() (string, func(), error) {
		h, err := os.MkdirTemp("", "engram-bench-graph-")
		return h, func() { os.RemoveAll(h) }, err
	}
	if buildN > 0 {
		for _, plain := range []bool{true, false} {
			h, done, err := home()
			if err != nil {
				return f, err
			}
			say("generating %d memories (links: %v)", buildN, !plain)
			if err := generateGraphMemories(h, buildN, uint64(buildN), plain); err != nil {
				done()
				return f, err
			}
			say("cold index build")
			st, sec, err := timedOpen(ctx, h)
			if err != nil {
				done()
				return f, err
			}
			if plain {
				f.PlainBuildSec = sec
			} else {
				f.ColdBuildSec = sec
				g := graph.New(st)
				t0 := time.Now()
				sg, err := g.Subgraph(ctx, graph.View{All: true}, "", 0, graph.Filter{}, 1)
				f.BuildResolveMs = float64(time.Since(t0).Microseconds()) / 1000
				if err != nil {
					st.Close()
					done()
					return f, err
				}
				_ = sg
				if d, err := st.GraphData(ctx); err == nil {
					f.BuildEntities = len(d.Entities)
					f.BuildEdges = len(d.Relations)
				}
			}
			st.Close()
			done()
		}
	}
	if entities <= 0 {
		return f, nil
	}
	h, done, err := home()
	if err != nil {
		return f, err
	}
	defer done()
	say("generating a graph of %d entities / %d relations", entities, edges)
	names, err := generateQueryGraph(h, entities, edges, uint64(entities))
	if err != nil {
		return f, err
	}
	st, _, err := timedOpen(ctx, h)
	if err != nil {
		return f, err
	}
	defer st.Close()
	g := graph.New(st)
	all := graph.View{All: true}
	t0 := time.Now()
	if _, err := g.Entities(ctx, all, "", nil, 1); err != nil {
		return f, err
	}
	f.QueryResolveMs = float64(time.Since(t0).Microseconds()) / 1000
	r := rand.New(rand.NewPCG(uint64(edges), 5))
	measure := func(what string, fn func() (bool, error)) ([]time.Duration, int, error) {
		say("%s × %d", what, queries)
		lat := make([]time.Duration, 0, queries)
		hits := 0
		for i := 0; i < queries; i++ {
			t := time.Now()
			ok, err := fn()
			if err != nil {
				return nil, 0, err
			}
			lat = append(lat, time.Since(t))
			if ok {
				hits++
			}
		}
		return lat, hits, nil
	}
	name := func() string { return names[r.IntN(len(names))] }
	for _, depth := range []int{1, 2} {
		lat, _, err := measure(fmt.Sprintf("neighbours depth %d", depth), func() (bool, error) {
			_, err := g.Neighbors(ctx, all, name(), depth, graph.Filter{}, 0)
			return true, err
		})
		if err != nil {
			return f, err
		}
		if depth == 1 {
			f.Neighbors1P50Ms, f.Neighbors1P95Ms = percentile(lat, .5), percentile(lat, .95)
		} else {
			f.Neighbors2P50Ms, f.Neighbors2P95Ms = percentile(lat, .5), percentile(lat, .95)
		}
	}
	lat, found, err := measure("path", func() (bool, error) {
		p, err := g.Path(ctx, all, name(), name(), 0, graph.Filter{})
		return p.Found, err
	})
	if err != nil {
		return f, err
	}
	f.PathP50Ms, f.PathP95Ms = percentile(lat, .5), percentile(lat, .95)
	f.PathFoundShare = float64(found) / float64(queries)
	return f, nil
}

// PrintGraph writes the figures as a table (or JSON).
func PrintGraph(w io.Writer, f GraphFigures, asJSON bool) {
	if asJSON {
		_ = json.NewEncoder(w).Encode(f)
		return
	}
	if f.BuildMemories > 0 {
		fmt.Fprintf(w, "graph build from %d memories in the grammar (%d entities, %d relation rows)\n", f.BuildMemories, f.BuildEntities, f.BuildEdges)
		fmt.Fprintf(w, "  %-44s %8.1f s\n", "cold index build, graph included", f.ColdBuildSec)
		fmt.Fprintf(w, "  %-44s %8.1f s\n", "same files, links as plain text (no graph)", f.PlainBuildSec)
		fmt.Fprintf(w, "  %-44s %8.1f ms\n", "rows → resolved graph (first query)", f.BuildResolveMs)
	}
	if f.QueryEntities > 0 {
		fmt.Fprintf(w, "graph queries at %d entities / %d relations, %d queries each (goal p95 ≤ %.0f ms)\n", f.QueryEntities, f.QueryEdges, f.QueriesPerMeasure, f.GoalP95Ms)
		fmt.Fprintf(w, "  %-44s %8.1f ms\n", "rows → resolved graph (first query)", f.QueryResolveMs)
		fmt.Fprintf(w, "  %-30s p50 %7.2f  p95 %7.2f ms\n", "neighbours, depth 1", f.Neighbors1P50Ms, f.Neighbors1P95Ms)
		fmt.Fprintf(w, "  %-30s p50 %7.2f  p95 %7.2f ms\n", "neighbours, depth 2", f.Neighbors2P50Ms, f.Neighbors2P95Ms)
		fmt.Fprintf(w, "  %-30s p50 %7.2f  p95 %7.2f ms  (found %.0f%%)\n", "shortest path (≤ 4 hops)", f.PathP50Ms, f.PathP95Ms, 100*f.PathFoundShare)
	}
}
