package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// HomeDiff is what a restore in place of a backup would change among the home's memory files
// (the Markdown memories and journal days, archived ones too, and the agents' kv.json; not the
// trash, the snapshots or the history's .git). A preview said only what the backup held: a
// person restoring an older backup over a home with newer memories learnt only afterwards
// that those were gone (kept in the pre-restore backup). Lists name at most
// MaxLeftOutListed files, in path order; the counts are whole.
type HomeDiff struct {
	// Changed are files in both whose content differs: the restore puts the backup's back.
	Changed      []string `json:"changed,omitempty"`
	ChangedCount int      `json:"changed_count"`
	// OnlyHere are files the home has and the backup does not: the restore removes them.
	OnlyHere      []string `json:"only_here,omitempty"`
	OnlyHereCount int      `json:"only_here_count"`
	// OnlyInBackup counts files the backup brings back that the home does not have.
	OnlyInBackup int `json:"only_in_backup"`
}

// Conflicts reports whether the restore would replace or remove anything of the home's.
func (d HomeDiff) Conflicts() bool { return d.ChangedCount+d.OnlyHereCount > 0 }

// comparedFile reports whether rel (slash path inside the memory folder) is one a HomeDiff
// compares.
func comparedFile(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	if first == ".git" || first == ".trash" || first == ".snapshots" {
		return false
	}
	if strings.HasSuffix(rel, ".md") {
		return true
	}
	parts := strings.Split(rel, "/")
	return len(parts) == 3 && parts[0] == "agents" && parts[2] == "kv.json"
}

// CompareHome compares the memory files of the manifest m (a checked archive's) with those in
// the memory folder root.
func CompareHome(root string, m Manifest) (HomeDiff, error) {
	inBackup := map[string]string{}
	for _, f := range m.Files {
		rel, ok := strings.CutPrefix(f.Path, MemoryDir+"/")
		if ok && comparedFile(rel) {
			inBackup[path.Clean(rel)] = f.SHA256
		}
	}
	var d HomeDiff
	var changed, here []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: the restore's own walk says it
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if e.IsDir() {
			if p != root && (rel == ".git" || rel == ".trash" || rel == ".snapshots") {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() || !comparedFile(rel) {
			return nil
		}
		want, ok := inBackup[rel]
		if !ok {
			here = append(here, rel)
			return nil
		}
		seen[rel] = true
		got, err := fileSHA256(p)
		if err != nil || got != want {
			changed = append(changed, rel)
		}
		return nil
	})
	if err != nil {
		return HomeDiff{}, err
	}
	d.OnlyInBackup = len(inBackup) - len(seen)
	d.ChangedCount, d.Changed = len(changed), firstSorted(changed)
	d.OnlyHereCount, d.OnlyHere = len(here), firstSorted(here)
	return d, nil
}

func firstSorted(s []string) []string {
	sort.Strings(s)
	if len(s) > MaxLeftOutListed {
		s = s[:MaxLeftOutListed]
	}
	return s
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
