package memory

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"engram/backend/text"
)

// ProjectIDFile is the file a person commits at the root of a project (the workdir) to name
// it: its first line that is neither empty nor a # comment is the project's id. It wins over
// the git remote, for projects without one or with several spellings of it.
const ProjectIDFile = ".engram-project"

// How a project was identified (Project.Kind).
const (
	ProjectByID     = "id"     // the id in ProjectIDFile
	ProjectByRemote = "remote" // the normalised URL of the git remote "origin"
	ProjectByPath   = "path"   // the canonical workdir: the key older builds used
)

// Project is what one workdir resolves to. Two folders with the same identity (two clones of
// one repository, on one machine or two) share one key, so their memories are one project.
type Project struct {
	// Workdir is the canonical workdir that was resolved.
	Workdir string `json:"workdir"`
	Kind    string `json:"kind"`
	// Identity is the id, the normalised remote URL (host/owner/repo), or the workdir.
	Identity string `json:"identity"`
	// Key names the project's folder: projects/<key>/.
	Key string `json:"key"`
	// PathKey is ProjectKey(Workdir), where builds before identities kept its memories.
	PathKey string `json:"path_key"`
	// Problem says why an id file or a remote was passed over ("" when nothing was).
	Problem string `json:"problem,omitempty"`
	// UntrustedID is the id of an id file passed over because the project it names already
	// belongs to another folder on this machine and the person has not trusted this one
	// (TrustProject); "" otherwise.
	UntrustedID string `json:"untrusted_id,omitempty"`
	// IDHolders are the folders on this machine that hold the passed-over id, so the person
	// can see who has it and take it back (TrustProject).
	IDHolders []string `json:"id_holders,omitempty"`
}

// The limits of what is read from a project folder: an id file or a git config larger than
// this is not what it claims to be, and a hostile folder must not make a search read much.
const (
	maxIDFileBytes    = 4 << 10
	maxGitConfigBytes = 1 << 20
	maxProjectIDChars = 128
)

// projectIDRE is what an id may hold: letters, digits and a few separators, no spaces or
// control characters. The key is a hash of it, so no id can name a folder; the rule keeps ids
// readable and one spelling per id.
var projectIDRE = text.Lazy(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$`)

// ValidProjectID reports whether id may name a project (ProjectIDFile).
func ValidProjectID(id string) bool {
	return len(id) <= maxProjectIDChars && projectIDRE.MatchString(id) && !strings.Contains(id, "..")
}

// identityKey is the key of an id or remote identity: the kind is hashed with it, so an id
// file cannot claim a remote's key, and neither can equal a path key (a path starts with /).
func identityKey(kind, identity string) string {
	sum := sha256.Sum256([]byte(kind + ":" + identity))
	return hex.EncodeToString(sum[:])[:16]
}

// ResolveProject reads what identifies the project at workdir: the id file, else the git
// remote "origin" (from the folder's git config; no git binary), else the path. It reads
// files: callers on hot paths go through Projects, which caches the answer.
func ResolveProject(workdir string) (Project, error) {
	wd, err := CanonicalWorkdir(workdir)
	if err != nil {
		return Project{}, err
	}
	p, _ := resolveProject(wd)
	return p, nil
}

// resolveProject resolves a canonical workdir and returns the files it consulted, whose
// stamps tell the cache when to resolve again.
func resolveProject(wd string) (Project, []string) {
	p := Project{Workdir: wd, Kind: ProjectByPath, Identity: wd, Key: ProjectKey(wd), PathKey: ProjectKey(wd)}
	idPath := filepath.Join(wd, ProjectIDFile)
	consulted := []string{idPath}
	id, found, err := readProjectID(idPath)
	switch {
	case err != nil:
		p.Problem = err.Error()
	case found:
		p.Kind, p.Identity, p.Key = ProjectByID, id, identityKey(ProjectByID, id)
		return p, consulted
	}
	return resolveRemote(p, consulted)
}

// resolveWithoutID is what wd is when its id file is not honoured (not trusted): its remote,
// else its path.
func resolveWithoutID(wd string) (Project, []string) {
	p := Project{Workdir: wd, Kind: ProjectByPath, Identity: wd, Key: ProjectKey(wd), PathKey: ProjectKey(wd)}
	return resolveRemote(p, []string{filepath.Join(wd, ProjectIDFile)})
}

// resolveRemote gives p the identity of its git remote origin when it has one.
func resolveRemote(p Project, consulted []string) (Project, []string) {
	wd := p.Workdir
	raw, files, err := originURL(wd)
	consulted = append(consulted, files...)
	if err != nil {
		if p.Problem == "" {
			p.Problem = err.Error()
		}
		return p, consulted
	}
	if raw == "" {
		return p, consulted
	}
	remote, ok := NormalizeRemote(raw, wd)
	if !ok {
		if p.Problem == "" {
			p.Problem = fmt.Sprintf("the git remote origin %q is not a URL this can read", clip(raw, 200))
		}
		return p, consulted
	}
	p.Kind, p.Identity, p.Key = ProjectByRemote, remote, identityKey(ProjectByRemote, remote)
	return p, consulted
}

// readProjectID reads the id file; found is false when there is none. A file that is not a
// regular file, too large or holding an id outside the rule is an error (and is passed over).
func readProjectID(name string) (id string, found bool, err error) {
	data, err := readSmallFile(name, maxIDFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", ProjectIDFile, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !ValidProjectID(line) {
			return "", false, fmt.Errorf("%s: %q is not a valid id (letters, digits and . _ : / @ + -, at most %d, no \"..\")",
				ProjectIDFile, clip(line, 80), maxProjectIDChars)
		}
		return line, true, nil
	}
	return "", false, fmt.Errorf("%s: holds no id", ProjectIDFile)
}

// readSmallFile reads a regular file (not following a final symlink) of at most limit bytes.
func readSmallFile(name string, limit int64) ([]byte, error) {
	info, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}

// originURL finds the git config of the repository whose work tree is wd (".git" a folder, or
// a file "gitdir: …" in a linked worktree or submodule, whose "commondir" leads to the shared
// config) and returns remote.origin.url, "" when there is none, with the files it consulted.
func originURL(wd string) (string, []string, error) {
	dotGit := filepath.Join(wd, ".git")
	files := []string{dotGit}
	info, err := os.Stat(dotGit)
	if err != nil {
		return "", files, nil // not a git work tree
	}
	gitDir := dotGit
	if !info.IsDir() {
		if gitDir, err = gitdirOf(wd); err != nil {
			return "", files, err
		}
	}
	common := filepath.Join(gitDir, "commondir")
	files = append(files, common)
	if dir, ok := commonDirOf(gitDir); ok {
		gitDir = dir
	}
	config := filepath.Join(gitDir, "config")
	files = append(files, config)
	data, err := readSmallFile(config, maxGitConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", files, nil
	}
	if err != nil {
		return "", files, fmt.Errorf("git config: %w", err)
	}
	return configValue(data, "remote", "origin", "url"), files, nil
}

// gitdirOf reads the .git file of a linked worktree or submodule at wd ("gitdir: <dir>") and
// returns that directory, made absolute against wd.
func gitdirOf(wd string) (string, error) {
	data, err := readSmallFile(filepath.Join(wd, ".git"), maxIDFileBytes)
	if err != nil {
		return "", fmt.Errorf(".git: %w", err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	dir = strings.TrimSpace(dir)
	if !ok || dir == "" {
		return "", errors.New(".git: not a \"gitdir:\" file")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, dir)
	}
	return filepath.Clean(dir), nil
}

// commonDirOf reads gitDir's "commondir" (a linked worktree's way to the repository's shared
// git directory), made absolute against gitDir; false when there is none.
func commonDirOf(gitDir string) (string, bool) {
	data, err := readSmallFile(filepath.Join(gitDir, "commondir"), maxIDFileBytes)
	if err != nil {
		return "", false
	}
	dir := strings.TrimSpace(string(data))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitDir, dir)
	}
	return dir, true
}

// configValue is the first value of section "sub".key in a git config file: sections and keys
// case-insensitive, the subsection exact, values unquoted with # and ; comments dropped.
// Includes are not followed (a remote is not set in an included file in practice).
func configValue(data []byte, section, sub, key string) string {
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				in = false
				continue
			}
			head := strings.TrimSpace(line[1:end])
			name, rest, _ := strings.Cut(head, " ")
			rest = strings.TrimSpace(rest)
			if strings.HasPrefix(rest, `"`) && strings.HasSuffix(rest, `"`) && len(rest) >= 2 {
				rest = rest[1 : len(rest)-1]
			} else if n, s, ok := strings.Cut(name, "."); ok && rest == "" {
				name, rest = n, strings.ToLower(s) // the old [remote.origin] spelling
			}
			in = strings.EqualFold(name, section) && rest == sub
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		return configString(strings.TrimSpace(v))
	}
	return ""
}

// configString reads a git config value: quotes removed, \" \\ kept literal, a # or ; outside
// quotes starts a comment.
func configString(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// NormalizeRemote turns the spellings of one repository's URL into one identity, so clones
// over SSH and HTTPS share their project: "git@Host:owner/repo.git", "ssh://git@host:22/owner/repo",
// "https://user@host/owner/repo/" all give "host/owner/repo". The user, the port, the scheme,
// a trailing ".git" and slashes are dropped and the host lowercased; the path keeps its case.
// A local path (or file:// URL) gives "file:" and the cleaned absolute path (relative paths
// are taken from wd). ok is false when raw cannot be read as a remote.
func NormalizeRemote(raw, wd string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > 2048 || strings.ContainsAny(raw, " \t\r\n\x00") {
		return "", false
	}
	var host, p string
	switch {
	case strings.Contains(raw, "://"):
		u, err := url.Parse(raw)
		if err != nil {
			return "", false
		}
		if strings.EqualFold(u.Scheme, "file") {
			return localRemote(u.Path, wd)
		}
		host, p = u.Hostname(), u.Path
	case scpLike(raw):
		at := raw
		if i := strings.LastIndexByte(at[:strings.IndexByte(at, ':')], '@'); i >= 0 {
			at = at[i+1:]
		}
		host, p, _ = strings.Cut(at, ":")
	default:
		return localRemote(raw, wd)
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" || strings.ContainsAny(host, "/\\@") {
		return "", false
	}
	p = path.Clean("/" + p)
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/"), ".git")
	p = strings.Trim(p, "/")
	if p == "" || p == "." {
		return "", false
	}
	return host + "/" + p, true
}

// scpLike reports whether raw is git's "[user@]host:path" form: a colon before any slash, and
// not a Windows drive letter.
func scpLike(raw string) bool {
	colon := strings.IndexByte(raw, ':')
	if colon <= 0 {
		return false
	}
	if slash := strings.IndexAny(raw, `/\`); slash >= 0 && slash < colon {
		return false
	}
	host := raw[:colon]
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	return len(host) > 1
}

func localRemote(p, wd string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(wd, p)
	}
	p = strings.TrimSuffix(filepath.Clean(p), string(filepath.Separator)+".git")
	return "file:" + filepath.ToSlash(strings.TrimSuffix(p, ".git")), true
}
