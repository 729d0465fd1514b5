package importer

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"engram/backend/memory/format"
)

// Claude Code keeps memory in Markdown: CLAUDE.md (and CLAUDE.local.md, .claude/CLAUDE.md) in
// a project folder, ~/.claude/CLAUDE.md for every project, and the auto memory of a project
// in ~/.claude/projects/<folder with / as ->/memory/: MEMORY.md plus topic files with
// frontmatter (name, description, type). Each top-level bullet of CLAUDE.md / MEMORY.md is one
// memory; a topic file is one memory. The folder a file belongs to decides its scope.

// claudeFile reports whether a file name is one Claude Code reads as memory.
func claudeFile(name string) bool {
	return name == "CLAUDE.md" || name == "CLAUDE.local.md" || name == "MEMORY.md"
}

func convertClaude(path string, opts Options) ([]Sourced, error) {
	dir, err := isDir(path)
	if err != nil {
		return nil, err
	}
	files := []string{path}
	if dir {
		// Topic files are told by the folder they are in, named from the real root: the memory
		// folder itself may be the source (its topic files are then at the top).
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			real = path
		}
		files, err = walkFiles(path, func(rel string) bool {
			base := filepath.Base(rel)
			return claudeFile(base) || isTopicFile(filepath.Join(real, filepath.FromSlash(rel)))
		}, func(name string) bool { return name == ".claude" })
		if err != nil {
			return nil, err
		}
	}
	reading := map[string]bool{}
	for _, f := range files {
		reading[filepath.Clean(f)] = true
	}
	var out []Sourced
	for _, f := range files {
		recs, err := convertClaudeFile(f, opts, reading)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

// isTopicFile is an auto-memory topic file: a .md beside MEMORY.md in a folder named memory
// (path is the file's full path). Without MEMORY.md beside it, a folder named memory is just a
// folder (a project checked out as …/memory: its README is no memory).
func isTopicFile(path string) bool {
	if !strings.HasSuffix(path, ".md") || claudeFile(filepath.Base(path)) || filepath.Base(filepath.Dir(path)) != "memory" {
		return false
	}
	_, err := os.Stat(filepath.Join(filepath.Dir(path), "MEMORY.md"))
	return err == nil
}

// claudeScope decides where a file's memories belong: ~/.claude/CLAUDE.md is global; auto
// memory belongs to the project its folder name encodes; any other file to the project of
// the folder it is in (a .claude folder stands for its parent). opts.Workdir overrides the
// project.
func claudeScope(file string, opts Options) (format.Scope, string, error) {
	dir := filepath.Dir(file)
	home := filepath.Clean(opts.UserHome)
	if filepath.Base(dir) == "memory" && filepath.Base(filepath.Dir(filepath.Dir(dir))) == "projects" {
		if opts.Workdir != "" {
			return format.ScopeProject, opts.Workdir, nil
		}
		enc := filepath.Base(filepath.Dir(dir))
		if wd := decodeProjectDir(enc); wd != "" {
			return format.ScopeProject, wd, nil
		}
		return "", "", fail(CodeNoProject, map[string]any{"Path": file, "Folder": enc},
			"cannot tell which project %s belongs to", file)
	}
	if filepath.Base(dir) == ".claude" {
		dir = filepath.Dir(dir)
	}
	if home != "" && home != "." && dir == home {
		return format.ScopeGlobal, "", nil
	}
	if opts.Workdir != "" {
		return format.ScopeProject, opts.Workdir, nil
	}
	return format.ScopeProject, dir, nil
}

// decodeProjectDir turns Claude Code's project folder name (the path with every / as -) back
// into the path when that folder exists; "" when it does not (the name alone is ambiguous:
// a dash in a folder name looks the same).
func decodeProjectDir(enc string) string {
	if !strings.HasPrefix(enc, "-") {
		return ""
	}
	cand := "/" + strings.ReplaceAll(enc[1:], "-", "/")
	if st, err := os.Stat(cand); err == nil && st.IsDir() {
		return cand
	}
	return ""
}

// convertClaudeFile converts one file; reading holds every file of the import, so that an
// index line of MEMORY.md is left out only when the topic file it points to is imported too.
func convertClaudeFile(file string, opts Options, reading map[string]bool) ([]Sourced, error) {
	b, err := readFile(file)
	if err != nil {
		return nil, err
	}
	scope, wd, err := claudeScope(file, opts)
	if err != nil {
		return nil, err
	}
	when := fileTime(file)
	base := filepath.Base(file)
	if !claudeFile(base) {
		return topicRecord(file, b, scope, wd, when)
	}
	typ := format.TypeFeedback // CLAUDE.md holds instructions: how to work
	if base == "MEMORY.md" {
		typ = format.TypeProject
		if scope == format.ScopeGlobal {
			typ = format.TypeUser
		}
	}
	_, text, err := splitFrontmatter(file, b)
	if err != nil {
		return nil, err
	}
	head := headerLines(b, text)
	var out []Sourced
	for _, bl := range bullets(text) {
		if m := linkOnlyRE.FindStringSubmatch(bl.text); m != nil {
			// MEMORY.md's index line points to a topic file imported on its own.
			if reading[filepath.Join(filepath.Dir(file), filepath.Base(m[2]))] {
				continue
			}
		}
		body := dedent(bl.text)
		rec := format.Record{Scope: scope, Workdir: wd, Type: typ, Title: plainTitle(body), Body: body,
			Tags: []string{"claude-code"}, Created: when, Updated: when,
			Reasoning: "Imported from " + file}
		for _, h := range bl.headings {
			if !strings.EqualFold(strings.TrimSpace(h), base) { // "# CLAUDE.md" names the file, not a topic
				rec.Tags = addTag(rec.Tags, tagOf(h))
			}
		}
		if len(bl.headings) > 0 {
			rec.Reasoning += ", section “" + bl.headings[len(bl.headings)-1] + "”"
		}
		rec.Slug = format.SlugFromTitle(rec.Title)
		out = append(out, Sourced{Record: rec, Origin: Origin{Path: file, Line: head + bl.line}})
	}
	return out, nil
}

// topicRecord is one auto-memory topic file: its name (or description) is the title, its
// type the memory's type when Engram has it.
func topicRecord(file string, b []byte, scope format.Scope, wd string, when *time.Time) ([]Sourced, error) {
	fm, text, err := splitFrontmatter(file, b)
	if err != nil {
		return nil, err
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	title := str(fm, "name")
	if title == "" {
		title = str(fm, "description")
	}
	if title == "" {
		title = strings.TrimSuffix(filepath.Base(file), ".md")
	}
	title = plainTitle(title)
	typ := format.Type(str(fm, "type"))
	if !typ.Writable() {
		typ = format.TypeProject
	}
	rec := format.Record{Scope: scope, Workdir: wd, Type: typ, Title: title, Body: text, Slug: format.SlugFromTitle(title),
		Tags: []string{"claude-code"}, Created: when, Updated: when, Reasoning: "Imported from " + file}
	return []Sourced{{Record: rec, Origin: Origin{Path: file}}}, nil
}
