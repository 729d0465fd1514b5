package importer

import (
	"path"
	"path/filepath"
	"strings"
	"time"

	"engram/backend/memory/format"
)

// A basic-memory project or an Obsidian vault is a folder of Markdown notes, each with an
// optional YAML frontmatter (title, type, tags, aliases, permalink, created/date). Each note is
// one memory: title from the frontmatter or the file name, body the text as written — [[links]]
// and relation lines (- relates_to [[X]]) kept, so the graph reads them — without a first
// heading that only repeats the title. A permalink that is a valid slug keeps its name.
// Notes are global (reference, or the frontmatter type when Engram has it) unless a project
// is given. Dot folders (.obsidian, .git, .trash) and dot files are skipped, as Obsidian does.

func convertObsidian(root string, opts Options) ([]Sourced, error) {
	dir, err := isDir(root)
	if err != nil {
		return nil, err
	}
	files := []string{root}
	if dir {
		// A note whose name starts with a dot is hidden: Obsidian neither lists nor links it.
		keep := func(rel string) bool {
			return strings.HasSuffix(strings.ToLower(rel), ".md") && !strings.HasPrefix(path.Base(rel), ".")
		}
		if files, err = walkFiles(root, keep, nil); err != nil {
			return nil, err
		}
	}
	var out []Sourced
	for _, f := range files {
		rec, err := obsidianNote(f, opts)
		if err != nil {
			if dir && opts.skip != nil && opts.skip(f, 0, err) {
				continue
			}
			return nil, err
		}
		out = append(out, Sourced{Record: rec, Origin: Origin{Path: f}})
	}
	return out, nil
}

// obsidianNote converts one note. A note with no text — an empty file, or only a header or a
// heading naming it (a stub Obsidian makes when a link is followed) — is an error the folder's
// conversion reports and leaves out: such notes used to vanish unsaid. It is not imported with
// its title as its text: a memory that says only its own name tells an agent nothing.
func obsidianNote(file string, opts Options) (format.Record, error) {
	b, err := readFile(file)
	if err != nil {
		return format.Record{}, err
	}
	fm, text, err := splitFrontmatter(file, b)
	if err != nil {
		return format.Record{}, err
	}
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	title := str(fm, "title")
	if title == "" {
		title = stem
	}
	title = plainTitle(title)
	text = strings.TrimSpace(text)
	if m := headingRE.FindStringSubmatch(firstLine(text)); m != nil && len(m[1]) == 1 && plainTitle(m[2]) == title {
		text = strings.TrimSpace(strings.TrimPrefix(text, firstLine(text)))
	}
	switch {
	case text == "" && len(fm) == 0 && strings.TrimSpace(string(b)) == "":
		return format.Record{}, invalidKey(file, "it holds no text", "detail.note_empty", nil)
	case text == "" || title == "":
		return format.Record{}, invalidKey(file, "it has a title but no text", "detail.note_title_only", nil)
	}
	typ := format.Type(strings.ToLower(str(fm, "type")))
	if !typ.Writable() {
		typ = format.TypeReference
	}
	rec := format.Record{Scope: format.ScopeGlobal, Type: typ, Title: title, Body: text, Reasoning: "Imported from " + file}
	if opts.Workdir != "" {
		rec.Scope, rec.Workdir = format.ScopeProject, opts.Workdir
	}
	for _, t := range strList(fm, true, "tags", "tag") {
		rec.Tags = addTag(rec.Tags, tagOf(strings.TrimPrefix(t, "#")))
	}
	for _, a := range strList(fm, false, "aliases", "alias") {
		if a = plainTitle(a); a != "" && a != title && len(rec.Aliases) < 32 {
			rec.Aliases = append(rec.Aliases, a)
		}
	}
	rec.Created = firstTime(fm, "created", "date", "created_at")
	rec.Updated = firstTime(fm, "updated", "modified", "updated_at")
	if rec.Created == nil {
		rec.Created = fileTime(file)
	}
	if rec.Updated == nil {
		rec.Updated = fileTime(file)
	}
	// The permalink may be a path (notes/coffee); only its last part can be a slug, and only
	// when it is one — never a path that would place a file elsewhere.
	if p := path.Base(strings.ReplaceAll(str(fm, "permalink"), `\`, "/")); format.ValidSlug(p) && !format.ReservedSlug(p) {
		rec.Slug = p
	} else {
		rec.Slug = format.SlugFromTitle(title)
	}
	return rec, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// firstTime is the first of keys holding a date.
func firstTime(fm map[string]any, keys ...string) *time.Time {
	for _, k := range keys {
		if t := parseTime(fm[k]); t != nil {
			return t
		}
	}
	return nil
}
