package backup

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
)

// A backup of a home with git history carries memory/.git/config, and a restore puts it in
// place. Git's own command line runs programs named there (core.fsmonitor, core.sshCommand,
// core.pager, filter drivers, diff textconv, credential helpers, aliases with "!", includes of
// other files…), so an archive made or altered by someone else could make the person's next
// `git status` in the memory folder run a command of theirs. The manifest's checksums do not
// help: whoever wrote the archive wrote its manifest too. Engram writes only the keys below
// (go-git runs none of them anyway); a restore keeps those and leaves every other one out,
// saying which (RestoreResult.GitConfigDropped).

// gitKeys are the config keys a restore keeps in sections without a subsection, and subKeys
// those in "remote" and "branch" (any subsection). Lower case, as git compares them.
var (
	gitKeys = map[string]map[string]bool{
		"core":       {"repositoryformatversion": true, "bare": true, "filemode": true, "logallrefupdates": true, "ignorecase": true, "precomposeunicode": true, "symlinks": true},
		"user":       {"name": true, "email": true},
		"extensions": {"objectformat": true},
		"init":       {"defaultbranch": true},
	}
	subKeys = map[string]map[string]bool{
		"remote": {"url": true, "fetch": true},
		"branch": {"remote": true, "merge": true},
	}
)

// safeGitURL reports whether a remote URL is one git fetches from without running a program
// the URL names ("ext::sh -c …" runs one; "fd::" talks to file descriptors).
func safeGitURL(u string) bool {
	l := strings.ToLower(strings.TrimSpace(u))
	return !strings.HasPrefix(l, "ext::") && !strings.HasPrefix(l, "fd::") && !strings.HasPrefix(l, "-")
}

// sanitizeGitConfig rewrites root/.git/config (root: the unpacked memory folder) with only the
// keys in gitKeys and returns the ones it left out ("core.fsmonitor", "filter.x.smudge"),
// sorted; nil when the folder has no git config or nothing was left out. A config git's
// format cannot read is replaced by a bare one ("config" is then the one name returned).
func sanitizeGitConfig(root string) ([]string, error) {
	p := filepath.Join(root, ".git", "config")
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	in := gitconfig.New()
	out := gitconfig.New()
	dropped := map[string]bool{}
	if err := gitconfig.NewDecoder(bytes.NewReader(data)).Decode(in); err != nil {
		dropped["config"] = true
		out.Section("core").SetOption("repositoryformatversion", "0").SetOption("bare", "false")
	} else {
		for _, sec := range in.Sections {
			name := strings.ToLower(sec.Name)
			for _, o := range sec.Options {
				if gitKeys[name][strings.ToLower(o.Key)] {
					out.AddOption(sec.Name, "", o.Key, o.Value)
				} else {
					dropped[name+"."+strings.ToLower(o.Key)] = true
				}
			}
			for _, sub := range sec.Subsections {
				for _, o := range sub.Options {
					k := strings.ToLower(o.Key)
					if subKeys[name][k] && (k != "url" || safeGitURL(o.Value)) {
						out.AddOption(sec.Name, sub.Name, o.Key, o.Value)
					} else {
						dropped[name+"."+sub.Name+"."+k] = true
					}
				}
			}
		}
	}
	if len(dropped) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := gitconfig.NewEncoder(&buf).Encode(out); err != nil {
		return nil, err
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(dropped))
	for k := range dropped {
		names = append(names, k)
	}
	sort.Strings(names)
	return names, nil
}
