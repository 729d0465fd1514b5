package memory

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"
)

// projectRecheck is how long a resolved workdir is trusted before the files it was read from
// are stat'ed again: searches and the visibility filter resolve on every call, and must not
// touch the disk each time; an id file committed or a remote added shows within this delay.
const projectRecheck = 2 * time.Second

// maxCachedProjects bounds the cache: workdirs come from callers (and models' hosts), and a
// stream of distinct ones must not grow the process without end.
const maxCachedProjects = 4096

// Projects resolves workdirs to projects (ResolveProject) and caches the answers in this
// process, each revalidated against the stamps of the files it was read from at most every
// projectRecheck. A Store owns one (Store.Projects); a nil *Projects resolves uncached.
type Projects struct {
	now func() time.Time
	// adopt, when set, moves memories a project kept under its path key to its identity key
	// (Store.adoptProject). It takes the store's writer lock: it runs only from Resolve,
	// which no code holding that lock calls.
	adopt func(Project)
	// vouch, when set, decides whether a folder may use the project its id file names
	// (Store.vouchProject) and returns the files its answer rests on.
	vouch func(Project) (Project, []string)
	// audit, when set, logs first claims (Store.auditClaims). A claim is made while resolving,
	// which may run under the writer lock inside a transaction, so it waits in claims until
	// the next Resolve, which never runs there.
	audit func([]projectClaim)

	mu      sync.Mutex
	entries map[string]*projectEntry // by the workdir as the caller spelled it
	claims  []projectClaim
}

// projectClaim is a folder's first claim on a key, waiting for the audit log.
type projectClaim struct {
	p      Project
	folder string
}

type projectEntry struct {
	p       Project
	files   []string
	stamps  []fileStamp
	checked time.Time
	// racy is set when a file read was modified within projectRecheck of the read: it may
	// have been mid-write (an editor saving the id file), so its stamp does not vouch for what
	// was read and the next recheck reads it again (git's "racy clean" rule).
	racy bool
	// adopted is set once the path-key folder was looked at for the key p holds.
	adopted bool
}

// NewProjects returns an empty cache reading the time from now (nil: time.Now).
func NewProjects(now func() time.Time) *Projects {
	if now == nil {
		now = time.Now
	}
	return &Projects{now: now, entries: map[string]*projectEntry{}}
}

// Resolve returns the project at workdir (an absolute path; CanonicalWorkdir's error
// otherwise). The first time a workdir resolves to an id or remote identity, memories kept
// under its path key by an older build are moved to the identity's key before it returns,
// so no caller sees the project without them. Not to be called holding the writer lock.
func (ps *Projects) Resolve(workdir string) (Project, error) {
	p, adopt, err := ps.lookup(workdir, true)
	ps.flushClaims()
	if err != nil || !adopt {
		return p, err
	}
	if ps.adopt != nil {
		ps.adopt(p)
	}
	return p, nil
}

// Key is Resolve's key.
func (ps *Projects) Key(workdir string) (string, error) {
	p, err := ps.Resolve(workdir)
	return p.Key, err
}

// resolve is Resolve without the move, for code that holds the writer lock (the batch
// resolved its workdirs, and moved what needed moving, before taking it).
func (ps *Projects) resolve(workdir string) (Project, error) {
	p, _, err := ps.lookup(workdir, false)
	return p, err
}

// key is resolve's key.
func (ps *Projects) key(workdir string) (string, error) {
	p, err := ps.resolve(workdir)
	return p.Key, err
}

// lookup answers from the cache when its stamps still hold; adopt reports that the caller
// should move a path-key folder (the first time an identity key is seen for this workdir).
func (ps *Projects) lookup(workdir string, claim bool) (Project, bool, error) {
	workdir = strings.TrimSpace(workdir)
	if ps == nil { // no cache: read the files (tests, tools without a store)
		p, err := ResolveProject(workdir)
		return p, false, err
	}
	now := ps.now()
	ps.mu.Lock()
	e := ps.entries[workdir]
	if e != nil && now.Sub(e.checked) < projectRecheck && now.Sub(e.checked) >= 0 {
		adopt := claim && !e.adopted && e.p.Key != e.p.PathKey
		if claim {
			e.adopted = true
		}
		p := e.p
		ps.mu.Unlock()
		return p, adopt, nil
	}
	ps.mu.Unlock()
	if e != nil && !e.racy && sameStamps(e.files, e.stamps) {
		ps.mu.Lock()
		e.checked = now
		adopt := claim && !e.adopted && e.p.Key != e.p.PathKey
		if claim {
			e.adopted = true
		}
		p := e.p
		ps.mu.Unlock()
		return p, adopt, nil
	}
	wd, err := CanonicalWorkdir(workdir)
	if err != nil {
		return Project{}, false, err
	}
	p, files := resolveProject(wd)
	if ps.vouch != nil {
		var more []string
		p, more = ps.vouch(p)
		files = append(files, more...)
	}
	ne := &projectEntry{p: p, files: files, stamps: stampFiles(files), checked: now}
	ne.racy = racyStamps(ne.stamps, time.Now())
	ne.adopted = claim
	ps.mu.Lock()
	if len(ps.entries) >= maxCachedProjects {
		ps.entries = map[string]*projectEntry{}
	}
	// A key that changed (an id file committed, a remote added) is looked at again.
	if old := ps.entries[workdir]; old != nil && old.p.Key == p.Key && old.adopted {
		ne.adopted = true
		claim = false
	}
	ps.entries[workdir] = ne
	ps.mu.Unlock()
	return p, claim && p.Key != p.PathKey, nil
}

// noteClaim queues a first claim for the audit log.
func (ps *Projects) noteClaim(c projectClaim) {
	ps.mu.Lock()
	if len(ps.claims) < 64 {
		ps.claims = append(ps.claims, c)
	}
	ps.mu.Unlock()
}

// flushClaims hands the queued claims to the audit log.
func (ps *Projects) flushClaims() {
	if ps == nil {
		return
	}
	ps.mu.Lock()
	claims := ps.claims
	ps.claims = nil
	ps.mu.Unlock()
	if len(claims) > 0 && ps.audit != nil {
		ps.audit(claims)
	}
}

// Forget drops every cached answer (tests, and `engram project` which must read afresh).
func (ps *Projects) Forget() {
	ps.mu.Lock()
	ps.entries = map[string]*projectEntry{}
	ps.mu.Unlock()
}

// stampFiles stats files without following a final symlink; a missing file stamps as zero.
func stampFiles(files []string) []fileStamp {
	out := make([]fileStamp, len(files))
	for i, f := range files {
		if info, err := os.Lstat(f); err == nil {
			out[i] = stampOf(info)
			if out[i] == (fileStamp{}) {
				out[i].size = -1 // present, whatever its stamp: never equal to missing
			}
		}
	}
	return out
}

// racyStamps reports whether a stamp's mtime is within projectRecheck of now (wall clock).
func racyStamps(stamps []fileStamp, now time.Time) bool {
	for _, st := range stamps {
		if st.mtime != 0 && now.UnixNano()-st.mtime < int64(projectRecheck) {
			return true
		}
	}
	return false
}

func sameStamps(files []string, stamps []fileStamp) bool {
	now := stampFiles(files)
	for i := range now {
		if now[i] != stamps[i] {
			return false
		}
	}
	return true
}

// initProjects gives the store its project cache, moving path-key folders on first sight.
func (s *Store) initProjects() {
	s.projects = NewProjects(s.opts.Now)
	s.projects.adopt = s.adoptProject
	s.projects.vouch = s.vouchProject
	s.projects.audit = s.auditClaims
}

// Projects is the store's project cache: every caller placing a workdir (visibility, search
// filters, the vector backend's filter) resolves through it, so all agree on the key.
func (s *Store) Projects() *Projects { return s.projects }

// Project resolves workdir afresh (the cache is bypassed for this one answer and refreshed
// with it), for `engram project` and doctor, which must show what the files say now.
func (s *Store) Project(workdir string) (Project, error) {
	workdir = strings.TrimSpace(workdir)
	s.projects.mu.Lock()
	delete(s.projects.entries, workdir)
	s.projects.mu.Unlock()
	return s.projects.Resolve(workdir)
}

// projectKey is the key of workdir's project, for code inside the store (no move: it may
// hold the writer lock).
func (s *Store) projectKey(workdir string) (string, error) { return s.projects.key(workdir) }

// ProjectWorkdir is the workdir this machine last recorded for a project key ("" when none):
// memories synced from another machine carry that machine's path in their frontmatter.
func (s *Store) ProjectWorkdir(ctx context.Context, key string) string {
	var wd string
	_ = s.db.QueryRowContext(ctx, `SELECT workdir FROM projects WHERE key = ?`, key).Scan(&wd)
	return wd
}

// adoptKnownProjects resolves, at open, every workdir the index knows under a path key that
// still holds memories: a project that gained an id file or a git remote since (or whose
// memories an older build kept by path) moves to its identity key before any caller looks.
// Path-only projects cost a stat or two each; moved ones are not looked at again.
func (s *Store) adoptKnownProjects(ctx context.Context) {
	if s.readOnly {
		return
	}
	rows, err := s.db.QueryContext(ctx, `SELECT p.key, p.workdir FROM projects p WHERE p.moved_to = '' AND p.workdir <> ''
		AND EXISTS (SELECT 1 FROM memory_meta m WHERE m.scope = 'project' AND m.scope_key = p.key)`)
	if err != nil {
		s.log.Warn("memory: unable to list projects", "err", err)
		return
	}
	var workdirs []string
	for rows.Next() {
		var key, wd string
		if rows.Scan(&key, &wd) == nil && ProjectKey(wd) == key {
			workdirs = append(workdirs, wd)
		}
	}
	rows.Close()
	for _, wd := range workdirs {
		_, _ = s.projects.Resolve(wd)
	}
}
