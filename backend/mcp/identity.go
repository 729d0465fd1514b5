package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
)

// session is what the server knows about one connected client: the agent it acts for and the
// project folders it may name. Both come from the transport (--agent, --workdir, the client's
// initialize and its roots), never from a tool's arguments.
type session struct {
	// id is the transport's session id, or one made here: stdio has none ("").
	id     string
	agent  string // "" when neither --agent nor a usable clientInfo.name named one
	client string // clientInfo name and version, for the audit log's model column
	// saveMu orders the session's writes to the agents table: a flush that finds nothing
	// dirty must still wait for a write in flight, or the process could exit (the stdio
	// server closes its store as Run returns) before the last call reached the table.
	saveMu sync.Mutex

	mu        sync.Mutex
	roots     []string // cleaned absolute paths of the client's file:// roots
	rootsOK   bool     // roots were asked since the last roots/list_changed
	lastCall  string
	lastTime  time.Time
	calls     int64
	lastSaved time.Time
	dirty     bool // calls since the last write to the agents table
	// shown are the search hits each recent query (by argsHash) showed, so that its later
	// pages skip them; a few queries are kept.
	shown      map[string]map[string]bool
	shownOrder []string
}

// maxPagedQueries bounds the queries whose shown hits a session keeps.
const maxPagedQueries = 8

// shownFor returns a copy of the hits the query hash showed; fresh forgets them (a first page).
func (st *session) shownFor(hash string, fresh bool) map[string]bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.shown == nil {
		st.shown = map[string]map[string]bool{}
	}
	set, ok := st.shown[hash]
	if !ok {
		st.shownOrder = append(st.shownOrder, hash)
		if len(st.shownOrder) > maxPagedQueries {
			delete(st.shown, st.shownOrder[0])
			st.shownOrder = st.shownOrder[1:]
		}
	}
	if !ok || fresh {
		set = map[string]bool{}
		st.shown[hash] = set
	}
	out := make(map[string]bool, len(set))
	for id := range set {
		out[id] = true
	}
	return out
}

// markShown adds the hits a page of the query hash showed.
func (st *session) markShown(hash string, ids []string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if set, ok := st.shown[hash]; ok {
		for _, id := range ids {
			set[id] = true
		}
	}
}

// NormalizeAgent turns a client's name into an agent name ("Claude Code" → "claude-code"):
// lowercase, runs of other characters folded into one dash, at most 63 characters. It returns
// "" when nothing usable is left.
func NormalizeAgent(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(name)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if b.Len() > 0 && !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 63 {
		out = strings.Trim(out[:63], "-")
	}
	if !api.ValidAgent(out) {
		return ""
	}
	// A client named "con" or "aux" would get a folder a store synced to Windows cannot hold.
	if api.ReservedAgent(out) {
		out += "-agent"
	}
	return out
}

// sessionFor returns the state of ss, made on its first call from its initialize params.
func (s *Server) sessionFor(ss *sdk.ServerSession) *session {
	if v, ok := s.sessions.Load(ss); ok {
		return v.(*session)
	}
	st := &session{id: ss.ID(), agent: s.cfg.Agent}
	if st.id == "" {
		// stdio names no session; observe_turn's turns still need one to be grouped under
		// (it was refused as the invalid session "").
		st.id = "stdio-" + randomHex(8)
	}
	if ip := ss.InitializeParams(); ip != nil && ip.ClientInfo != nil {
		if st.agent == "" {
			st.agent = NormalizeAgent(ip.ClientInfo.Name)
		}
		st.client = strings.TrimSpace(ip.ClientInfo.Name + " " + ip.ClientInfo.Version)
	}
	if c, ok := s.resumed(ss.ID()); ok && ss.ID() != "" {
		// Revived after a restart: what its signed id carries (httprevive.go).
		if s.cfg.Agent == "" {
			st.agent = c.agent
		}
		st.client = c.client
	}
	v, loaded := s.sessions.LoadOrStore(ss, st)
	if !loaded {
		// The state goes with the session: a closed stdio pipe or an expired HTTP session.
		go func() {
			_ = ss.Wait()
			s.flush(st)
			s.sessions.Delete(ss)
			s.revived.Delete(st.id)
		}()
	}
	return v.(*session)
}

// rootsOf asks the client for its roots once (again after roots/list_changed) and keeps the
// file:// ones as clean absolute paths. A client without the roots capability has none. An
// answer is kept for the session; a fetch that failed is not (the next call asks again): one
// cancelled by the client (notifications/cancelled on the call that asked) or refused by it
// must not leave the session without its folders for good. Only a client that stays silent
// for the whole timeout is taken at its word of having none, so that each project-scoped call
// does not wait that long again (roots/list_changed asks anew).
func (s *Server) rootsOf(ctx context.Context, ss *sdk.ServerSession, st *session) []string {
	st.mu.Lock()
	if st.rootsOK {
		defer st.mu.Unlock()
		return st.roots
	}
	st.mu.Unlock()
	var roots []string
	// Only a client that declared roots is asked: one that did not may never answer the
	// request, and each project-scoped call would wait for the timeout.
	if declaresRoots(ss.InitializeParams()) {
		askCtx, cancel := context.WithTimeout(ctx, rootsTimeout)
		res, err := ss.ListRoots(askCtx, nil)
		timedOut := askCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		cancel()
		if err != nil {
			s.cfg.Logger.Debug("mcp: the client lists no roots", "err", err)
			if !timedOut {
				return nil
			}
		} else {
			for _, r := range res.Roots {
				if p, ok := rootPath(r.URI); ok {
					// Resolved once, when given: a link the model repoints later does not
					// move the session to another folder.
					roots = append(roots, realFolder(p))
				}
			}
		}
	}
	st.mu.Lock()
	st.roots, st.rootsOK = roots, true
	st.mu.Unlock()
	return roots
}

// rootsTimeout bounds the wait for the client's roots.
const rootsTimeout = 10 * time.Second

// declaresRoots reports whether the client's initialize declared the roots capability.
func declaresRoots(p *sdk.InitializeParams) bool {
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil
}

// rootPath reads a file:// URI as a clean absolute path.
func rootPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return "", false
	}
	if u.Path == "" || !filepath.IsAbs(u.Path) {
		return "", false
	}
	return filepath.Clean(u.Path), true
}

// allowedProjects are the folders a call may name as its workdir: --workdir and the roots.
func (s *Server) allowedProjects(ctx context.Context, ss *sdk.ServerSession, st *session) []string {
	var out []string
	if s.cfg.Workdir != "" {
		out = append(out, s.cfg.Workdir)
	}
	for _, r := range s.rootsOf(ctx, ss, st) {
		dup := false
		for _, o := range out {
			dup = dup || o == r
		}
		if !dup {
			out = append(out, r)
		}
	}
	return out
}

// within reports whether p is dir or lies inside it (both clean absolute paths).
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// resolveWorkdir decides the caller's project for one call. Without an argument it is
// --workdir, else the client's only root, else none. An argument is honoured only when it
// equals or lies inside an allowed folder (cleaned, so "a/../.." cannot climb out unnoticed,
// and with symlinks resolved, so a link inside a root cannot reach a project outside every
// root); and, when it is not one of those folders, only when it resolves to the project of one
// of them (ownProject).
//
// The argument's links are resolved once, here, and the checks and the call that follows all
// use that resolved folder: a model with a shell could repoint a link between the check and
// the call (resolved again), and the call then worked in a project the checks never saw. The
// session's own folders were resolved when they were given (New, rootsOf).
func (s *Server) resolveWorkdir(ctx context.Context, ss *sdk.ServerSession, st *session, arg string) (string, *toolError) {
	arg = strings.TrimSpace(arg)
	if arg == "" && s.cfg.Workdir != "" {
		return s.cfg.Workdir, nil // no round trip to the client for its roots
	}
	allowed := s.allowedProjects(ctx, ss, st)
	if arg == "" {
		if len(allowed) == 1 {
			return allowed[0], nil
		}
		return "", nil
	}
	refuse := func() *toolError {
		shown := allowed
		if shown == nil {
			shown = []string{}
		}
		e := s.codedError(codeWorkdirNotAllowed, map[string]any{"Workdir": arg, "Allowed": strings.Join(shown, ", ")},
			&nextCall{Tool: "memory_list", Arguments: map[string]any{}})
		if len(shown) == 0 {
			// "…may use ()" read as a glitch: say there are none, and how one is allowed.
			e.Message = s.api.Error("workdir_not_allowed_none", e.Args).Message
		}
		e.Allowed = shown
		return e
	}
	if !filepath.IsAbs(arg) {
		return "", refuse()
	}
	dir := realFolder(filepath.Clean(arg))
	if !insideAny(dir, allowed) {
		return "", refuse()
	}
	if !slices.Contains(allowed, dir) {
		if terr := s.ownProject(dir, arg, allowed); terr != nil {
			return "", terr
		}
	}
	return dir, nil
}

// realFolder is the clean absolute path p with its symlinks resolved, or p as written when it
// cannot be resolved (a folder that does not exist yet). It is the one resolution of a folder
// named to the server: what is checked is what is used.
func realFolder(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// insideAny reports whether the folder dir (resolved by realFolder) lies in one of the
// allowed folders (resolved when given). The session's own folder reached through a link, or
// by its real path when the session was given a link, is inside (it was refused, the folders
// compared as written first); a link inside them that leads elsewhere is outside.
func insideAny(dir string, allowed []string) bool {
	for _, a := range allowed {
		if within(dir, a) {
			return true
		}
	}
	return false
}

// ownProject refuses a folder inside the session's folders that resolves to another project
// than one of theirs. A project is known by its id file or git remote before its path, and a
// model with file tools can write a .git/config naming another clone's remote into a subfolder
// of its own project: the path checks alone then let it read and overwrite that project's
// memories. A workdir argument narrows; it never picks a project the session was not given.
func (s *Server) ownProject(clean, arg string, allowed []string) *toolError {
	key, err := s.api.ProjectKey(clean)
	if err != nil {
		return s.apiError(err, &nextCall{Tool: "memory_list", Arguments: map[string]any{}})
	}
	for _, dir := range allowed {
		if k, err := s.api.ProjectKey(dir); err == nil && k == key {
			return nil
		}
	}
	e := s.codedError(codeWorkdirOtherProject, map[string]any{"Workdir": arg, "Allowed": strings.Join(allowed, ", ")},
		&nextCall{Tool: "memory_list", Arguments: map[string]any{}})
	e.Allowed = allowed
	return e
}

// record notes a call for Settings → Integrations: in memory at every call, in the shared
// table at most every RecordEvery per session (a busy agent does not write per call); what is
// left unwritten goes out when the session ends (flush).
func (s *Server) record(st *session, tool string) {
	now := time.Now()
	st.mu.Lock()
	st.lastCall, st.lastTime = tool, now
	st.calls++
	save := st.agent != "" && now.Sub(st.lastSaved) >= s.cfg.RecordEvery
	st.dirty = true
	if save {
		st.lastSaved = now
	}
	st.mu.Unlock()
	if save {
		s.flush(st)
	}
}

// flush writes what record left unwritten. It returns once the session's latest state is in
// the table, whether this call or one already in flight wrote it.
func (s *Server) flush(st *session) {
	st.saveMu.Lock()
	defer st.saveMu.Unlock()
	st.mu.Lock()
	dirty := st.dirty && st.agent != ""
	st.dirty = false
	ag := st.snapshot(s.cfg.Transport)
	st.mu.Unlock()
	if dirty {
		s.save(ag)
	}
}

func (s *Server) save(ag api.ConnectedAgent) {
	if err := s.api.RecordAgent(ag); err != nil {
		s.cfg.Logger.Warn("mcp: unable to record the agent", "agent", ag.Name, "err", err)
	}
}

// snapshot is the session as the agents table shows it; st.mu is held.
func (st *session) snapshot(transport string) api.ConnectedAgent {
	return api.ConnectedAgent{Name: st.agent, Transport: transport, Client: st.client, LastCall: st.lastCall,
		LastTime: st.lastTime.UTC(), Calls: st.calls}
}

// randomHex is n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
