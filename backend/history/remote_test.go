package history

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	git "github.com/go-git/go-git/v5"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	xknownhosts "golang.org/x/crypto/ssh/knownhosts"

	"engram/backend/memory"
)

// gitBinary is the real git, whose http-backend and upload/receive-pack serve the test remotes.
func gitBinary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("these tests serve a bare repository with the git binary: %v", err)
	}
	return p
}

// gitIn runs the real git in dir with a fixed identity and no system or user config (HOME is
// dir), failing the test on an error; it returns the trimmed output.
func gitIn(t *testing.T, gitBin, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(gitBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// bareRepo is an empty bare repository named memories.git in a temp folder.
func bareRepo(t *testing.T) (dir, bare string) {
	t.Helper()
	dir = t.TempDir()
	bare = filepath.Join(dir, "memories.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	return dir, bare
}

func codeOf(err error) string {
	var he *Error
	if errors.As(err, &he) {
		return he.Code
	}
	return ""
}

// remoteHome is a home with history on and the given auth.
func remoteHome(t *testing.T, a Auth) (*memory.Store, *Repo, string) {
	t.Helper()
	home := t.TempDir()
	st, r := openHome(t, home, true)
	r.SetAuth(a)
	return st, r, home
}

// noSecretIn fails when secret appears in any file under dir.
func noSecretIn(t *testing.T, dir, secret string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if data, _ := os.ReadFile(p); bytes.Contains(data, []byte(secret)) {
			t.Errorf("the secret is written in %s", p)
		}
		return nil
	})
}

// httpsRemote serves dir's repositories over HTTPS on 127.0.0.1 through git http-backend,
// behind basic auth; it returns the server (its certificate is the CA to trust).
func httpsRemote(t *testing.T, dir, user, pass string) *httptest.Server {
	t.Helper()
	bin := gitBinary(t)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != user || p != pass {
			w.Header().Set("WWW-Authenticate", `Basic realm="memories"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		h := &cgi.Handler{Path: bin, Args: []string{"http-backend"}, Env: []string{
			"GIT_PROJECT_ROOT=" + dir, "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=" + u,
			"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func caFile(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// An HTTPS remote with basic auth: the test CA is trusted through the home's CA file only
// (TLS verification is never turned off); a wrong password, an untrusted certificate and a
// closed port each fail with their own code; the password given in the URL goes to the
// home's credentials file, never into the memory folder; two machines stay in step.
func TestSyncOverHTTPS(t *testing.T) {
	ctx := context.Background()
	dir, bare := bareRepo(t)
	const user, pass = "ada", "s3cret-token-4711"
	srv := httpsRemote(t, dir, user, pass)
	url := srv.URL + "/memories.git"
	withPass := strings.Replace(url, "https://", "https://"+user+":"+pass+"@", 1)
	ca := caFile(t, srv)

	// The system's authorities alone do not know the test CA.
	st, r, home := remoteHome(t, Auth{Credentials: OpenCredentials(t.TempDir())})
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	if _, err := r.Sync(ctx, st, withPass); codeOf(err) != CodeTLSUntrusted {
		t.Fatalf("untrusted certificate: %v (%s)", err, codeOf(err))
	}
	// Trusted, but the wrong password.
	a := Auth{Credentials: OpenCredentials(home), CAFile: ca}
	r.SetAuth(a)
	if _, err := r.Sync(ctx, st, strings.Replace(withPass, pass, "wrong", 1)); codeOf(err) != CodeAuthFailed || strings.Contains(err.Error(), "wrong") {
		t.Fatalf("wrong password: %v (%s)", err, codeOf(err))
	}
	res, err := r.Sync(ctx, st, withPass)
	if err != nil || !res.Pushed || res.Remote != strings.Replace(url, "https://", "https://"+user+"@", 1) {
		t.Fatalf("sync over HTTPS = %+v, %v", res, err)
	}
	if strings.Contains(res.Remote, pass) || strings.Contains(r.Remote(), pass) {
		t.Fatalf("the remote keeps the password: %q", r.Remote())
	}
	noSecretIn(t, st.Root(), pass)
	if info, err := os.Stat(filepath.Join(home, CredentialsFile)); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", info, err)
	}
	// The bare repository on the server has the memory.
	out, err := exec.Command(gitBinary(t), "--git-dir", bare, "ls-tree", "-r", "--name-only", "main").Output()
	if err != nil || !strings.Contains(string(out), "global/user/tea-pref.md") {
		t.Fatalf("server tree %q, %v", out, err)
	}
	// A second machine with the same credentials and CA takes it.
	home2 := t.TempDir()
	creds2 := OpenCredentials(home2)
	if err := creds2.Set(url, user, pass); err != nil {
		t.Fatal(err)
	}
	st2, r2 := openHome(t, home2, true)
	r2.SetAuth(Auth{Credentials: creds2, CAFile: ca})
	if _, err := r2.Sync(ctx, st2, url); err != nil {
		t.Fatal(err)
	}
	if m, err := st2.GetBySlug(ctx, memory.ScopeGlobal, "", "", "tea-pref"); err != nil || m.Body != "Likes green tea." {
		t.Fatalf("second machine: %+v %v", m, err)
	}
	// Nothing listens: unreachable.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "https://" + ln.Addr().String() + "/memories.git"
	ln.Close()
	if _, err := r2.Sync(ctx, st2, closed); codeOf(err) != CodeUnreachable {
		t.Fatalf("closed port: %v (%s)", err, codeOf(err))
	}
}

// A password in the URL is refused where no credentials file can keep it.
func TestPasswordInURLNeedsACredentialsFile(t *testing.T) {
	st, r := openHome(t, t.TempDir(), true)
	if _, err := r.Sync(context.Background(), st, "https://me:tok@127.0.0.1:1/x.git"); codeOf(err) != CodeCredentialsInURL {
		t.Fatalf("got %v", err)
	}
	if r.Remote() != "" {
		t.Fatalf("remote saved: %q", r.Remote())
	}
}

// sshServer serves bare over SSH on 127.0.0.1: public-key auth for the keys in allowed, and
// an exec of git-upload-pack / git-receive-pack on that repository (anything else refused).
type sshServer struct {
	addr    string
	hostKey ssh.PublicKey
	ln      net.Listener
	wg      sync.WaitGroup
}

func newSSHServer(t *testing.T, bare string, allowed ...ssh.PublicKey) *sshServer {
	t.Helper()
	bin := gitBinary(t)
	_, hostPriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	hostSigner, err := ssh.NewSignerFromKey(hostPriv)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
		for _, a := range allowed {
			if bytes.Equal(a.Marshal(), k.Marshal()) {
				return nil, nil
			}
		}
		return nil, errors.New("key not allowed")
	}}
	cfg.AddHostKey(hostSigner)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &sshServer{addr: ln.Addr().String(), hostKey: hostSigner.PublicKey(), ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(c, cfg, bin, bare)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

func (s *sshServer) serve(c net.Conn, cfg *ssh.ServerConfig, bin, bare string) {
	defer c.Close()
	_, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "session only")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			return
		}
		go s.session(ch, creqs, bin, bare)
	}
}

func (s *sshServer) session(ch ssh.Channel, reqs <-chan *ssh.Request, bin, bare string) {
	defer ch.Close()
	for req := range reqs {
		if req.Type != "exec" {
			_ = req.Reply(false, nil)
			continue
		}
		var p struct{ Command string }
		if ssh.Unmarshal(req.Payload, &p) != nil {
			_ = req.Reply(false, nil)
			return
		}
		verb, arg, _ := strings.Cut(p.Command, " ")
		arg = strings.Trim(arg, "'\"")
		if (verb != "git-upload-pack" && verb != "git-receive-pack") || filepath.Base(arg) != "memories.git" {
			_ = req.Reply(false, nil)
			return
		}
		_ = req.Reply(true, nil)
		cmd := exec.Command(bin, strings.TrimPrefix(verb, "git-"), bare)
		cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + filepath.Dir(bare), "PATH=" + os.Getenv("PATH")}
		in, _ := cmd.StdinPipe()
		cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
		status := uint32(0)
		if err := cmd.Start(); err != nil {
			status = 127
		} else {
			go func() { _, _ = io.Copy(in, ch); in.Close() }()
			if err := cmd.Wait(); err != nil {
				status = 1
			}
		}
		_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{status}))
		return
	}
}

// clientKey writes a new ed25519 private key (OpenSSH format, unencrypted) to a temp file.
func clientKey(t *testing.T) (string, ssh.PublicKey) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(p, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return p, signer.PublicKey()
}

func knownHosts(t *testing.T, addr string, key ssh.PublicKey) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(p, []byte(xknownhosts.Line([]string{xknownhosts.Normalize(addr)}, key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// An SSH remote: client key auth, the host key checked against known_hosts. An unknown host
// and a changed host key are refused with the key's fingerprint (nothing is sent), a key the
// server does not allow fails as authentication; with both right, two machines stay in step.
func TestSyncOverSSH(t *testing.T) {
	ctx := context.Background()
	_, bare := bareRepo(t)
	keyA, pubA := clientKey(t)
	keyB, pubB := clientKey(t)
	stranger, _ := clientKey(t)
	srv := newSSHServer(t, bare, pubA, pubB)
	url := "ssh://git@" + srv.addr + "/srv/memories.git"
	fp := ssh.FingerprintSHA256(srv.hostKey)

	st, r, _ := remoteHome(t, Auth{KeyFiles: []string{keyA}, KnownHosts: []string{filepath.Join(t.TempDir(), "none")}})
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	_, err := r.Sync(ctx, st, url)
	if codeOf(err) != CodeHostUnknown || !strings.Contains(err.Error(), fp) {
		t.Fatalf("unknown host: %v (%s)", err, codeOf(err))
	}
	var he *Error
	if errors.As(err, &he); he.Args["Fingerprint"] != fp || he.Args["Remote"] != url {
		t.Fatalf("args %v", he.Args)
	}
	_, otherHost := clientKey(t) // any other key filed for this host
	r.SetAuth(Auth{KeyFiles: []string{keyA}, KnownHosts: []string{knownHosts(t, srv.addr, otherHost)}})
	if _, err := r.Sync(ctx, st, ""); codeOf(err) != CodeHostKeyChanged {
		t.Fatalf("changed host key: %v (%s)", err, codeOf(err))
	}
	if out, _ := exec.Command(gitBinary(t), "--git-dir", bare, "rev-parse", "--verify", "-q", "main").Output(); len(out) != 0 {
		t.Fatal("something was pushed to an unverified host")
	}
	kh := knownHosts(t, srv.addr, srv.hostKey)
	r.SetAuth(Auth{KeyFiles: []string{stranger}, KnownHosts: []string{kh}})
	if _, err := r.Sync(ctx, st, ""); codeOf(err) != CodeAuthFailed {
		t.Fatalf("key not allowed: %v (%s)", err, codeOf(err))
	}
	r.SetAuth(Auth{KeyFiles: []string{filepath.Join(t.TempDir(), "missing")}, KnownHosts: []string{kh}})
	if _, err := r.Sync(ctx, st, ""); codeOf(err) != CodeSSHNoKey {
		t.Fatalf("no key: %v (%s)", err, codeOf(err))
	}
	r.SetAuth(Auth{KeyFiles: []string{keyA}, KnownHosts: []string{kh}})
	if res, err := r.Sync(ctx, st, ""); err != nil || !res.Pushed {
		t.Fatalf("sync over SSH = %+v, %v", res, err)
	}
	st2, r2, _ := remoteHome(t, Auth{KeyFiles: []string{keyB}, KnownHosts: []string{kh}})
	write(t, st2, memory.ActorUser, newMem("coffee", "No coffee after noon."))
	if _, err := r2.Sync(ctx, st2, url); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Sync(ctx, st, ""); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*memory.Store{st, st2} {
		if got := strings.Join(bodies(t, s), "|"); got != "coffee=No coffee after noon.|tea-pref=Likes green tea." {
			t.Fatalf("after syncs over SSH: %s", got)
		}
	}
}

// The key may come from the SSH agent (SSH_AUTH_SOCK) instead of a file: a real agent on a
// unix socket holding the only allowed key.
func TestSyncOverSSHWithTheAgent(t *testing.T) {
	ctx := context.Background()
	_, bare := bareRepo(t)
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	keyring := agent.NewKeyring()
	if err := keyring.Add(agent.AddedKey{PrivateKey: priv}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); _ = agent.ServeAgent(keyring, c); c.Close() }()
		}
	}()
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	t.Setenv("SSH_AUTH_SOCK", sock)
	srv := newSSHServer(t, bare, signer.PublicKey())
	kh := knownHosts(t, srv.addr, srv.hostKey)
	st, r, _ := remoteHome(t, Auth{Agent: false, KnownHosts: []string{kh}})
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	url := "ssh://git@" + srv.addr + "/srv/memories.git"
	if _, err := r.Sync(ctx, st, url); codeOf(err) != CodeSSHNoKey {
		t.Fatalf("agent off, no key file: %v", err)
	}
	r.SetAuth(Auth{Agent: true, KnownHosts: []string{kh}})
	if res, err := r.Sync(ctx, st, ""); err != nil || !res.Pushed {
		t.Fatalf("sync with the agent's key = %+v, %v", res, err)
	}
}
