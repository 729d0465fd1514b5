package desktop

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPaintMarkKeepsTheFirstOfEachKindInOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mark")
	m := paintMark{path: path}
	at := time.Unix(1700000000, 5)
	steps := []struct {
		event string
		at    time.Time
	}{
		{ShellPaintedEvent, at},
		{ShellPaintedEvent, at.Add(time.Second)}, // a reload: ignored
		{PaintedEvent, at.Add(2 * time.Second)},
		{PaintedEvent, at.Add(3 * time.Second)},
	}
	for _, s := range steps {
		if err := m.write(s.event, s.at); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "1700000000000000005 shell\n1700000002000000005 app\n"
	if string(got) != want {
		t.Fatalf("mark file %q, want %q", got, want)
	}
	if err := m.write("engram:other", at); err == nil {
		t.Fatal("an unknown event was accepted")
	}
}
