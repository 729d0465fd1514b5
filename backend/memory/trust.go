package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// trustDir holds, per project key and folder, the person's word that the folder may use the
// key (a file "<key>-<path key>") or may not ("….refused"), and per key the folder that made
// the first claim ("<key>.owner"). Under the memory root but hidden, so the walker, the watcher
// and exports pass it by; it is not part of the index, which a reindex rebuilds without it.
const trustDir = ".trusted-projects"

// CodeNoProjectID refuses to trust a folder without an id file: a remote is shared without
// asking and a path identity is only ever the folder itself, so there is nothing to trust.
const CodeNoProjectID = "project_without_id"

// CodeProjectIDFileInvalid refuses to trust a folder whose id file is there but passed over (a
// link, too large, an id outside the rule): the person meant that file, which names nothing.
const CodeProjectIDFileInvalid = "project_id_file_invalid"

// Why an id file needs trust: it is a file inside a repository, and anyone who publishes a
// repository can write one naming the project of somebody else (ids are short words, easy to
// guess). An agent started in a clone of it would then read and write that project's memories.
// So an id belongs to the first folder on this machine that uses it (or to the folder this
// machine's index already recorded for it and that still names it, for homes from before this
// rule); another folder naming it resolves by its remote or path, with a problem naming the
// folder that holds it and saying how the person can trust this one (`engram project --trust
// DIR`). A linked worktree git registered shares its repository's word (trustFolder).
//
// A git remote needs no trust: projects are shared by their remote across clones and machines
// (two clones of one repository, the person's laptop and desktop), which is what a remote is
// for. What that leaves open is written down in the README ("Which project a folder is"): a
// downloaded archive that carries a .git naming the person's repository shares its memories.

// trustName is the record of key for folder (the folder whose trust a workdir shares).
func (s *Store) trustName(key, folder string) string {
	return filepath.Join(s.abs(trustDir), key+"-"+ProjectKey(folder))
}

// ownerName is the marker of the folder that made the first claim on key.
func (s *Store) ownerName(key string) string {
	return filepath.Join(s.abs(trustDir), key+".owner")
}

// vouchProject answers whether p (resolved by its id file) may use its id; when not, it is
// resolved again without it (by its remote or its path). The files returned are those the
// answer depends on, whose stamps tell the project cache to ask again.
func (s *Store) vouchProject(p Project) (Project, []string) {
	if p.Kind != ProjectByID {
		return p, nil
	}
	folder, files := trustFolder(p.Workdir)
	ok, more := s.mayUse(p, folder)
	files = append(files, more...)
	if ok {
		return p, files
	}
	holders := s.holders(p.Key)
	q, more := resolveWithoutID(p.Workdir)
	files = append(files, more...)
	q.UntrustedID, q.IDHolders = p.Identity, holders
	q.Problem = joinProblems(p.Problem, untrustedProblem(p, holders), q.Problem)
	return q, files
}

// untrustedProblem says why p's id or remote was passed over, who holds it, and the two ways out.
func untrustedProblem(p Project, holders []string) string {
	what := fmt.Sprintf("%s names the project %q", ProjectIDFile, p.Identity)
	held := "another folder on this machine"
	take := ""
	if len(holders) > 0 {
		held = strings.Join(holders, ", ")
		take = fmt.Sprintf("; if that folder should not have it, run engram project %s --untrust, then trust this one", holders[0])
	}
	return fmt.Sprintf("%s, which belongs to %s; to share its memories with this folder run: engram project --trust %s%s",
		what, held, p.Workdir, take)
}

func joinProblems(ps ...string) string {
	var out []string
	for _, p := range ps {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// mayUse answers whether folder may use p's key: the person trusted it, or it makes the first
// claim (which is then recorded, unless the store is read-only).
func (s *Store) mayUse(p Project, folder string) (bool, []string) {
	own := s.trustName(p.Key, folder)
	files := []string{own, own + ".refused", s.abs(trustDir), s.ownerName(p.Key)}
	if regular(own) {
		return true, files
	}
	if regular(own+".refused") || !s.firstClaim(p, folder) {
		return false, files
	}
	if !s.readOnly {
		if err := WriteFileAtomic(own, []byte(p.Identity+"\n"+folder+"\n")); err != nil {
			s.log.Warn("memory: unable to record a project's first folder", "workdir", folder, "err", err)
		} else {
			s.projects.noteClaim(projectClaim{p: p, folder: folder})
		}
	}
	return true, files
}

// OpProjectClaim is the audit op of a folder taking a project's id or remote as the first on
// this machine: a claim needs no word from the person, so it is shown in the activity log,
// where a folder the person does not know taking their project's id stands out.
const OpProjectClaim = "project_claim"

// auditClaims logs first claims: the identity in the slug column, the folder as the title.
func (s *Store) auditClaims(claims []projectClaim) {
	ctx := context.Background()
	for _, c := range claims {
		d, _ := json.Marshal(map[string]any{"title": c.folder, "workdir": c.p.Workdir, "kind": c.p.Kind,
			"identity": c.p.Identity})
		res, err := s.db.ExecContext(ctx, `INSERT INTO memory_audit_log(ts, op, actor, memory_id, slug, scope, scope_key,
			result, detail) VALUES(?,?,?,'',?,?,?,'ok',?)`, s.rfc(s.opts.Now()), OpProjectClaim, ActorProject,
			clip(c.p.Identity, 200), string(ScopeProject), c.p.Key, string(d))
		if err != nil {
			s.log.Error("memory: unable to write audit row", "err", err)
			continue
		}
		s.ownAudit(res)
	}
}

// firstClaim reports whether folder may take p's key without asking: no folder holds the key's
// trust yet, either nothing is kept under the key or this machine's index recorded this folder
// for it (a home from before trust records), and no other folder won the claim first (the owner
// marker, created exclusively, so two processes claiming at once cannot both win).
func (s *Store) firstClaim(p Project, folder string) bool {
	entries, err := os.ReadDir(s.abs(trustDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), p.Key+"-") && !strings.HasSuffix(e.Name(), ".refused") {
			return false
		}
	}
	if rec := s.recordedHolder(p.Key); rec != "" && rec != p.Workdir && rec != folder {
		return false
	}
	return s.takeOwner(p.Key, folder)
}

// recordedHolder is the folder this machine's index recorded for key, by this machine's own use
// of it, when memories are kept under it and that folder is here and still names the key (a
// home from before trust records).
// Memories that came from another machine (a sync, an import) record that machine's folder, or
// none: they do not hold the key here, so this machine's own clone takes it at its first use.
func (s *Store) recordedHolder(key string) string {
	ctx := context.Background()
	if !s.projectHolds(ctx, key) {
		return ""
	}
	// Only this machine's own use records an identity beside the folder (noteProject); a row
	// made by indexing synced files names the other machine's folder, which may exist here too
	// (the same layout on both, or two homes on one disk) without being this machine's claim.
	var rec string
	_ = s.db.QueryRowContext(ctx, `SELECT workdir FROM projects WHERE key = ? AND identity <> ''`, key).Scan(&rec)
	if rec == "" {
		return ""
	}
	if info, err := os.Stat(rec); err != nil || !info.IsDir() {
		return ""
	}
	if p, _ := resolveProject(rec); p.Key != key {
		return ""
	}
	return rec
}

// takeOwner creates key's owner marker naming folder, or reports whether the one there does.
// The marker is linked into place whole (writeFileAtomic with create), never replaced.
func (s *Store) takeOwner(key, folder string) bool {
	name := s.ownerName(key)
	if !s.readOnly {
		err := writeFileAtomic(name, []byte(folder+"\n"), nil, nil, true)
		if err == nil {
			return true
		}
		if !errors.Is(err, fs.ErrExist) {
			s.log.Warn("memory: unable to record a project's first claim", "workdir", folder, "err", err)
			return false
		}
	}
	data, err := readSmallFile(name, maxIDFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return s.readOnly // a read-only store records nothing and answers as the claim would
	}
	return err == nil && firstLine(data) == folder
}

// holders lists the folders whose trust records hold key (the second line of each record), or,
// when none does, the folder this machine's index recorded for it.
func (s *Store) holders(key string) []string {
	entries, _ := os.ReadDir(s.abs(trustDir))
	var out []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), key+"-") || strings.HasSuffix(e.Name(), ".refused") {
			continue
		}
		data, err := readSmallFile(filepath.Join(s.abs(trustDir), e.Name()), maxIDFileBytes)
		if err != nil {
			continue
		}
		lines := strings.Split(string(data), "\n")
		if len(lines) > 1 && filepath.IsAbs(strings.TrimSpace(lines[1])) {
			out = append(out, strings.TrimSpace(lines[1]))
		}
	}
	if len(out) == 0 {
		if rec := s.recordedHolder(key); rec != "" {
			out = append(out, rec)
		}
	}
	sort.Strings(out)
	return out
}

func firstLine(data []byte) string {
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(line)
}

func regular(name string) bool {
	info, err := os.Lstat(name)
	return err == nil && info.Mode().IsRegular()
}

// TrustProject records the person's word on workdir's id file: trust lets the folder share the
// memories of the project it names (memories it kept under
// its path are moved there, as at any first use), untrust (trust false) keeps it apart even if
// it was the first to use it. A linked worktree's word is its repository's (trustFolder). Only
// a person may call it (the api checks); a folder without an id file is refused
// (CodeNoProjectID: a remote needs no trust), one whose id file is passed over too
// (CodeProjectIDFileInvalid). It returns the project as the
// folder now resolves.
func (s *Store) TrustProject(workdir string, trust bool) (Project, error) {
	if s.readOnly {
		return Project{}, s.readOnlyErr()
	}
	wd, err := CanonicalWorkdir(workdir)
	if err != nil {
		return Project{}, err
	}
	if _, _, err := readProjectID(filepath.Join(wd, ProjectIDFile)); err != nil {
		return Project{}, &Error{Code: CodeProjectIDFileInvalid,
			Args: map[string]any{"Workdir": wd, "File": ProjectIDFile, "Problem": err.Error()},
			Msg:  fmt.Sprintf("%s: its %s is passed over (%v), so there is nothing to trust", wd, ProjectIDFile, err)}
	}
	p, _ := resolveProject(wd)
	if p.Kind != ProjectByID {
		return p, &Error{Code: CodeNoProjectID, Args: map[string]any{"Workdir": wd, "File": ProjectIDFile},
			Msg: fmt.Sprintf("%s has no %s: only a project named by an id file needs trust", wd, ProjectIDFile)}
	}
	folder, _ := trustFolder(wd)
	own := s.trustName(p.Key, folder)
	keep, drop := own, own+".refused"
	if !trust {
		keep, drop = drop, keep
	}
	if err := WriteFileAtomic(keep, []byte(p.Identity+"\n"+folder+"\n")); err != nil {
		return Project{}, fmt.Errorf("memory: unable to record trust: %w", err)
	}
	if err := os.Remove(drop); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Project{}, fmt.Errorf("memory: unable to record trust: %w", err)
	}
	return s.Project(workdir)
}
