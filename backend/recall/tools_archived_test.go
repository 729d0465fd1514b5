package recall

import (
	"testing"

	"engram/backend/memory"
)

// TestMemoryManagerLeavesTheArchiveAlone: a memory the person archived is out of every list,
// search and slug lookup a model has, but by its id the tool still read it and deleted it
// (an agent's memory_delete moved the person's archived memory to the trash, while an update
// of it failed as not found). The archive is now out of reach whichever way it is named.
func TestMemoryManagerLeavesTheArchiveAlone(t *testing.T) {
	e := newEnv(t)
	r := e.write(mem{slug: "old-address", title: "Lived in Paris until 2020"})
	res, err := e.store.ApplyBatch(e.ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpArchive, ID: r[0].ID}}, Actor: memory.ActorUser})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("archive: %v %+v", err, res.Results)
	}
	env := ToolEnv{ReadWrite: true, Agent: "claude"}
	for _, args := range []string{
		`{"action":"read","id":"` + r[0].ID + `"}`,
		`{"action":"update","id":"` + r[0].ID + `","body":"Lives in Berlin"}`,
		`{"action":"delete","id":"` + r[0].ID + `"}`,
		`{"action":"read","slug":"old-address"}`,
		`{"action":"delete","slug":"old-address","scope":"global"}`,
	} {
		got := call(t, e, env, args)
		if got.OK || got.Error.Code != memory.CodeNotFound {
			t.Errorf("%s: ok %v %+v, want not_found", args, got.OK, got.Error)
		}
	}
	m, err := e.store.Get(e.ctx, r[0].ID)
	if err != nil || !m.Archived || m.Body != "Lived in Paris until 2020" {
		t.Fatalf("the archived memory after the calls: %+v %v", m, err)
	}
}
