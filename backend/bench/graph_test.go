//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestGraphBenchSmall: the graph benchmark runs end to end at small sizes over real stores, its
// query graph has exactly the entities and relations asked for, and both outputs carry the figures.
func TestGraphBenchSmall(t *testing.T) {
	ctx := context.Background()
	f, err := RunGraph(ctx, 300, 200, 1000, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.BuildEntities == 0 || f.BuildEdges == 0 || f.ColdBuildSec <= 0 || f.PlainBuildSec <= 0 {
		t.Fatalf("build figures: %+v", f)
	}
	if f.Neighbors1P95Ms <= 0 || f.Neighbors2P95Ms <= 0 || f.PathP95Ms <= 0 || f.PathFoundShare == 0 {
		t.Fatalf("query figures: %+v", f)
	}
	var table, js bytes.Buffer
	PrintGraph(&table, f, false)
	PrintGraph(&js, f, true)
	if !strings.Contains(table.String(), "neighbours, depth 2") || !strings.Contains(table.String(), "graph build from 300 memories") {
		t.Fatalf("table:\n%s", table.String())
	}
	var back GraphFigures
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.QueryEdges != 1000 {
		t.Fatalf("json %s: %v", js.String(), err)
	}
}

// The query graph holds exactly the entities and distinct relations asked for.
func TestQueryGraphSize(t *testing.T) {
	home := t.TempDir()
	if _, err := generateQueryGraph(home, 150, 600, 1); err != nil {
		t.Fatal(err)
	}
	st, _, err := timedOpen(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, err := st.GraphData(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entities) != 150 || len(d.Relations) != 600 {
		t.Fatalf("%d entities, %d relations", len(d.Entities), len(d.Relations))
	}
}
