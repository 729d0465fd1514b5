package memory

import "testing"

// The steps an index records are checked by name at every open (checkSteps), and an index
// whose step of a number has another name is rebuilt from the files. So a shipped step's name
// is part of the index format: renaming one, even to fix a typo, would rebuild every home.
// Add a new step instead; this list only grows.
func TestShippedStepNamesNeverChange(t *testing.T) {
	shipped := map[int]string{
		1:  "initial schema",
		2:  "access tracking kept across reindex",
		3:  "stemmed word index",
		4:  "recall support",
		5:  "file ctime and inode",
		6:  "llm usage by time",
		7:  "extraction run gates",
		8:  "sessions and transcript dedupe",
		9:  "knowledge graph",
		10: "storage history and organizer run scope",
		11: "graph entity names",
		12: "lean full-text index",
		13: "project identities",
		14: "turn index only for turns",
		15: "covering index of file stamps",
		16: "lean memory rows",
		17: "user memories by date",
		18: "every CJK character begins a token",
		19: "stamp version",
		20: "vector change log, whole",
		21: "word tokens made in Go",
		22: "hand notes without an id",
	}
	for v, name := range shipped {
		if v > len(migrations) || migrations[v-1].version != v || migrations[v-1].name != name {
			t.Errorf("step %d was shipped as %q", v, name)
		}
	}
	for i, m := range migrations {
		if m.version != i+1 {
			t.Fatalf("step at %d is numbered %d: steps are numbered 1, 2, 3 … with no gap", i, m.version)
		}
	}
}
