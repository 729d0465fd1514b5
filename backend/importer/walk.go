package importer

import (
	"engram/backend/coded"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// walkFiles lists the files under root that keep accepts (by path relative to root), sorted.
// Folders whose name starts with a dot are skipped unless dotDirs accepts them (.obsidian,
// .git, .trash hold no notes). Links to folders are not followed. A link that would be read
// (its name is kept) whose target lies outside root refuses the whole source: an import must
// never read what the person did not choose. A link inside root is read under its own name
// unless its target is itself a file the walk keeps (then the target is read, once): CLAUDE.md
// is often a link to AGENTS.md, which nothing else reads. Too many files or bytes refuse it
// too.
func walkFiles(root string, keep func(rel string) bool, dotDirs func(name string) bool) ([]string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fail(CodeSourceRead, coded.Reason(map[string]any{"Path": root}, err), "unable to read %s: %v", root, err)
	}
	var files []string
	var total int64
	linked := map[string]bool{} // targets already read through a link
	err = filepath.WalkDir(realRoot, func(p string, d fs.DirEntry, werr error) error {
		if werr != nil {
			return fail(CodeSourceRead, coded.Reason(map[string]any{"Path": p}, werr), "unable to read %s: %v", p, werr)
		}
		rel, _ := filepath.Rel(realRoot, p)
		if d.IsDir() {
			if p != realRoot && strings.HasPrefix(d.Name(), ".") && (dotDirs == nil || !dotDirs(d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if !keep(filepath.ToSlash(rel)) {
				return nil // a linked folder or another file is never followed nor read
			}
			target, err := filepath.EvalSymlinks(p)
			if err != nil || !within(realRoot, target) {
				return fail(CodeSymlinkOut, map[string]any{"Path": p, "Root": root}, "%s links outside %s", p, root)
			}
			info, err := os.Stat(target)
			if err != nil || !info.Mode().IsRegular() {
				return nil // a link to a folder is never followed
			}
			if trel, err := filepath.Rel(realRoot, target); err == nil && keep(filepath.ToSlash(trel)) {
				return nil // read under its own name
			}
			if linked[target] {
				return nil
			}
			linked[target] = true
			total += info.Size()
			if len(files) >= MaxFiles || total > MaxTotalBytes {
				return fail(CodeSourceTooBig, map[string]any{"Path": root, "Max": MaxTotalBytes}, "%s holds more than %d files or %d bytes", root, MaxFiles, MaxTotalBytes)
			}
			files = append(files, p)
			return nil
		}
		if !d.Type().IsRegular() || !keep(filepath.ToSlash(rel)) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return fail(CodeSourceRead, coded.Reason(map[string]any{"Path": p}, err), "unable to read %s: %v", p, err)
		}
		total += info.Size()
		if len(files) >= MaxFiles || total > MaxTotalBytes {
			return fail(CodeSourceTooBig, map[string]any{"Path": root, "Max": MaxTotalBytes}, "%s holds more than %d files or %d bytes", root, MaxFiles, MaxTotalBytes)
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(os.PathSeparator))
}

// isDir reports whether path is a folder (following a link the person named themselves).
func isDir(path string) (bool, error) {
	st, err := os.Stat(path)
	if err != nil {
		return false, fail(CodeSourceRead, coded.Reason(map[string]any{"Path": path}, err), "unable to read %s: %v", path, err)
	}
	return st.IsDir(), nil
}
