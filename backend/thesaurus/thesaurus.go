// Package thesaurus relates English words to the words WordNet puts near them: synonyms,
// derivationally related forms, direct hypernyms and direct hyponyms of their most frequent
// senses. Recall can search them as a weak extra path, so that a question and the memory that
// answers it meet without sharing a word ("purchase" and "buy", "screenplay" and "script").
//
// The table (related.gz, 262 KiB, the 14,661 words WordNet's sense-tagged corpus saw) is
// generated from the WordNet 3.0 database by gen.go (licence: WORDNET-LICENSE) and built into
// the binary; nothing is read from disk at run time.
package thesaurus

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"sort"
	"strings"
	"sync"
)

//go:generate go run gen.go -dict /usr/share/wordnet -out related.gz

//go:embed related.gz
var compressed []byte

// Kind is a relation of the table.
type Kind int

// The relations, in the order of the table's columns.
const (
	Synonym  Kind = iota // the words of the same sense (adjectives: also similar and pertaining words)
	Derived              // derivationally related forms (marry → marriage)
	Broader              // direct hypernyms (screenplay → script)
	Narrower             // direct hyponyms (car → ambulance, bus, cab), at most eight per sense
	kinds
)

// Word is one related word and how it relates.
type Word struct {
	Text string
	Kind Kind
}

// table is the decompressed text with the start of each word's line (sorted by word) and the
// irregular forms; it is built on first use (package init runs for `engram version` too) and
// never changes.
type table struct {
	text      string
	lines     []uint32
	irregular map[string][]string
}

var load = sync.OnceValue(func() *table {
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		panic("thesaurus: the built-in table is damaged: " + err.Error())
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		panic("thesaurus: the built-in table is damaged: " + err.Error())
	}
	t := &table{text: string(raw), irregular: map[string][]string{}}
	for start := 0; start < len(t.text); {
		end := strings.IndexByte(t.text[start:], '\n')
		if end < 0 {
			end = len(t.text) - start
		}
		line := t.text[start : start+end]
		if strings.HasPrefix(line, "=") {
			form, bases, _ := strings.Cut(line[1:], "\t")
			t.irregular[form] = strings.Fields(bases)
		} else if line != "" {
			t.lines = append(t.lines, uint32(start))
		}
		start += end + 1
	}
	return t
})

// line returns the columns of w's line, or nil.
func (t *table) line(w string) []string {
	i := sort.Search(len(t.lines), func(i int) bool { return t.word(i) >= w })
	if i == len(t.lines) || t.word(i) != w {
		return nil
	}
	start := int(t.lines[i])
	end := strings.IndexByte(t.text[start:], '\n')
	if end < 0 {
		end = len(t.text) - start
	}
	return strings.Split(t.text[start:start+end], "\t")[1:]
}

func (t *table) word(i int) string {
	s := t.text[t.lines[i]:]
	return s[:strings.IndexByte(s, '\t')]
}

// suffixes are WordNet's detachment rules (morphy): an inflected form ending in the first
// string may be a base form ending in the second.
var suffixes = [][2]string{
	{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"},
	{"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""},
	{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"},
}

// Bases returns the table's base forms of w (lower case): w itself if the table has it, its
// irregular bases (mice → mouse) and the bases its regular endings give (camping → camp).
func Bases(w string) []string {
	t := load()
	var out []string
	add := func(b string) {
		for _, o := range out {
			if o == b {
				return
			}
		}
		if t.line(b) != nil {
			out = append(out, b)
		}
	}
	add(w)
	for _, b := range t.irregular[w] {
		add(b)
	}
	for _, s := range suffixes {
		if len(w) > len(s[0])+2 && strings.HasSuffix(w, s[0]) {
			add(strings.TrimSuffix(w, s[0]) + s[1])
		}
	}
	return out
}

// Related returns the words related to w (a lower-case English word, inflected or not) by
// the relations asked, at most per of each relation and base form, in the table's order:
// relation by relation, the most frequent sense first.
func Related(w string, per int, want ...Kind) []Word {
	t := load()
	var out []Word
	for _, b := range Bases(w) {
		cols := t.line(b)
		for _, k := range want {
			if k < 0 || k >= kinds || int(k) >= len(cols) {
				continue
			}
			for i, r := range strings.Fields(cols[k]) {
				if i >= per {
					break
				}
				out = append(out, Word{Text: r, Kind: k})
			}
		}
	}
	return out
}
