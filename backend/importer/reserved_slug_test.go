package importer

import (
	"path/filepath"
	"testing"

	"engram/backend/memory/format"
)

// A vault note named con.md, or one whose permalink is "aux", imported as the slug Windows
// reserves: the store then held a file a Windows machine syncing it cannot create. Imported
// notes get a slug that is no device name, their title kept.
func TestImportAvoidsWindowsReservedSlugs(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"con.md":   "Serial console settings\n",
		"LPT1.md":  "The old printer port\n",
		"notes.md": "---\npermalink: notes/aux\n---\nAuxiliary heater\n",
	} {
		write(t, filepath.Join(dir, name), text)
	}
	recs, err := Convert(FormatObsidian, dir, Options{})
	if err != nil || len(recs) != 3 {
		t.Fatalf("converted %d, %v", len(recs), err)
	}
	for _, r := range recs {
		if r.Slug == "con" || r.Slug == "lpt1" || r.Slug == "aux" || !format.ValidSlug(r.Slug) {
			t.Errorf("%q imported as slug %q", r.Title, r.Slug)
		}
	}
}
