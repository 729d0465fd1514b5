package settings

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"engram/backend/memory"
)

// newService runs the service over a real store on a temporary home.
func newService(t *testing.T) (*Service, *memory.Store) {
	t.Helper()
	st, err := memory.Open(context.Background(), t.TempDir(), memory.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(st, "zh-CN"), st
}

func sp(s string) *string { return &s }
func bp(b bool) *bool     { return &b }

func TestDefaultsAndUpdate(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	st, err := s.Get(ctx)
	if err != nil || st.Language != "zh-CN" || st.Theme != "system" || st.RemoteEnabled || st.RemoteAddr == "" {
		t.Fatalf("defaults %+v %v", st, err)
	}
	var seen []Settings
	s.OnChange(func(x Settings) { seen = append(seen, x) })
	st, err = s.Update(ctx, Patch{Language: sp("en"), Theme: sp("dark"), RemoteEnabled: bp(true), RemoteAddr: sp("127.0.0.1:5000")})
	if err != nil || st.Language != "en" || st.Theme != "dark" || !st.RemoteEnabled || st.RemoteAddr != "127.0.0.1:5000" {
		t.Fatalf("update %+v %v", st, err)
	}
	if again, _ := s.Get(ctx); again != st {
		t.Fatalf("not persisted: %+v", again)
	}
	if len(seen) != 1 || seen[0] != st {
		t.Fatalf("listeners got %+v", seen)
	}
}

func TestInvalidValuesRefusedAndNothingSaved(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	for _, p := range []Patch{
		{Language: sp("fr")},
		{Theme: sp("neon")},
		{RemoteAddr: sp("0.0.0.0:80")},
		{RemoteAddr: sp("example.com:80")},
		{RemoteAddr: sp("127.0.0.1")},
		{RemoteAddr: sp("127.0.0.1:99999")},
		{RemoteAddr: sp("127.0.0.1:http")},
		{RemoteAddr: sp("[::1]:-1")},
		{Language: sp("en"), Theme: sp("bogus")},
	} {
		_, err := s.Update(ctx, p)
		var ie *InvalidError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInvalid) {
			t.Fatalf("%+v: want InvalidError, got %v", p, err)
		}
	}
	if st, _ := s.Get(ctx); st.Language != "zh-CN" || st.Theme != "system" {
		t.Fatalf("a refused patch changed settings: %+v", st)
	}
}

func TestDamagedRowFallsBackToDefaults(t *testing.T) {
	ctx := context.Background()
	s, st := newService(t)
	if err := st.PutSetting(ctx, "app.settings", "{not json"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx)
	if err != nil || got.Language != "zh-CN" {
		t.Fatalf("damaged row: %+v %v", got, err)
	}
}

func ip(i int) *int { return &i }

// The git sync schedule: 15 minutes on a fresh home and on a row saved before the setting
// existed, 0 (only on demand) to a day accepted and kept, anything else refused unsaved.
func TestSyncMinutes(t *testing.T) {
	ctx := context.Background()
	s, st := newService(t)
	if got, _ := s.Get(ctx); got.SyncMinutes != DefaultSyncMinutes {
		t.Fatalf("fresh home: %d minutes", got.SyncMinutes)
	}
	if err := st.PutSetting(ctx, "app.settings", `{"version":1,"language":"en","theme":"dark"}`); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx); got.SyncMinutes != DefaultSyncMinutes || got.Theme != "dark" {
		t.Fatalf("row without the field: %+v", got)
	}
	for _, n := range []int{0, 1, 60, MaxSyncMinutes} {
		got, err := s.Update(ctx, Patch{SyncMinutes: ip(n)})
		if err != nil || got.SyncMinutes != n {
			t.Fatalf("%d: %+v %v", n, got, err)
		}
		if again, _ := s.Get(ctx); again.SyncMinutes != n {
			t.Fatalf("%d not persisted: %d", n, again.SyncMinutes)
		}
	}
	for _, n := range []int{-1, MaxSyncMinutes + 1} {
		_, err := s.Update(ctx, Patch{SyncMinutes: ip(n)})
		var ie *InvalidError
		if !errors.As(err, &ie) || ie.Field != "sync_minutes" {
			t.Fatalf("%d: want InvalidError on sync_minutes, got %v", n, err)
		}
	}
	if got, _ := s.Get(ctx); got.SyncMinutes != MaxSyncMinutes {
		t.Fatalf("a refused value changed the schedule: %d", got.SyncMinutes)
	}
	if err := st.PutSetting(ctx, "app.settings", `{"version":1,"sync_minutes":-5}`); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx); got.SyncMinutes != DefaultSyncMinutes {
		t.Fatalf("out-of-range row: %d", got.SyncMinutes)
	}
}
