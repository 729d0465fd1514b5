package memory

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"time"
)

// fileRead is what indexing one file needs before any SQL: its bytes read, checked (secrets,
// limits, location) and parsed, and the text the full-text tables will hold. A reconcile makes
// these on worker goroutines (readAhead) while its one transaction writes the previous ones:
// reading and parsing the files one at a time in the writer was a third of a cold build.
type fileRead struct {
	d     diskFile
	known string // the version the index holds, "" for a file it does not know
	// gone: the file disappeared between the walk and the read.
	gone bool
	// problem and why say why the file is not indexed (memory_problems), "" when it is.
	problem string
	why     fault
	// unchanged: the bytes are those the index holds (only the stamp moved).
	unchanged bool
	version   string
	pi        pathInfo
	m         *Memory
	// risky: the file says reviewed but holds text that tries to steer an agent.
	risky bool
	ft    fullText
	// noID is the parse error of a file that names no id (m.idFromPath), reported if the
	// path was indexed under another id (lostID).
	noID fault
}

// readForIndex reads and checks one file; it touches no index, so workers may run it at once.
func (s *Store) readForIndex(d diskFile, known string) *fileRead {
	r := &fileRead{d: d, known: known}
	if d.link {
		target, _ := os.Readlink(s.abs(d.rel))
		r.problem, r.why = ProblemSymlink, fault{text: target}
		return r
	}
	data, err := readNoFollow(s.abs(d.rel))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.gone = true
			return r
		}
		if fi, lerr := os.Lstat(s.abs(d.rel)); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(s.abs(d.rel))
			r.problem, r.why = ProblemSymlink, fault{text: target}
			return r
		}
		r.problem, r.why = CodeParseError, readFault(err)
		return r
	}
	r.version = Checksum(data)
	if known != "" && r.version == known {
		r.unchanged = true
		return r
	}
	pi, ok := parsePath(d.rel)
	if !ok {
		r.problem, r.why = ProblemUnrecognized, locationDetail(d.rel)
		return r
	}
	if code, why := folderProblem(pi); code != "" {
		r.problem, r.why = code, why
		return r
	}
	m, err := parseHand(data, d.rel)
	if err != nil {
		// The parser's reason with its key and arguments (format.ParseError, carried by the
		// coded error): never read back from the English.
		r.problem, r.why = CodeParseError, faultOf(err)
		return r
	}
	if m.idFromPath {
		// What a file that names no id is reported with if it turns out to have lost one.
		if _, serr := Parse(data); serr != nil {
			r.noID = faultOf(serr)
		}
	}
	if code, why := handProblem(m, pi, len(data)); code != "" {
		r.problem, r.why = code, why
		return r
	}
	if code, why := handPlacedLimits(m); code != "" {
		r.problem, r.why = code, why
		return r
	}
	// The file's location is authoritative for where it lives; the header for what it says.
	m.Scope, m.Type, m.Slug, m.Archived = pi.scope, pi.typ, pi.slug, pi.archived
	switch pi.scope {
	case ScopeAgent:
		m.Agent, m.Workdir = pi.key, ""
	case ScopeProject:
		m.Agent, m.projectKey = "", pi.key // the workdir is settled by the writer (it may need the index)
	default:
		m.Agent, m.Workdir = "", ""
	}
	if m.Title == "" {
		m.Title = m.Slug
	}
	if m.Created.IsZero() {
		m.Created = time.Unix(0, d.st.mtime)
	}
	if m.Updated.IsZero() {
		m.Updated = time.Unix(0, d.st.mtime)
	}
	m.Path, m.Version = d.rel, r.version
	r.pi, r.m = pi, m
	r.risky = m.Reviewed && RiskOfMemory(m) != nil
	r.ft = fullTextOf(m)
	return r
}

// readJob is one file a reconcile will index, with the version the index holds.
type readJob struct {
	d     diskFile
	known string
}

// readAheadMin is the fewest files worth worker goroutines: the watcher's reconciles of a
// few paths read them in the writer, as before.
const readAheadMin = 32

// readAhead hands a reconcile's writer the reads of its jobs in their order, made ahead by
// workers: at most readAheadWindow files are read and not yet written, which bounds memory.
type readAhead struct {
	jobs []readJob // read in the writer when there are too few for workers
	next int
	out  chan chan *fileRead
	stop chan struct{}
	wg   sync.WaitGroup
}

const readAheadWindow = 256

func (s *Store) readAhead(jobs []readJob) *readAhead {
	ra := &readAhead{}
	if len(jobs) < readAheadMin {
		ra.jobs = jobs
		return ra
	}
	ra.out, ra.stop = make(chan chan *fileRead, readAheadWindow), make(chan struct{})
	type work struct {
		j readJob
		c chan *fileRead
	}
	todo := make(chan work)
	// The writer (SQLite) keeps one core busy; the workers share what is left and the writer's
	// waits. Two at least: reading is also waiting on the disk.
	workers := max(2, runtime.GOMAXPROCS(0))
	for w := 0; w < workers; w++ {
		ra.wg.Add(1)
		go func() {
			defer ra.wg.Done()
			for w := range todo {
				w.c <- s.readForIndex(w.j.d, w.j.known)
			}
		}()
	}
	ra.wg.Add(1)
	go func() {
		defer ra.wg.Done()
		defer close(todo)
		for _, j := range jobs {
			c := make(chan *fileRead, 1)
			select {
			case ra.out <- c:
			case <-ra.stop:
				return
			}
			select {
			case todo <- work{j, c}:
			case <-ra.stop:
				return
			}
		}
	}()
	return ra
}

// read returns the next job's read; jobs come back in the order they were given.
func (ra *readAhead) read(s *Store) *fileRead {
	if ra.out == nil {
		j := ra.jobs[ra.next]
		ra.next++
		return s.readForIndex(j.d, j.known)
	}
	return <-<-ra.out
}

// close stops the workers (a reconcile that failed half-way leaves reads unused) and waits
// for them.
func (ra *readAhead) close() {
	if ra.stop == nil {
		return
	}
	close(ra.stop)
	ra.wg.Wait()
}
