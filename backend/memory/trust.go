package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// trustDir holds, per project id and folder, the person's word that the folder may use the
// id (a file "<id key>-<path key>") or may not ("….refused"). Under the memory root but
// hidden, so the walker, the watcher and exports pass it by; it is not part of the index,
// which a reindex rebuilds without it.
const trustDir = ".trusted-projects"

// CodeNoProjectID refuses to trust a folder that has no id file: a remote or a path identity
// is not something a folder can claim, so there is nothing to trust.
const CodeNoProjectID = "project_without_id"

// Why an id file needs trust: it is a file inside a repository, and anyone who publishes a
// repository can write one naming the project of somebody else's (ids are short words, easy
// to guess). An agent started in a clone of it would then read and write that project's
// memories. So an id belongs to the first folder on this machine that uses it (or to the
// folder this machine's index already recorded for it, for homes from before this rule), and
// another folder naming it resolves by its remote or path, with a problem saying how the person
// can trust it (`engram project --trust DIR`). A git remote needs no trust: it is set by the
// clone, not by the repository's content.

// trustName is the record of p's id for p's folder.
func (s *Store) trustName(p Project) string {
	return filepath.Join(s.abs(trustDir), p.Key+"-"+p.PathKey)
}

// vouchProject answers whether p (resolved by its id file) may use its id; when not, it is
// resolved again without the id. The files returned are those the answer depends on, whose
// stamps tell the project cache to ask again.
func (s *Store) vouchProject(p Project) (Project, []string) {
	if p.Kind != ProjectByID {
		return p, nil
	}
	own := s.trustName(p)
	files := []string{own, own + ".refused", s.abs(trustDir)}
	if regular(own) {
		return p, files
	}
	if !regular(own+".refused") && s.firstClaim(p) {
		if !s.readOnly {
			if err := WriteFileAtomic(own, []byte(p.Identity+"\n"+p.Workdir+"\n")); err != nil {
				s.log.Warn("memory: unable to record a project's first folder", "workdir", p.Workdir, "err", err)
			}
		}
		return p, files
	}
	q, more := resolveWithoutID(p.Workdir)
	q.UntrustedID = p.Identity
	q.Problem = fmt.Sprintf("%s names the project %q, which belongs to another folder on this machine; "+
		"to share its memories with this folder run: engram project --trust %s", ProjectIDFile, p.Identity, p.Workdir)
	return q, append(more, files...)
}

// firstClaim reports whether p's folder may take its id without asking: no folder holds the
// id's trust yet, and either nothing is kept under the id's key or this machine's index
// recorded this folder for it (a home from before trust records).
func (s *Store) firstClaim(p Project) bool {
	entries, err := os.ReadDir(s.abs(trustDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), p.Key+"-") && !strings.HasSuffix(e.Name(), ".refused") {
			return false
		}
	}
	ctx := context.Background()
	return !s.projectHolds(ctx, p.Key) || s.ProjectWorkdir(ctx, p.Key) == p.Workdir
}

func regular(name string) bool {
	info, err := os.Lstat(name)
	return err == nil && info.Mode().IsRegular()
}

// TrustProject records the person's word on workdir's id file: trust lets the folder share
// the memories of the project its id names (memories it kept under its path are moved there,
// as at any first use), untrust (trust false) keeps it apart even if it was the first to use
// the id. Only a person may call it (the api checks); a folder without an id file is refused
// (CodeNoProjectID). It returns the project as the folder now resolves.
func (s *Store) TrustProject(workdir string, trust bool) (Project, error) {
	if s.readOnly {
		return Project{}, s.readOnlyErr()
	}
	wd, err := CanonicalWorkdir(workdir)
	if err != nil {
		return Project{}, err
	}
	p, _ := resolveProject(wd)
	if p.Kind != ProjectByID {
		return p, &Error{Code: CodeNoProjectID, Args: map[string]any{"Workdir": wd, "File": ProjectIDFile},
			Msg: fmt.Sprintf("%s has no %s: only a project named by an id file needs trust", wd, ProjectIDFile)}
	}
	own := s.trustName(p)
	keep, drop := own, own+".refused"
	if !trust {
		keep, drop = drop, keep
	}
	if err := WriteFileAtomic(keep, []byte(p.Identity+"\n"+p.Workdir+"\n")); err != nil {
		return Project{}, fmt.Errorf("memory: unable to record trust: %w", err)
	}
	if err := os.Remove(drop); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Project{}, fmt.Errorf("memory: unable to record trust: %w", err)
	}
	return s.Project(workdir)
}
