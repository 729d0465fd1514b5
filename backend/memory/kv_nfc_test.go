package memory

import (
	"os"
	"path/filepath"
	"testing"
)

// A key spelled with a composed letter and the same key spelled with a combining accent are
// one key, whichever spelling sets, reads, lists or deletes it, and in a hand-edited file.
func TestKVKeySpellingsAreOneKey(t *testing.T) {
	e := newEnv(t)
	composed, decomposed := "café.order", "cafe\u0301.order"
	e.kvMust("barista", decomposed, `"flat white"`)
	if v, err := e.s.KVGet(e.ctx, "barista", composed); err != nil || string(v) != `"flat white"` {
		t.Fatalf("get by the other spelling: %s, %v", v, err)
	}
	res, err := e.kvSet("barista", composed, `"espresso"`)
	if err != nil || res.Created {
		t.Fatalf("set by the other spelling: %+v, %v (it must change the one key, not add one)", res, err)
	}
	p, err := e.s.KVList(e.ctx, "barista", "cafe\u0301", "", 10)
	if err != nil || p.Total != 1 || len(p.Entries) != 1 || p.Entries[0].Key != composed || string(p.Entries[0].Value) != `"espresso"` {
		t.Fatalf("list: %+v, %v", p, err)
	}
	if err := e.s.KVDelete(e.ctx, KVChange{Agent: "barista", Key: decomposed, Actor: ActorUser}); err != nil {
		t.Fatalf("delete by the other spelling: %v", err)
	}
	if _, err := e.s.KVGet(e.ctx, "barista", composed); CodeOf(err) != CodeKVNotFound {
		t.Fatalf("after delete: %v", err)
	}
	// A hand-written file: its decomposed key is found by the composed spelling; a file
	// holding both spellings repeats a key.
	path := filepath.Join(e.s.Root(), "agents", "hand", KVFileName)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"`+decomposed+`": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if v, err := e.s.KVGet(e.ctx, "hand", composed); err != nil || string(v) != "1" {
		t.Fatalf("hand file, composed spelling: %s, %v", v, err)
	}
	if _, fault := parseKV([]byte(`{"` + decomposed + `": 1, "` + composed + `": 2}`)); fault == nil || fault.key != "detail.kv_repeated_key" {
		t.Fatalf("both spellings in one file: %+v", fault)
	}
}
