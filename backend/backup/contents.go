package backup

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"engram/backend/memory"
)

// What a backup archives of the memory folder, what it leaves out and says so, and how its
// manifest counts what it holds.

// Codes of the entries a backup leaves out (LeftOut.Code).
const (
	// LeftLink is a symbolic link, to a file or a folder, wherever it points. A backup never
	// follows one, like the store, which never indexes what a link points to and reports the
	// link instead (memory.ProblemSymlink, the same code): following it could carry any file of
	// the computer into an archive, and a restore refuses links. The link is named in the
	// manifest with its target, so the person knows what is not in the archive.
	LeftLink = memory.ProblemSymlink
	// LeftSpecial is a pipe, a socket or a device: nothing a restore could put back.
	LeftSpecial = "special_file"
)

// MaxLeftOutListed bounds Manifest.LeftOut; LeftOutCount counts every entry left out (doctor
// lists every link too). A folder of thousands of links must not make the manifest, and each
// api result carrying it, that much longer.
const MaxLeftOutListed = 200

// LeftOut is an entry of the memory folder a backup did not archive, and why.
type LeftOut struct {
	// Path is the entry's place under the memory folder, with slashes.
	Path string `json:"path"`
	Code string `json:"code"`
	// Target is what a link points to, as the link says it.
	Target string `json:"target,omitempty"`
	// Detail says why in English; DetailKey and DetailArgs say it in the catalog (detail.*).
	Detail     string         `json:"detail"`
	DetailKey  string         `json:"detail_key"`
	DetailArgs map[string]any `json:"detail_args,omitempty"`
}

// leftOut describes the entry at abs (rel under the memory folder) that is not a regular file.
func leftOut(abs, rel string, typ fs.FileMode) LeftOut {
	if typ&fs.ModeSymlink == 0 {
		return LeftOut{Path: rel, Code: LeftSpecial, Detail: "it is not a regular file (a pipe, socket or device) and holds nothing to back up",
			DetailKey: "detail.backup_special"}
	}
	target, _ := os.Readlink(abs)
	args := map[string]any{"Target": target}
	// Stat follows the link only to tell a folder from a file: nothing behind it is read.
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return LeftOut{Path: rel, Code: LeftLink, Target: target, DetailKey: "detail.backup_link_folder", DetailArgs: args,
			Detail: fmt.Sprintf("it is a link to the folder %s; a backup never follows links, so nothing in that folder is in it. Put the folder itself here to have it backed up", target)}
	}
	return LeftOut{Path: rel, Code: LeftLink, Target: target, DetailKey: "detail.backup_link", DetailArgs: args,
		Detail: fmt.Sprintf("it is a link to %s; a backup never follows links, so what it points to is not in it. Put the file itself here to have it backed up", target)}
}

// knownLeftOut keeps a read manifest's left-out list to what a backup writes: no checksum
// covers the manifest, so a list longer than a backup makes, or naming another catalog message
// than the three reasons, is cut or falls back to its English detail.
func knownLeftOut(list []LeftOut) []LeftOut {
	if len(list) > MaxLeftOutListed {
		list = list[:MaxLeftOutListed]
	}
	for i, l := range list {
		switch l.DetailKey {
		case "detail.backup_link", "detail.backup_link_folder", "detail.backup_special":
		default:
			list[i].DetailKey, list[i].DetailArgs = "", nil
		}
	}
	return list
}

// noteLeftOut records l in m: every one counted, the first MaxLeftOutListed listed.
func noteLeftOut(m *Manifest, l LeftOut) {
	m.LeftOutCount++
	if len(m.LeftOut) < MaxLeftOutListed {
		m.LeftOut = append(m.LeftOut, l)
	}
}

// listFiles lists the regular files under root, sorted, as slash paths: everything but the
// index (copied consistently instead), the locks, the watcher's own files (.watch.lock,
// .watch-sync-*, .watch.sock: this machine's running state) and interrupted writes. Links are
// never followed, and they and any other entry that is not a regular file are returned as
// left out, never dropped without a word. The memory folder itself may be a link (the home's
// business, as for the store, which opens it through the link): it is walked where it leads,
// or the backup would hold no file at all.
func listFiles(root string) ([]string, []LeftOut, error) {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	var out []string
	var left []LeftOut
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if strings.HasPrefix(name, ".tmp-") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(name, IndexEntry) || name == ".lock" || strings.HasPrefix(name, ".tmp-") ||
			(filepath.Dir(p) == root && strings.HasPrefix(name, ".watch")) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !d.Type().IsRegular() {
			left = append(left, leftOut(p, rel, d.Type()))
			return nil
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("backup: unable to list %s: %w", root, err)
	}
	return out, left, nil
}

// tally counts a backup's files. The memories, journal days and archived ones are the
// store's own figures (memory.Store.Counts, taken in the hold that copies the index, so they
// are those of the index in the archive, and those engram quota, list and doctor say): what
// the store has read, never guessed from paths. The trash, the snapshots and the agents' key
// files are counted by their place; every other file kept (a note, a file the store cannot
// read or has not read yet) is Other.
type tally struct {
	counts memory.Counts
	// candidates counts the files that are none of trash, snapshots, key files or the folder's
	// own records: those the store's figures count, and the others.
	candidates int
}

// add counts rel (a path under the memory folder) in m.
func (t *tally) add(m *Manifest, rel string) {
	parts := strings.Split(rel, "/")
	switch first := parts[0]; {
	case first == ".trash":
		m.Trash++
	case first == ".snapshots":
		m.Snapshots++
	case strings.HasPrefix(first, ".") && (first != ".archive" || len(parts) == 1):
		// The folder's own records beside the memories (the git history, trusted projects,
		// locks): archived, but no figure of the summary.
	case len(parts) == 3 && first == "agents" && parts[2] == memory.KVFileName && memory.ValidAgent(parts[1]):
		m.KVFiles++
	default:
		t.candidates++
	}
}

// finish puts the store's figures in m, and the files kept beside them as Other.
func (t *tally) finish(m *Manifest) {
	m.Memories, m.Daily, m.Archived, m.ArchivedDaily = t.counts.Memories, t.counts.JournalDays, t.counts.Archived, t.counts.ArchivedDays
	// Every file the index holds is among the candidates (the hold keeps them in step); max
	// guards a file removed by hand that the index has not heard of yet.
	m.Other = max(0, t.candidates-t.counts.Total())
}
