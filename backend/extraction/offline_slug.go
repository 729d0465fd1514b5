package extraction

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"engram/backend/memory"
	"engram/backend/memory/format"
	"engram/backend/text"
)

// slugMaxBytes is the store's limit of a slug (format.ValidSlug).
const slugMaxBytes = 64

// makeSlug builds a stable readable slug: type, rule family and the fact's words. A fact
// without Chinese takes up to five ASCII words ("feedback-rule-never-force-push-main"); a fact
// with Chinese takes the store's slug of a title (format.SlugFromTitle), so "我讨厌早起" is
// "user-dislikes-讨厌早起" as a title "讨厌早起" is "讨厌早起" — it used to be a hash
// ("user-dislikes-a8dac311") that told the person nothing in `engram list` or the file name.
// Punctuation and spacing do not change it ("我讨厌早起。" and "我讨厌早起！" are one slug),
// and a fact too long for the slug keeps its head and a hash of the whole, so two long facts
// that open alike stay two memories. A memory an older build wrote under the hashed slug is
// still found (legacySlug, resolveLegacySlugs).
func makeSlug(typ, kind, key string) string {
	prefix := typ
	if kind != "" {
		prefix += "-" + kind
	}
	if !text.HasCJK(key) {
		return legacySlug(typ, kind, key)
	}
	title := strings.Join(strings.FieldsFunc(key, func(r rune) bool { return isPunct(r) || unicode.IsSpace(r) }), " ")
	words := format.SlugFromTitle(title)
	room := slugMaxBytes - len(prefix) - 1
	if len(words) > room || slugWasCut(words, title) {
		words = format.CutSlug(words, room-9) + "-" + format.ShortHash(normaliseKey(key))
	}
	return prefix + "-" + words
}

// slugWasCut reports whether format.SlugFromTitle left out some of title's words for length:
// its slug holds fewer of the characters a slug keeps than the title does.
func slugWasCut(slug, title string) bool {
	kept := 0
	for _, r := range strings.ToLower(title) {
		if format.SlugRune(r) && r != '-' {
			kept += len(string(r))
		}
	}
	return len(strings.ReplaceAll(slug, "-", "")) < kept
}

// legacySlug is the slug builds before Chinese was kept gave a fact: type, rule family and up
// to five ASCII words; a fact with too few ASCII words and Chinese got a short hash of its
// normalised form. For a fact without Chinese it is makeSlug's slug; for one with Chinese it
// is how a memory written then is still found (resolveLegacySlugs).
func legacySlug(typ, kind, key string) string {
	words := asciiWords(key, 5)
	parts := []string{typ}
	if kind != "" {
		parts = append(parts, kind)
	}
	if len(words) >= 2 || (len(words) == 1 && !text.HasCJK(key)) {
		parts = append(parts, words...)
	} else {
		sum := sha256.Sum256([]byte(normaliseKey(key)))
		if len(words) == 1 {
			parts = append(parts, words[0])
		}
		parts = append(parts, hex.EncodeToString(sum[:4]))
	}
	s := strings.Join(parts, "-")
	if len(s) > slugMaxBytes {
		s = strings.TrimRight(s[:slugMaxBytes], "-")
	}
	return s
}

// resolveLegacySlugs points each offline item whose fact an older build wrote under its
// former slug at that memory: when nothing is stored under the new slug and the former one
// holds a memory the caller may see, the item updates it (replace, as a repeated fact does)
// instead of writing a second memory of the same fact beside it after an upgrade.
func resolveLegacySlugs(v *validator, items []PlanItem) {
	for i := range items {
		it := &items[i]
		if it.legacySlug == "" || it.legacySlug == it.Slug || it.Action != ActionWrite {
			continue
		}
		scope := memory.Scope(it.Scope)
		if v.find(scope, it.Slug) != nil || v.find(scope, it.legacySlug) == nil {
			continue
		}
		it.Slug, it.Action, it.Mode = it.legacySlug, ActionUpdate, "replace"
	}
}
