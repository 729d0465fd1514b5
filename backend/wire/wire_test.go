package wire

import (
	"context"
	"testing"

	"engram/backend/api"
)

// TestOpenWiresOneRecallForEveryAPI: the services come up on a fresh home, an api of each
// actor searches through the one recall wire built (a write is found at once), the
// background work starts, and Close ends it and releases the home for the next process.
func TestOpenWiresOneRecallForEveryAPI(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	for _, passive := range []bool{false, true} {
		svc, err := Open(ctx, Options{Home: home, Lang: "en", Passive: passive})
		if err != nil {
			t.Fatal(err)
		}
		if svc.Recall == nil || svc.Indexer() == nil || svc.Organizer == nil || svc.Events == nil {
			t.Fatalf("services missing: %+v", svc)
		}
		if !passive {
			svc.Background()
		}
		user, br := svc.API(ctx, api.ActorUser), svc.API(ctx, api.ActorBridge)
		if user.Actor() != api.ActorUser || br.Actor() != api.ActorBridge {
			t.Fatalf("actors %s %s", user.Actor(), br.Actor())
		}
		if !passive {
			if _, err := user.Memory.Write(api.WriteParams{Scope: api.ScopeGlobal, Type: api.TypeUser, Slug: "likes-tea",
				Title: "Likes tea", Body: "Drinks green tea every morning"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, a := range []*api.API{user, br} {
			res, err := a.Memory.Search(api.SearchParams{Query: "green tea"})
			if err != nil || len(res.Hits) != 1 || res.Hits[0].Memory.Slug != "likes-tea" {
				t.Fatalf("passive=%v %s search: %v %+v", passive, a.Actor(), err, res)
			}
		}
		if err := svc.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
