package recall

import (
	"strings"

	"engram/backend/memory"
	"engram/backend/text"
)

// facetTopic is what a facet question asks about beyond the facet: the stems of its English
// keywords and the single characters of its Chinese ones (time expressions were cut out
// before the keywords were taken), and the members of any category a topic word names ("what
// do I like to drink" is answered by "oat milk in coffee"), English ones stemmed, phrases in
// lower case.
func facetTopic(a Analysis) []string {
	if len(a.Facets) == 0 {
		return nil
	}
	var out, categories []string
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	// A category's members count only when the question names nothing more specific than the
	// category and the verb that asks ("我平时喝什么茶" asks about tea, not every drink).
	specific := false
	// Lone Chinese characters count too ("我平时喝什么茶" leaves 茶 alone).
	keywords := a.Keywords
	for _, c := range a.Singles {
		keywords = append(keywords[:len(keywords):len(keywords)], Keyword{Text: c, CJK: true})
	}
	for _, k := range keywords {
		if !k.CJK {
			if facetWords[k.Text] || facetWords[k.Stem] {
				continue
			}
			add(k.Stem)
			if len(text.ConceptMembers(k.Stem)) > 0 {
				categories = append(categories, k.Stem)
			} else if !askingVerbs[k.Stem] {
				specific = true
			}
			continue
		}
		// A Chinese keyword names a category as a whole word ("运动", "音乐"), or by a
		// character that asks ("喝").
		whole := len(text.ConceptMembers(k.Text)) > 0
		if whole {
			categories = append(categories, k.Text)
		}
		for _, r := range k.Text {
			c := string(r)
			if strings.ContainsRune(facetChars, r) {
				continue
			}
			add(c)
			switch {
			case whole:
			case len(text.ConceptMembers(c)) > 0:
				categories = append(categories, c)
			case !askingVerbs[c]:
				specific = true
			}
		}
	}
	// A request for something to enjoy names the category and the occasion ("songs for a quiet
	// evening in"): the occasion does not narrow what the person likes.
	if specific && len(categories) > 0 && reRecommend.MatchString(a.Query) {
		specific = false
	}
	if specific {
		// The verb that asks is not what is asked about: "我平时喝什么茶" is about tea, and a
		// memory that only says 喝 of something else does not cover it.
		kept := out[:0]
		for _, t := range out {
			if !askingVerbs[t] {
				kept = append(kept, t)
			}
		}
		return kept
	}
	for _, t := range categories {
		for _, member := range topicMembers(t) {
			add(member)
		}
	}
	return out
}

// topicMembers are the members of category t as topic words: Chinese as they are, English
// phrases in lower case, English words stemmed.
func topicMembers(t string) []string {
	var out []string
	for _, member := range text.ConceptMembers(t) {
		switch {
		case text.HasCJK(member):
			out = append(out, member)
		case strings.Contains(member, " "):
			out = append(out, strings.ToLower(member))
		default:
			out = append(out, text.Stem(strings.ToLower(member)))
		}
	}
	return out
}

// coversTopic reports whether a memory holds one of a facet question's topic words (see
// facetTopic).
func coversTopic(topic []string, m *memory.Memory) bool {
	if len(topic) == 0 {
		return false
	}
	hay := m.Title + "\n" + m.Body
	lower := ""
	_, stems := text.Words(hay)
	have := make(map[string]bool, len(stems))
	for _, s := range stems {
		have[s] = true
	}
	for _, t := range topic {
		switch {
		case have[t]:
			return true
		case text.HasCJK(t) && strings.Contains(hay, t):
			return true
		case strings.Contains(t, " "):
			if lower == "" {
				lower = strings.ToLower(hay)
			}
			if strings.Contains(lower, t) {
				return true
			}
		}
	}
	return false
}
