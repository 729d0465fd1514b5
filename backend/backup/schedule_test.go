package backup

import (
	"context"
	"testing"
	"time"

	"engram/backend/memory"
)

// A long-running process's scheduler writes the first scheduled backup as soon as the schedule
// is turned on (nothing was backed up yet), then arms its timer from that backup's time.
func TestSchedulerWritesADueBackup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	home := t.TempDir()
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := NewScheduler(st, "test", nil)
	if due, _, err := s.Due(ctx); err != nil || !due.IsZero() {
		t.Fatalf("schedule off by default: due %v (%v)", due, err)
	}
	done := make(chan Result, 1)
	s.OnDone = func(r Result, err error) {
		if err != nil {
			t.Errorf("scheduled backup: %v", err)
		}
		done <- r
	}
	stopped := make(chan struct{})
	go func() { s.Run(ctx); close(stopped) }()
	if err := SaveSchedule(ctx, st, Schedule{IntervalHours: 6, Keep: 2}); err != nil {
		t.Fatal(err)
	}
	s.Wake()
	var r Result
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("no scheduled backup was written")
	}
	list, err := List(DefaultDir(home))
	if err != nil || len(list) != 1 || list[0].Path != r.Path || !list[0].Scheduled {
		t.Fatalf("backups %+v (%v), wrote %s", list, err, r.Path)
	}
	due, _, _ := s.Due(ctx)
	if d := due.Sub(st.Now()); d < 5*time.Hour || d > 6*time.Hour {
		t.Fatalf("next due in %v, want about 6h", d)
	}
	cancel()
	<-stopped
}

// checkName accepts only the archive's layout and refuses every path trick.
func TestCheckName(t *testing.T) {
	for name, ok := range map[string]bool{
		"manifest.json": true, "index.sqlite3": true, "memory/global/user/a.md": true, "memory/agents/x/kv.json": true,
		"../a": false, "memory/../../a": false, "/etc/passwd": false, "memory\\..\\a": false, "other/a.md": false,
		"": false, "memory/a/../../b": false, "memory/\x00": false,
	} {
		if _, err := checkName(name); (err == nil) != ok {
			t.Errorf("checkName(%q) err=%v, want ok=%v", name, err, ok)
		}
	}
}
