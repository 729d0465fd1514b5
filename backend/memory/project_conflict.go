package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/oklog/ulid/v2"

	"engram/backend/memory/format"
)

// conflictCopy writes data (the moved version of the memory at rel) beside rel under a slug
// of its own, unreviewed and conflicts_with the original, with an id of its own (both may
// carry the same one). A version that does not parse is kept as it is under that name; the
// index reports it as a problem.
func (s *Store) conflictCopy(rel string, data []byte, dirs map[string]bool) (string, error) {
	dir, base := path.Split(rel)
	slug := strings.TrimSuffix(base, ".md")
	short := Checksum(data)
	short = short[:7]
	out := data
	copySlug := projectConflictSlug(slug, short, 0)
	for n := 1; ; n++ {
		if _, err := os.Lstat(s.abs(dir + copySlug + ".md")); errors.Is(err, fs.ErrNotExist) {
			break
		}
		copySlug = projectConflictSlug(slug, short, n)
	}
	if m, err := Parse(data); err == nil {
		m.ID, m.Slug, m.Reviewed = ulid.Make().String(), copySlug, false
		if !containsString(m.ConflictsWith, slug) {
			m.ConflictsWith = append(m.ConflictsWith, slug)
		}
		if out, err = Render(m); err != nil {
			return "", err
		}
	}
	cp := dir + copySlug + ".md"
	if err := s.writeFile(cp, out, dirs, nil, true); err != nil {
		return "", err
	}
	return cp, nil
}

// projectConflictSlug is "<slug>-conflict-<short>" (with "-<n>" past the first), cut so the
// whole stays a valid slug.
func projectConflictSlug(slug, short string, n int) string {
	suffix := "-conflict-" + short
	if n > 0 {
		suffix += fmt.Sprintf("-%d", n)
	}
	if len(slug)+len(suffix) > 64 {
		slug = format.CutSlug(slug, 64-len(suffix))
	}
	return slug + suffix
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
