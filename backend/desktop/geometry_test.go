package desktop

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGeometryIsSavedAndRestored(t *testing.T) {
	home := t.TempDir()
	if _, ok := LoadGeometry(home); ok {
		t.Fatal("a fresh home has no geometry")
	}
	want := Geometry{X: 40, Y: 30, Width: 1000, Height: 700}
	if err := SaveGeometry(home, want); err != nil {
		t.Fatal(err)
	}
	got, ok := LoadGeometry(home)
	if !ok || got != want {
		t.Fatalf("got %+v %v, want %+v", got, ok, want)
	}
	// No temp files left beside it.
	ents, _ := os.ReadDir(home)
	if len(ents) != 1 {
		t.Fatalf("home holds %d files", len(ents))
	}
}

func TestUnreadableGeometryIsIgnored(t *testing.T) {
	home := t.TempDir()
	for _, body := range []string{"{", `{"width":0,"height":700}`, `{"width":-5,"height":-1}`} {
		if err := os.WriteFile(filepath.Join(home, geometryName), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if g, ok := LoadGeometry(home); ok {
			t.Errorf("%s: loaded %+v", body, g)
		}
	}
}

func TestGeometryIsClampedToTheScreen(t *testing.T) {
	cases := []struct {
		name   string
		in     Geometry
		sw, sh int
		want   Geometry
	}{
		{"fits", Geometry{X: 10, Y: 20, Width: 1000, Height: 600}, 1920, 1080, Geometry{X: 10, Y: 20, Width: 1000, Height: 600}},
		{"off to the right and below", Geometry{X: 3000, Y: 2000, Width: 1000, Height: 600}, 1920, 1080, Geometry{X: 920, Y: 480, Width: 1000, Height: 600}},
		{"negative", Geometry{X: -500, Y: -40, Width: 1000, Height: 600}, 1920, 1080, Geometry{X: 0, Y: 0, Width: 1000, Height: 600}},
		{"larger than the screen", Geometry{X: 50, Y: 50, Width: 4000, Height: 3000}, 1280, 800, Geometry{X: 0, Y: 0, Width: 1280, Height: 800}},
		{"below the minimum", Geometry{X: 5, Y: 5, Width: 100, Height: 100}, 1920, 1080, Geometry{X: 5, Y: 5, Width: MinWidth, Height: MinHeight}},
		{"unknown screen", Geometry{X: 7000, Y: 9, Width: 1000, Height: 600}, 0, 0, Geometry{X: 7000, Y: 9, Width: 1000, Height: 600}},
	}
	for _, c := range cases {
		if got := c.in.Clamp(c.sw, c.sh); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
