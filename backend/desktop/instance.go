package desktop

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// ErrRunning is returned by Claim when another desktop window already runs on the home and
// was asked to come to the front.
var ErrRunning = errors.New("desktop: another window is open on this home")

// ErrNoAnswer is returned by Claim when another process holds the home's lock but does not
// answer on its socket (it is starting or stopping, or hangs).
var ErrNoAnswer = errors.New("desktop: another window holds this home but does not answer")

const (
	lockName   = "desktop.lock"
	socketName = "desktop.sock"
	focusMsg   = "focus"
	okMsg      = "ok"
	// maxSocketPath keeps under the 108-byte sun_path limit of unix sockets on Linux.
	maxSocketPath = 100
)

// Instance is the single desktop window of one home: it holds the home's lock file and
// listens on a unix socket where a second launch asks it to come to the front. Wails' own
// single-instance lock needs a D-Bus session bus, which Xvfb runs and some desktops lack, so
// the app keeps its own. A different home has its own lock and opens its own window.
type Instance struct {
	lock    *os.File
	ln      net.Listener
	sock    string
	signals chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

// SocketPath is where the window of home listens: in the home, or in the temp folder under a
// hash of the home when the path would be too long for a unix socket.
func SocketPath(home string) string {
	p := filepath.Join(home, socketName)
	if len(p) <= maxSocketPath {
		return p
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		abs = home
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(os.TempDir(), "engram-"+hex.EncodeToString(sum[:8])+".sock")
}

// Claim is called before a desktop window opens on home. It takes the home's lock and starts
// listening for focus requests; when another process holds the lock it asks that process to
// show its window and returns ErrRunning (or ErrNoAnswer when it gets no answer within wait).
// While it waits for an answer it tries the lock again: a holder whose window is closing
// stops answering, then lets go, and the home is this launch's.
func Claim(home string, wait time.Duration) (*Instance, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("desktop: unable to create the home: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(home, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("desktop: unable to open the window lock: %w", err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("desktop: unable to lock the window lock: %w", err)
		}
		// The holder may not listen yet (starting) or any more (closing).
		serr := trySignal(SocketPath(home))
		if serr == nil {
			f.Close()
			return nil, ErrRunning
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w: %v", ErrNoAnswer, serr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The lock is ours: a socket file left by a process that died is stale.
	sock := SocketPath(home)
	_ = os.Remove(sock)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("desktop: unable to listen for a second launch: %w", err)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	in := &Instance{lock: f, ln: ln, sock: sock, signals: make(chan struct{}, 1)}
	in.wg.Add(1)
	go in.serve()
	return in, nil
}

// Focus receives one value each time a second launch asks the window to come to the front.
// Requests that arrive before anyone reads collapse into one.
func (in *Instance) Focus() <-chan struct{} { return in.signals }

func (in *Instance) serve() {
	defer in.wg.Done()
	for {
		c, err := in.ln.Accept()
		if err != nil {
			return // closed
		}
		in.wg.Add(1)
		go func() {
			defer in.wg.Done()
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(5 * time.Second))
			line, err := bufio.NewReader(c).ReadString('\n')
			if err != nil || line != focusMsg+"\n" {
				return // not ours: say nothing
			}
			select {
			case in.signals <- struct{}{}:
			default: // one is already pending
			}
			_, _ = c.Write([]byte(okMsg + "\n"))
		}()
	}
}

// Close stops listening, removes the socket and releases the lock (when the window closes).
func (in *Instance) Close() error {
	var err error
	in.once.Do(func() {
		err = in.ln.Close()
		in.wg.Wait()
		_ = os.Remove(in.sock)
		_ = syscall.Flock(int(in.lock.Fd()), syscall.LOCK_UN)
		if cerr := in.lock.Close(); err == nil {
			err = cerr
		}
	})
	return err
}

// trySignal asks the window listening on sock to come to the front, once.
func trySignal(sock string) error {
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte(focusMsg + "\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != okMsg+"\n" {
		return fmt.Errorf("unexpected answer %q", line)
	}
	return nil
}
