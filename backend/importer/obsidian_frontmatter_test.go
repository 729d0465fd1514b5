package importer

import (
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Frontmatter as Obsidian vaults hold it over the years: aliases as one string (an alias has
// spaces: "Alt Name" became two aliases, "Alt" and "Name"), the older singular tag and alias
// fields (ignored), a year in a tag list (dropped), and Templater's "YYYY-MM-DD HH:mm" date
// (read as no date: the file's time was taken).
func TestObsidianFrontmatterVariants(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.md": "---\naliases: Alt Name, Other One\ntags: work home\ncreated: 2023-04-05 09:30\n---\nNote a\n",
		"b.md": "---\nalias: Old Alias\ntag: [legacy]\n---\nNote b\n",
		"c.md": "---\ntags: [2024, Work]\naliases: [Yet Another]\n---\nNote c\n",
	} {
		write(t, filepath.Join(dir, name), text)
	}
	recs, err := Convert(FormatObsidian, dir, Options{})
	if err != nil || len(recs) != 3 {
		t.Fatalf("converted %d, %v", len(recs), err)
	}
	for i, w := range []struct {
		aliases, tags []string
		created       string
	}{
		{[]string{"Alt Name", "Other One"}, []string{"work", "home"}, "2023-04-05T09:30:00Z"},
		{[]string{"Old Alias"}, []string{"legacy"}, ""},
		{[]string{"Yet Another"}, []string{"2024", "work"}, ""},
	} {
		r := recs[i]
		if !slices.Equal(r.Aliases, w.aliases) || !slices.Equal(r.Tags, w.tags) {
			t.Errorf("%s: aliases %q tags %q, want %q %q", r.Title, r.Aliases, r.Tags, w.aliases, w.tags)
		}
		if w.created != "" && (r.Created == nil || r.Created.Format(time.RFC3339) != w.created) {
			t.Errorf("%s: created %v, want %s", r.Title, r.Created, w.created)
		}
	}
}
