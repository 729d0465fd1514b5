package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"engram/backend/memory/format"
	"engram/backend/text"
)

var (
	dateRE = text.Lazy(`^\d{4}-\d{2}-\d{2}$`)
	keyRE  = text.Lazy(`^[0-9a-f]{16}$`)
	// archiveDirRE is a year, with -N when the same path was archived again that year.
	archiveDirRE = text.Lazy(`^\d{4}(-\d+)?$`)
)

// ValidSlug reports whether s follows the slug rule of DESIGN §2.
func ValidSlug(s string) bool { return format.ValidSlug(s) }

// checkNewSlug refuses a slug a new file would take (a write, a rename, an import) when it is
// no slug or a name Windows reserves (format.ReservedSlug). Files already on disk are read
// through ValidSlug alone, so a con.md placed by hand is still indexed and never lost.
func checkNewSlug(slug string) error {
	if !ValidSlug(slug) {
		return codeErr(CodeInvalidSlug, map[string]any{"Slug": slug}, "invalid slug %q", slug)
	}
	if format.ReservedSlug(slug) {
		alt := slug + "-memory"
		return codeErr(CodeReservedSlug, map[string]any{"Slug": slug, "Suggest": alt},
			"slug %q is a device name Windows reserves (a file %s.md cannot exist there); choose another, such as %q", slug, slug, alt)
	}
	return nil
}

// checkNewAgent refuses an agent whose folder does not exist yet when Windows reserves its
// name (format.ReservedAgent): a store synced there could not hold agents/con. An existing
// folder of that name, made by hand or by an older Engram, is still read and written.
func (s *Store) checkNewAgent(agent string) error {
	if !format.ReservedAgent(agent) {
		return nil
	}
	if fi, err := os.Stat(filepath.Join(s.root, "agents", agent)); err == nil && fi.IsDir() {
		return nil
	}
	alt := strings.TrimRight(agent, ".") + "-agent"
	return codeErr(CodeReservedAgent, map[string]any{"Agent": agent, "Suggest": alt},
		"agent %q is a device name Windows reserves (a folder agents/%s cannot exist there); choose another, such as %q", agent, agent, alt)
}

// ValidAgent reports whether a is usable as an agent folder name.
func ValidAgent(a string) bool { return format.ValidAgent(a) }

// ReservedAgent reports whether a new folder agents/a would bear a name Windows reserves.
func ReservedAgent(a string) bool { return format.ReservedAgent(a) }

// ValidProjectKey reports whether k is a project folder name (see ProjectKey).
func ValidProjectKey(k string) bool { return keyRE.MatchString(k) }

// CanonicalWorkdir cleans an absolute workdir so one project has one key whatever its spelling.
// Symlinks are resolved when the folder exists.
func CanonicalWorkdir(dir string) (string, error) {
	if dir == "" || !filepath.IsAbs(dir) || !utf8.ValidString(dir) {
		return "", codeErr(CodeInvalidWorkdir, map[string]any{"Workdir": dir}, "workdir %q must be an absolute path", dir)
	}
	clean := filepath.Clean(dir)
	if real, err := filepath.EvalSymlinks(clean); err == nil {
		clean = real
	}
	return clean, nil
}

// ProjectKey is the first 16 hex characters of sha256 of the canonical workdir: the key of a
// project identified by its path (and where builds before identities kept every project). A
// project with an id file or a git remote has another key (identity.go); code placing a
// workdir resolves it through the store's Projects, not through this.
func ProjectKey(workdir string) string {
	if workdir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(workdir))
	return hex.EncodeToString(sum[:])[:16]
}

// relPath is where a live memory lives, relative to the memory folder.
func relPath(scope Scope, key string, typ Type, slug string) string {
	switch scope {
	case ScopeProject:
		return "projects/" + key + "/" + string(typ) + "/" + slug + ".md"
	case ScopeAgent:
		return "agents/" + key + "/" + string(typ) + "/" + slug + ".md"
	}
	if typ == TypeDaily {
		return "daily/" + slug + ".md"
	}
	return "global/" + string(typ) + "/" + slug + ".md"
}

// pathInfo is what a file's location alone says about it.
type pathInfo struct {
	scope    Scope
	key      string
	typ      Type
	slug     string
	archived bool
}

// locationDetail says why rel, which parsePath refused, is not a memory's path: a file in a
// type folder whose name is no slug ("x.md") was reported as outside the layout, which sent
// people looking for the wrong fault.
func locationDetail(rel string) fault {
	notLocation := newFault("detail.not_location", nil, "not a memory location (scope/type/slug.md)")
	parts := strings.Split(strings.TrimSuffix(rel, ".md"), "/")
	if len(parts) >= 3 && parts[0] == ".archive" && archiveDirRE.MatchString(parts[1]) {
		parts = parts[2:]
	}
	var typ, slug string
	switch {
	case !strings.HasSuffix(rel, ".md"):
		return notLocation
	case len(parts) == 3 && parts[0] == "global":
		typ, slug = parts[1], parts[2]
	case len(parts) == 4 && (parts[0] == "projects" || parts[0] == "agents"):
		typ, slug = parts[2], parts[3]
	default:
		return notLocation
	}
	if !Type(typ).Writable() {
		return newFault("detail.bad_type_folder", map[string]any{"Name": typ}, "folder is not a memory type: %q", typ)
	}
	if !ValidSlug(slug) {
		return newFault("detail.bad_slug", map[string]any{"Name": slug}, "file name is not a valid slug: %q", slug)
	}
	return notLocation
}

// parsePath reads scope, key, type and slug from a relative path; ok is false for files that
// are not memories (trash, snapshots, stray files).
func parsePath(rel string) (pathInfo, bool) {
	var pi pathInfo
	if !strings.HasSuffix(rel, ".md") {
		return pi, false
	}
	parts := strings.Split(strings.TrimSuffix(rel, ".md"), "/")
	if len(parts) >= 3 && parts[0] == ".archive" && archiveDirRE.MatchString(parts[1]) {
		pi.archived = true
		parts = parts[2:]
	}
	switch {
	case len(parts) == 2 && parts[0] == "daily" && dateRE.MatchString(parts[1]):
		pi.scope, pi.typ, pi.slug = ScopeGlobal, TypeDaily, parts[1]
	case len(parts) == 3 && parts[0] == "global":
		pi.scope, pi.typ, pi.slug = ScopeGlobal, Type(parts[1]), parts[2]
	case len(parts) == 4 && parts[0] == "projects":
		pi.scope, pi.key, pi.typ, pi.slug = ScopeProject, parts[1], Type(parts[2]), parts[3]
	case len(parts) == 4 && parts[0] == "agents":
		pi.scope, pi.key, pi.typ, pi.slug = ScopeAgent, parts[1], Type(parts[2]), parts[3]
	default:
		return pi, false
	}
	if pi.typ != TypeDaily && (!pi.typ.Writable() || !ValidSlug(pi.slug)) {
		return pi, false
	}
	return pi, true
}
