package extraction

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"engram/backend/memory"
	"engram/backend/text/wikilink"
)

// MaxRelations bounds the relations one item may carry.
const MaxRelations = 16

// entityName cleans a relation's subject or object: one line, no brackets, pipes or a '#'
// that would start a heading (wikilink.HeadingAt; these would end the link early or cut the
// name), at most 120 characters; "" when nothing usable is left. "C#" and "C#/.NET" keep their
// '#' (it was blanked, and the relation named C).
func entityName(s string) string {
	s = strings.NewReplacer("[", " ", "]", " ", "|", " ").Replace(s)
	for s = oneLine(s); wikilink.HeadingAt(s) >= 0; s = oneLine(s) {
		i := wikilink.HeadingAt(s)
		s = s[:i] + " " + s[i+1:]
	}
	if utf8.RuneCountInString(s) > 120 {
		return ""
	}
	return s
}

// relationName folds "Works At" and "works-at" to works_at, as the graph's grammar reads a
// relation type (wikilink.RelationType); "" when the grammar could not read it back. Any
// letters are a type: a model extracting a Chinese conversation writes 就职于, which the graph
// reads (and types its ends by), and an ASCII-only rule dropped every such relation.
func relationName(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '_' }), "_")
	s = wikilink.RelationType(s)
	if _, ok := wikilink.Format("", s, "x", ""); !ok || s != wikilink.RelationType(s) {
		return ""
	}
	return s
}

// renderRelations appends the item's relations to its body in DESIGN §8's grammar:
// "- relation [[Object]]" from the memory's subject, "- [[Subject]] relation [[Object]]"
// between two entities. Lines the body already holds are not repeated. A relation that
// cannot be written in the grammar is left out and named by a warning on the item.
func renderRelations(body string, rels []Relation) (string, []string) {
	var warns []string
	var lines []string
	for i, r := range rels {
		if i >= MaxRelations {
			warns = append(warns, WarnInvalidRelation)
			break
		}
		rel, obj := relationName(r.Relation), entityName(r.Object)
		if rel == "" || obj == "" {
			warns = append(warns, WarnInvalidRelation)
			continue
		}
		line := "- " + rel + " [[" + obj + "]]"
		if strings.TrimSpace(r.Subject) != "" {
			sub := entityName(r.Subject)
			if sub == "" {
				warns = append(warns, WarnInvalidRelation)
				continue
			}
			line = "- [[" + sub + "]] " + rel + " [[" + obj + "]]"
		}
		if kind := strings.ToLower(strings.TrimSpace(r.ObjectType)); memory.ValidKind(kind) {
			line += " #" + kind
		}
		if strings.Contains(body, line) {
			continue
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return body, dedupe(warns)
	}
	if body == "" {
		return strings.Join(lines, "\n"), dedupe(warns)
	}
	// A body ending in a code block the model never closed would take the lines in as code,
	// and the graph got none of the relations: the block is closed where it ended.
	if fence := wikilink.OpenFence(body); fence != "" {
		body = strings.TrimRight(body, "\n") + "\n" + fence
	}
	return body + "\n\n" + strings.Join(lines, "\n"), dedupe(warns)
}

func dedupe(v []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range v {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
