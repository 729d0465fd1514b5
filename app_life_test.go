package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"engram/backend/desktop"
	"engram/backend/settings"
)

// holdStoreLock takes the store's cross-process lock of home, as another Engram process does
// during a long write or a migration: an open of home waits until release is called.
func holdStoreLock(t *testing.T, home string) (release func()) {
	t.Helper()
	root := filepath.Join(home, "memory")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(root, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}
	}
	t.Cleanup(release)
	return release
}

// The window closed while its store was still opening (another process held the store): a
// launch from then on gets the home and opens its own window, instead of being told that a
// window is open when none is; the closed window's process still waits for its store and
// closes it.
func TestCloseWindowWhileStoreOpensReleasesHome(t *testing.T) {
	home := t.TempDir()
	release := holdStoreLock(t, home)
	inst, err := desktop.Claim(home, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	app := NewApp(home, testCatalog(t), "en", "test", nil)
	app.StartPending(context.Background())
	closed := make(chan error, 1)
	go func() { closed <- app.CloseWindow(inst) }()

	deadline := time.Now().Add(30 * time.Second)
	for {
		again, err := desktop.Claim(home, time.Second)
		if err == nil {
			again.Close()
			break
		}
		if !errors.Is(err, desktop.ErrRunning) {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("a launch after the window closed is still told a window is open on the home")
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case err := <-closed:
		t.Fatalf("the closed window's process stopped (%v) while its store could not open yet", err)
	default:
	}
	release()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if err := app.Opened(); err != nil {
		t.Fatal(err)
	}
}

// enableRemote turns Settings → Remote access on for home (any free loopback port), so a
// desktop App starts its bridge after the first paint.
func enableRemote(t *testing.T, home string) {
	t.Helper()
	app := NewApp(home, testCatalog(t), "en", "test", nil)
	if err := app.Start(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	on, addr := true, "127.0.0.1:0"
	if _, err := app.Settings.Update(context.Background(), settings.Patch{RemoteEnabled: &on, RemoteAddr: &addr}); err != nil {
		t.Fatal(err)
	}
	if err := app.Stop(); err != nil {
		t.Fatal(err)
	}
}

// The window closed while the store opened: the start-up work after the first paint
// (AfterShow: watcher, indexer, bridge) and Stop are let go by the same open. Whichever runs
// first, nothing is left running once both returned (no bridge started after Stop stopped
// it), and -race sees no start racing the close.
func TestAfterShowRacingStopLeavesNothingRunning(t *testing.T) {
	home := t.TempDir()
	enableRemote(t, home)
	for i := range 8 {
		app := NewApp(home, testCatalog(t), "en", "test", nil)
		app.StartPending(context.Background())
		shown := make(chan struct{})
		go func() {
			defer close(shown)
			app.AfterShow()
		}()
		if err := app.Stop(); err != nil {
			t.Fatal(err)
		}
		<-shown
		app.bridgeMu.Lock()
		running := app.bridge != nil
		app.bridgeMu.Unlock()
		if running {
			app.stopBridge()
			t.Fatalf("round %d: the bridge runs after Stop returned", i)
		}
	}
}
