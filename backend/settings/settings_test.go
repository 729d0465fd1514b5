package settings

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

func newService(t *testing.T) (*Service, *sql.DB) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "s.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return New(db, "zh-CN"), db
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
	s, db := newService(t)
	if _, err := db.Exec(`INSERT INTO settings(key, value) VALUES('app.settings', '{not json')`); err != nil {
		t.Fatal(err)
	}
	st, err := s.Get(ctx)
	if err != nil || st.Language != "zh-CN" {
		t.Fatalf("damaged row: %+v %v", st, err)
	}
}
