package importer

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

// D5: an entry or note with no text is named and counted, never dropped unsaid — mem0's
// "memory": "" and "   " vanished while only the entry without the field was named, and an
// Obsidian vault's empty, blank and header-only notes left no trace.
func TestEntriesAndNotesWithoutTextAreNamed(t *testing.T) {
	dir := t.TempDir()
	mem0 := filepath.Join(dir, "mem0.json")
	write(t, mem0, `[{"id":"a","memory":""},{"id":"b","memory":"   "},{"id":"c","memory":"real one"},{"id":"d"}]`)
	chat := filepath.Join(dir, "chatgpt.json")
	write(t, chat, `["Lives in Porto", "  ", {"content": "Has a cat"}]`)
	vault := filepath.Join(dir, "vault")
	write(t, filepath.Join(vault, "real.md"), "real note\n")
	write(t, filepath.Join(vault, "empty.md"), "")
	write(t, filepath.Join(vault, "blank.md"), "   \n\n")
	write(t, filepath.Join(vault, "header-only.md"), "---\ntitle: Only header\n---\n")
	write(t, filepath.Join(vault, "heading-only.md"), "# heading-only\n")
	for _, tc := range []struct {
		format, path string
		records      int
		skipped      []string // entry number or file name, then the detail key
	}{
		{FormatMem0, mem0, 1, []string{"1 detail.entry_no_text", "2 detail.entry_no_text", "4 detail.entry_no_text"}},
		{FormatChatGPT, chat, 2, []string{"2 detail.entry_no_text"}},
		{FormatObsidian, vault, 1, []string{"blank.md detail.note_empty", "empty.md detail.note_empty",
			"header-only.md detail.note_title_only", "heading-only.md detail.note_title_only"}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			recs, skipped, err := ConvertAll(tc.format, tc.path, Options{UserHome: "/nonexistent"})
			if err != nil || len(recs) != tc.records {
				t.Fatalf("%d records, %v", len(recs), err)
			}
			var got []string
			for _, sk := range skipped {
				var ie *Error
				if !errors.As(sk.Err, &ie) {
					t.Fatalf("skipped %+v", sk)
				}
				name := fmt.Sprint(sk.Entry)
				if sk.Entry == 0 {
					name = filepath.Base(sk.Path)
				}
				got = append(got, name+" "+fmt.Sprint(ie.Args["DetailKey"]))
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.skipped) {
				t.Fatalf("skipped %v, want %v", got, tc.skipped)
			}
		})
	}
}

// D8: every record says where it came from — a list's entry, a text file's line, a Markdown
// file and the line of its bullet (after the header) — so a refusal names what people see,
// not the line of a JSONL they never saw.
func TestRecordsKnowTheirOrigin(t *testing.T) {
	dir := t.TempDir()
	mem0 := filepath.Join(dir, "mem0.json")
	write(t, mem0, `[{"memory":"one"},{"memory":""},{"memory":"three"}]`)
	txt := filepath.Join(dir, "memories.txt")
	write(t, txt, "\n- Lives in Porto\n\n- Has a cat\n")
	proj := filepath.Join(dir, "proj")
	write(t, filepath.Join(proj, "CLAUDE.md"), "---\nnote: x\n---\n# Rules\n\n- Keep commits small.\n- Run make test.\n")
	vault := filepath.Join(dir, "vault")
	write(t, filepath.Join(vault, "a.md"), "A note.\n")
	for _, tc := range []struct {
		format, path string
		want         []Origin
	}{
		{FormatMem0, mem0, []Origin{{Path: mem0, Entry: 1}, {Path: mem0, Entry: 3}}},
		{FormatChatGPT, txt, []Origin{{Path: txt, Line: 2}, {Path: txt, Line: 4}}},
		{FormatClaude, proj, []Origin{{Path: filepath.Join(proj, "CLAUDE.md"), Line: 6}, {Path: filepath.Join(proj, "CLAUDE.md"), Line: 7}}},
		{FormatObsidian, vault, []Origin{{Path: filepath.Join(vault, "a.md")}}},
	} {
		got, _, err := ConvertSourced(tc.format, tc.path, Options{UserHome: "/nonexistent"})
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		var origins []Origin
		for _, g := range got {
			origins = append(origins, g.Origin)
		}
		if fmt.Sprint(origins) != fmt.Sprint(tc.want) {
			t.Fatalf("%s: origins %+v, want %+v", tc.format, origins, tc.want)
		}
	}
}

// D9: a header that is not YAML is said in words with the file's line: an Obsidian template's
// placeholder by name (it read "invalid map key: map[string]interface {}{…}"), another fault
// with its line in the file, not in the header.
func TestHeaderThatIsNotYAMLSaysWhere(t *testing.T) {
	for _, tc := range []struct {
		name, text, key string
		line            int
	}{
		{"template placeholder", "---\ntitle: Day\ndate: {{date}}\n---\nText\n", "detail.bad_yaml_template", 3},
		// The cause in the person's language, as doctor says it (the parser's English only in
		// the arguments).
		{"unclosed list", "---\ntags: [a, b\n---\nText\n", "detail.yaml_unclosed_list", 2},
		{"tab", "---\ntitle: a\n\tb: c\n---\nText\n", "detail.yaml_tab", 3},
		// The parser words these "unmarshal errors:\n  line N: …": said on the file's line
		// too (they were one line too high), the field by name.
		{"repeated field", "---\ntitle: a\ntags: [x]\ntitle: b\n---\nText\n", "detail.yaml_repeated_field", 4},
		{"wrong kind", "---\n- a\n- b\n---\nText\n", "detail.yaml_wrong_kind", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := splitFrontmatter("note.md", []byte(tc.text))
			var ie *Error
			if !errors.As(err, &ie) || ie.Args["DetailKey"] != tc.key || ie.Args["Line"] != tc.line {
				t.Fatalf("%v (%+v), want %s at line %d", err, ie, tc.key, tc.line)
			}
			if tc.key == "detail.yaml_repeated_field" && ie.Args["Field"] != "title" {
				t.Fatalf("field %v, want title", ie.Args["Field"])
			}
		})
	}
}
