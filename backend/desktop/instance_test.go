package desktop

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The helper process: a second launch on the home named by the environment.
func TestMain(m *testing.M) {
	if home := os.Getenv("ENGRAM_TEST_CLAIM_HOME"); home != "" {
		in, err := Claim(home, 5*time.Second)
		switch {
		case errors.Is(err, ErrRunning):
			os.Exit(0)
		case err == nil:
			in.Close()
			os.Exit(3) // it got the lock: no first window was seen
		default:
			os.Stderr.WriteString(err.Error())
			os.Exit(4)
		}
	}
	os.Exit(m.Run())
}

func received(t *testing.T, in *Instance) bool {
	t.Helper()
	select {
	case <-in.Focus():
		return true
	case <-time.After(5 * time.Second):
		return false
	}
}

func TestSecondClaimAsksTheFirstToComeForward(t *testing.T) {
	home := t.TempDir()
	first, err := Claim(home, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := Claim(home, 2*time.Second)
	if !errors.Is(err, ErrRunning) || second != nil {
		t.Fatalf("second claim: %v, %v; want ErrRunning", second, err)
	}
	if !received(t, first) {
		t.Fatal("the first window was not asked to come forward")
	}
}

func TestSecondLaunchInAnotherProcess(t *testing.T) {
	home := t.TempDir()
	first, err := Claim(home, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ENGRAM_TEST_CLAIM_HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("second process: %v %s", err, out)
	}
	if !received(t, first) {
		t.Fatal("the first window was not asked to come forward")
	}
	// The first still owns the home: a third launch is refused as well.
	if _, err := Claim(home, time.Second); !errors.Is(err, ErrRunning) {
		t.Fatalf("third claim: %v", err)
	}
}

func TestDifferentHomesOpenTheirOwnWindows(t *testing.T) {
	a, err := Claim(t.TempDir(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Claim(t.TempDir(), time.Second)
	if err != nil {
		t.Fatalf("a second home was refused: %v", err)
	}
	b.Close()
}

func TestCloseReleasesTheHomeAndStaleSocketsAreReplaced(t *testing.T) {
	home := t.TempDir()
	// A socket file left by a process that was killed.
	if err := os.WriteFile(SocketPath(home), []byte("stale"), 0o600); err != nil {
		t.Fatal(err)
	}
	first, err := Claim(home, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(SocketPath(home)); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}
	again, err := Claim(home, time.Second)
	if err != nil {
		t.Fatalf("claim after close: %v", err)
	}
	again.Close()
}

func TestAHolderThatDoesNotAnswer(t *testing.T) {
	home := t.TempDir()
	holdLock(t, home)
	_, err := Claim(home, 200*time.Millisecond)
	if !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("got %v, want ErrNoAnswer", err)
	}
}

func TestALongHomeListensInTheTempFolder(t *testing.T) {
	home := filepath.Join(t.TempDir(), strings.Repeat("long-folder-name/", 8))
	sock := SocketPath(home)
	if len(sock) > maxSocketPath || strings.HasPrefix(sock, home) {
		t.Fatalf("socket path %q", sock)
	}
	first, err := Claim(home, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if _, err := Claim(home, 2*time.Second); !errors.Is(err, ErrRunning) {
		t.Fatalf("second claim: %v", err)
	}
	if !received(t, first) {
		t.Fatal("not signalled")
	}
}

// A launch that finds the home held while its window is closing (the lock still held, the
// socket no longer answering) takes the home once it is let go, instead of reporting a window
// that does not answer.
func TestALaunchTakesTheHomeItsClosingHolderLetsGo(t *testing.T) {
	home := t.TempDir()
	f := holdLock(t, home)
	ln, err := net.Listen("unix", SocketPath(home))
	if err != nil {
		t.Fatal(err)
	}
	type claimed struct {
		in  *Instance
		err error
	}
	got := make(chan claimed, 1)
	go func() {
		in, err := Claim(home, 30*time.Second)
		got <- claimed{in, err}
	}()
	// The launch asks the holder to come forward: the holder is closing, it answers nothing
	// and lets go of the home.
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	ln.Close()
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	r := <-got
	if r.err != nil {
		t.Fatalf("launch after the holder let go: %v", r.err)
	}
	r.in.Close()
}

// holdLock takes home's window lock as another process's window would, until f is closed
// (at the latest when the test ends).
func holdLock(t *testing.T, home string) *os.File {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(home, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	return f
}
