package recall

import (
	"strings"

	"engram/backend/memory"
	"engram/backend/text"
)

// subjects is what a query names, for matching memory tags and aliases.
type subjects struct {
	lower string
	words map[string]bool
}

func querySubjects(q string) subjects {
	s := subjects{lower: strings.ToLower(q), words: map[string]bool{}}
	for _, t := range text.Split(q) {
		if !t.CJK {
			s.words[t.Text] = true
		}
	}
	return s
}

// mentionsSubject reports whether the query names one of m's tags or aliases: tags are the
// labels a memory is about (a person, a tool, a place), so naming one is a strong hint. A CJK
// label must appear in the query; an alphabetic one must appear as whole words.
func mentionsSubject(s subjects, m *memory.Memory) bool {
	check := func(label string) bool {
		label = strings.TrimSpace(label)
		if label == "" {
			return false
		}
		if text.HasCJK(label) {
			return text.RuneLen(label) >= 2 && strings.Contains(s.lower, strings.ToLower(label))
		}
		words := text.Split(label)
		if len(words) == 0 {
			return false
		}
		for _, w := range words {
			if w.CJK || !s.words[w.Text] || text.IsStop(w.Text) {
				return false
			}
		}
		return true
	}
	for _, l := range m.Tags {
		if check(l) {
			return true
		}
	}
	for _, l := range m.Aliases {
		if check(l) {
			return true
		}
	}
	return false
}
