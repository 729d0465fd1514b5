package bridge

import (
	"context"
	"errors"
	"testing"

	"engram/backend/api"
	"engram/backend/memory"
)

// An address that is not host:port with a port from 0 to 65535 is ErrInvalidAddr (which the
// app says in the person's language); it was a plain error repeating the resolver's English.
func TestInvalidAddressIsNamed(t *testing.T) {
	ctx := context.Background()
	st, err := memory.Open(ctx, t.TempDir(), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := api.New(ctx, api.Deps{Store: st}, memory.ActorBridge)
	for _, addr := range []string{"nonsense", "127.0.0.1:99999", "[::1]:47993x", "127.0.0.1:-1", "127.0.0.1:http"} {
		srv, err := New(Config{Addr: addr, Home: t.TempDir()}, a, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); !errors.Is(err, ErrInvalidAddr) {
			srv.Stop(ctx)
			t.Fatalf("%s: want ErrInvalidAddr, got %v", addr, err)
		}
	}
}
