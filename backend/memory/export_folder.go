package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"

	"engram/backend/coded"
)

// Codes of a Markdown folder export.
const (
	// CodeExportDirNotEmpty refuses a folder that already holds something: an export never
	// writes over files it did not make.
	CodeExportDirNotEmpty = "export_dir_not_empty"
	// CodeExportDirInHome refuses a folder inside the home: the watcher would index the copies.
	CodeExportDirInHome = "export_dir_in_home"
	// CodeExportWriteFailed is an export folder that cannot be made or written (no such parent,
	// no permission, a full or read-only disk).
	CodeExportWriteFailed = "export_write_failed"
)

// FolderExport reports a Markdown folder export.
type FolderExport struct {
	Dir      string `json:"dir"`
	Memories int    `json:"memories"`
	Daily    int    `json:"daily"`
	// Gone counts memories deleted between the listing and their copy (not exported).
	Gone int `json:"gone"`
}

// ExportFolder copies the live memories f selects, as their Markdown files byte for byte,
// into dir: a folder a person opens in Obsidian (or any editor) and reads without Engram.
// Layout: global/<type>/<slug>.md, projects/<project folder name>/<type>/<slug>.md,
// agents/<agent>/<type>/<slug>.md and journal/<date>.md. Frontmatter keeps title, aliases and
// tags under the names Obsidian reads, and bodies keep their [[links]] and relation lines as
// written, so the graph reads the same from the copy. dir must be absolute, outside the home,
// and new or empty; it is created.
func (s *Store) ExportFolder(ctx context.Context, dir string, f Filter) (FolderExport, error) {
	rep := FolderExport{Dir: dir}
	if dir == "" || !filepath.IsAbs(dir) {
		return rep, codeErr(CodeInvalidWorkdir, map[string]any{"Workdir": dir}, "export folder %q must be an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	rep.Dir = dir
	if real, home := resolvedPath(dir), resolvedPath(s.home); inside(dir, s.home) || inside(s.home, dir) ||
		inside(real, home) || inside(home, real) {
		return rep, codeErr(CodeExportDirInHome, map[string]any{"Dir": dir}, "export folder %s overlaps the home", dir)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return rep, codeErr(CodeExportDirNotEmpty, map[string]any{"Dir": dir}, "export folder %s is not empty", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rep, exportFailed(dir, err)
	}
	// The folder is made first, so an export of nothing still leaves the folder it reports
	// (it said "exported into /proc/x" and made nothing), and one that cannot be made fails
	// before any work. Private like the home: the copies are the person's memories.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return rep, exportFailed(dir, err)
	}
	f.Archived = false
	where, args, err := f.where(s.projects)
	if err != nil {
		return rep, err
	}
	type row struct{ path, scope, key, workdir, agent, typ, slug string }
	var list []row
	err = func() error {
		rows, err := s.db.QueryContext(ctx, `SELECT m.path, m.scope, m.scope_key, m.workdir, m.agent, m.type, m.slug
			FROM memory_meta m WHERE `+where+` ORDER BY m.path`, args...)
		if err != nil {
			return fmt.Errorf("memory: unable to list memories to export: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.path, &r.scope, &r.key, &r.workdir, &r.agent, &r.typ, &r.slug); err != nil {
				return fmt.Errorf("memory: unable to scan memory to export: %w", err)
			}
			list = append(list, r)
		}
		return rows.Err()
	}()
	if err != nil {
		return rep, err
	}
	names := projectFolderNames(func(yield func(key, workdir string)) {
		for _, r := range list {
			if r.scope == string(ScopeProject) {
				yield(r.key, r.workdir)
			}
		}
	})
	for _, r := range list {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		var to string
		switch {
		case r.typ == string(TypeDaily):
			to = filepath.Join("journal", r.slug+".md")
		case r.scope == string(ScopeProject):
			to = filepath.Join("projects", names[r.key], r.typ, r.slug+".md")
		case r.scope == string(ScopeAgent):
			to = filepath.Join("agents", r.agent, r.typ, r.slug+".md")
		default:
			to = filepath.Join("global", r.typ, r.slug+".md")
		}
		data, err := readNoFollow(s.abs(r.path))
		if errors.Is(err, fs.ErrNotExist) {
			rep.Gone++
			continue
		}
		if err != nil {
			return rep, fmt.Errorf("memory: unable to read %s: %w", r.path, err)
		}
		dst := filepath.Join(dir, to)
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return rep, exportFailed(filepath.Dir(dst), err)
		}
		if err := WriteFileAtomic(dst, data); err != nil {
			return rep, exportFailed(dst, err)
		}
		if r.typ == string(TypeDaily) {
			rep.Daily++
		} else {
			rep.Memories++
		}
	}
	return rep, nil
}

// exportFailed is the export's failure to make or write path, with the reason in words where
// it is one people meet (coded.Reason).
func exportFailed(path string, err error) error {
	return codeErr(CodeExportWriteFailed, coded.Reason(map[string]any{"Path": path}, err), "unable to write %s: %v", path, err)
}

// projectFolderNames names each project's folder in an export by its workdir's last element
// (what a person recognises), made safe for a file name; projects sharing a name are told
// apart by their key. Names are compared as a case-insensitive file system (macOS, Windows)
// sees them, case and Unicode normalisation folded: "Shop" and "shop" were two folders here
// and one there, the second project's files landing in the first's.
func projectFolderNames(each func(yield func(key, workdir string))) map[string]string {
	byKey := map[string]string{}
	count := map[string]int{}
	fold := func(name string) string { return strings.ToLower(norm.NFC.String(name)) }
	each(func(key, workdir string) {
		if _, ok := byKey[key]; ok {
			return
		}
		name := safeFolderName(filepath.Base(workdir))
		if name == "" {
			name = key
		}
		byKey[key] = name
		count[fold(name)]++
	})
	for key, name := range byKey {
		if count[fold(name)] > 1 {
			byKey[key] = name + "-" + key
		}
	}
	return byKey
}

// safeFolderName keeps letters, digits, '-', '_', '.' and spaces (other characters become '-'),
// and never yields "." or "..".
func safeFolderName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '/' || r == '\\' || r < 0x20 || r == 0x7f || strings.ContainsRune(`:*?"<>|`, r):
			b.WriteRune('-')
		default:
			b.WriteRune(r)
		}
	}
	out := strings.TrimSpace(b.String())
	if out == "." || out == ".." || strings.HasPrefix(out, ".") {
		out = strings.TrimLeft(out, ".")
	}
	return out
}

// resolvedPath is p with the symbolic links of its longest existing part resolved and the rest
// appended: /tmp/link/new, where /tmp/link points into the home, is the home's folder it names.
// Before, an export checked only the path as typed, and one through such a link wrote its
// copies into the memory folder, where the watcher indexed them.
func resolvedPath(p string) string {
	rest := ""
	for cur := filepath.Clean(p); ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return filepath.Clean(p)
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// inside reports whether p is base or below it.
func inside(p, base string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
