package text

import (
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// WordTokens is s as the word index holds it: its tokens, each folded and stemmed, joined by
// single spaces. The index's table splits that only at the spaces (FTS5's ascii tokenizer), so
// these are its terms; a query phrase goes through the same function before it is quoted.
//
// The rules are those of FTS5's "porter unicode61 remove_diacritics 2", which the index used
// until schema 21 and which TestWordTokensMatchUnicode61 compares this with: letters, numbers
// and private-use characters make tokens (and the combining accents unicode61 drops), anything
// else separates them; letters are lower-cased and lose their accents; Porter's 1980 stemmer
// then runs over every token of 3–64 bytes. Doing that here moves the work off the index's one
// writer, onto the readers that parse files beside it: FTS5's tokenizing (its term hash aside)
// was an eighth of the writer's time in a 100k reindex (issue 14 item 6). Characters newer
// than SQLite's Unicode 6 tables follow Go's tables instead (an emoji separates here; a letter
// added since is a letter).
func WordTokens(s string) string {
	if s == "" {
		return ""
	}
	return string(appendWordTokens(make([]byte, 0, len(s)+8), s))
}

// appendWordTokens appends WordTokens(s) to dst (empty, or ending a token).
func appendWordTokens(dst []byte, s string) []byte {
	start := -1 // where the token being read begins in dst, or -1
	begin := func() {
		if start < 0 {
			if len(dst) > 0 {
				dst = append(dst, ' ')
			}
			start = len(dst)
		}
	}
	end := func() {
		if start < 0 {
			return
		}
		tok := dst[start:]
		if len(tok) == 0 {
			dst = dst[:max(start-1, 0)]
		} else if len(tok) >= 3 && len(tok) <= 64 && tok[len(tok)-1] >= 'a' && tok[len(tok)-1] <= 'z' {
			// Every rule of the stemmer ends in a letter a–z: a token ending otherwise (a
			// number, a CJK bigram) is its own stem.
			dst = append(dst[:start], cachedStem(tok)...)
		}
		start = -1
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			default:
				end()
				continue
			}
			begin()
			dst = append(dst, c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !isTokenRune(r) {
			end()
			continue
		}
		begin()
		if f := foldTokenRune(r); f != 0 {
			dst = utf8.AppendRune(dst, f)
		}
	}
	end()
	return dst
}

// isTokenRune reports whether unicode61 (categories L*, N* and Co) keeps r in a token; the
// combining accents it removes count too, so that "e\u0301" stays one token.
func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) || isDiacritic(r)
}

// isDiacritic is SQLite's sqlite3Fts5UnicodeIsdiacritic: the combining accents of U+0300–U+0331
// that remove_diacritics drops.
func isDiacritic(r rune) bool {
	const mask0, mask1 = 0x08029FDF, 0x000361F8
	switch {
	case r < 768 || r > 817:
		return false
	case r < 768+32:
		return mask0&(1<<(r-768)) != 0
	default:
		return mask1&(1<<(r-768-32)) != 0
	}
}

// foldTokenRune lower-cases a non-ASCII token character and strips its accents (0 for an accent on
// its own). As in SQLite, only the Basic Multilingual Plane and Deseret have case here.
func foldTokenRune(r rune) rune {
	if isDiacritic(r) {
		return 0
	}
	if r >= 0x10000 {
		if r >= 66560 && r < 66600 {
			return r + 40
		}
		return r
	}
	r = caseFold(r)
	if r < 0xC0 || !hasLatinBase(r) {
		return r
	}
	var in [utf8.UTFMax]byte
	var buf [utf8.UTFMax * 4]byte
	d := norm.NFD.Append(buf[:0], in[:utf8.EncodeRune(in[:], r)]...)
	base, n := utf8.DecodeRune(d)
	// SQLite's table strips accents down to ASCII letters only (ǽ stays, not æ), and keeps
	// ǡ (a with dot above and macron) whole.
	if n == len(d) || base >= 0x80 || r == 0x1E1 {
		return r
	}
	for rest := d[n:]; len(rest) > 0; {
		m, k := utf8.DecodeRune(rest)
		if !unicode.Is(unicode.Mn, m) {
			return r
		}
		rest = rest[k:]
	}
	return base
}

// caseFold lower-cases r as SQLite's table does, which follows Unicode's case folding where it
// differs from the lower case: a lower-case letter with another lower-case form folds to that
// (µ → μ, ς → σ, ſ → s). The exceptions are letters SQLite's Unicode 6 table does not fold:
// dotless ı, the Cyrillic variants U+1C80–U+1C88 (added since) and the Greek U+1FBE.
func caseFold(r rune) rune {
	l := unicode.ToLower(r)
	if l != r || r == 0x131 || r >= 0x1C80 && r <= 0x1C88 || r == 0x1FBE {
		return l
	}
	if u := unicode.ToUpper(r); u != r {
		return unicode.ToLower(u)
	}
	return r
}

// hasLatinBase narrows the accent folding to the Latin blocks SQLite's remove_diacritic table
// covers (Latin-1 Supplement to Latin Extended-B, and Latin Extended Additional).
func hasLatinBase(r rune) bool {
	return r >= 0xC0 && r <= 0x24F || r >= 0x1E00 && r <= 0x1EFF
}

// stemCache remembers recent stems, one per slot by a hash of the token: a text's words follow
// Zipf's law, so most tokens were stemmed a moment ago (the stemmer was most of WordTokens'
// time without it). Slots are replaced whole, so concurrent readers see an old or a new entry,
// never a torn one.
var stemCache [1 << 15]atomic.Pointer[stemEntry]

type stemEntry struct{ tok, stem string }

func cachedStem(tok []byte) string {
	h := uint32(2166136261)
	for _, c := range tok {
		h = (h ^ uint32(c)) * 16777619
	}
	slot := &stemCache[h%uint32(len(stemCache))]
	if e := slot.Load(); e != nil && e.tok == string(tok) {
		return e.stem
	}
	e := &stemEntry{tok: string(tok)}
	e.stem = string(stemBytes(tok))
	slot.Store(e)
	return e.stem
}

// stemBytes runs Porter's stemmer over a token as SQLite's porter tokenizer does: every byte
// that is not a vowel counts as a consonant, so digits and other scripts pass through the
// rules as consonants ("1990s" → "1990").
func stemBytes(tok []byte) []byte { return stemOf(append(make([]byte, 0, len(tok)), tok...)) }
