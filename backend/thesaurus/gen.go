//go:build ignore

// gen builds related.gz, the thesaurus table, from the WordNet 3.0 database files (Debian 12:
// apt-get install wordnet-base, which puts them under /usr/share/wordnet):
//
//	go run gen.go -dict /usr/share/wordnet -out related.gz
//
// For every single English word WordNet lists (lower-case letters only, three or more, not a
// stop word) that its sense-tagged corpus saw at least once (cntlist.rev), it takes the word's
// most frequent sense across parts of speech and the next ones the corpus saw at least -share
// as often, up to -senses, and for each the words of four relations: the synonyms of the sense
// (adjectives also their similar and pertaining words), the derivationally related forms of the
// word, the sense's direct hypernyms and its direct hyponyms (up to -hypo per sense).
// Candidates must be table words themselves; one whose Porter stem is the key's or an earlier
// candidate's is dropped. Nothing is chosen by hand. The output is gzip'd text, one line per word:
//
//	word<TAB>synonyms<TAB>derived<TAB>hypernyms<TAB>hyponyms   (each a space-separated list)
//
// followed by WordNet's irregular forms of the words kept ("=form<TAB>base …").
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"engram/backend/text"
)

type pointer struct {
	sym    string
	target string // pos:offset
	src    int    // 0 for a semantic pointer, else the source word's number (1-based)
	dst    int
}

type synset struct {
	words []string
	ptrs  []pointer
}

var posFiles = map[string]string{"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "WordNet database directory")
	out := flag.String("out", "related.gz", "output file")
	senses := flag.Int("senses", 3, "senses per word")
	share := flag.Float64("share", 0.25, "least share of the word's most frequent sense a further sense needs")
	hypo := flag.Int("hypo", 8, "hyponyms per sense")
	flag.Parse()

	syn := map[string]*synset{}
	for pos, name := range posFiles {
		readData(filepath.Join(*dict, "data."+name), pos, syn)
	}
	counts := readCounts(filepath.Join(*dict, "cntlist.rev"))
	// Every sense of every word with the times the tagged corpus saw it.
	type sense struct {
		key   string // pos:offset
		count int
		order int // noun, verb, adjective, adverb; then WordNet's sense number
	}
	all := map[string][]sense{}
	for pi, pos := range []string{"n", "v", "a", "r"} {
		name := posFiles[pos]
		f, err := os.Open(filepath.Join(*dict, "index."+name))
		if err != nil {
			log.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, " ") {
				continue // licence header
			}
			fs := strings.Fields(line)
			lemma := fs[0]
			if !keep(lemma) {
				continue
			}
			pcnt, _ := strconv.Atoi(fs[3])
			for i, off := range fs[6+pcnt:] {
				all[lemma] = append(all[lemma], sense{key: pos + ":" + off, count: counts[fmt.Sprintf("%s:%s:%d", lemma, pos, i+1)],
					order: pi*1000 + i})
			}
		}
		f.Close()
	}
	// A word's senses: the most frequent one and the next ones the corpus saw at least share as
	// often, up to senses. A word the corpus never saw is left out, as key and as related word:
	// rare words match rarely, and the rare senses of common words are noise.
	type entry struct{ rel [4][]string }
	entries := map[string]*entry{}
	for lemma, ss := range all {
		sort.Slice(ss, func(i, j int) bool {
			if ss[i].count != ss[j].count {
				return ss[i].count > ss[j].count
			}
			return ss[i].order < ss[j].order
		})
		if ss[0].count == 0 {
			continue
		}
		e := &entry{}
		entries[lemma] = e
		for n, sn := range ss {
			if n >= *senses || float64(sn.count) < *share*float64(ss[0].count) {
				break
			}
			{
				s := syn[sn.key]
				if s == nil {
					log.Fatalf("%s: no synset %s", lemma, sn.key)
				}
				self := 0
				for i, w := range s.words {
					if strings.EqualFold(w, lemma) {
						self = i + 1
					}
				}
				e.rel[0] = append(e.rel[0], s.words...)
				nh := 0
				for _, p := range s.ptrs {
					t := syn[p.target]
					if t == nil {
						continue
					}
					switch {
					case p.sym == "+" && p.src == self && p.dst > 0:
						e.rel[1] = append(e.rel[1], t.words[p.dst-1])
					case (p.sym == "&" || p.sym == "\\") && (p.src == 0 || p.src == self):
						if p.dst > 0 {
							e.rel[0] = append(e.rel[0], t.words[p.dst-1])
						} else {
							e.rel[0] = append(e.rel[0], t.words...)
						}
					case p.sym == "@" || p.sym == "@i":
						e.rel[2] = append(e.rel[2], t.words...)
					case (p.sym == "~" || p.sym == "~i") && nh < *hypo:
						for _, w := range t.words {
							if keep(strings.ToLower(w)) && nh < *hypo {
								e.rel[3] = append(e.rel[3], w)
								nh++
							}
						}
					}
				}
			}
		}
	}
	words := make([]string, 0, len(entries))
	for w := range entries {
		words = append(words, w)
	}
	sort.Strings(words)
	var b strings.Builder
	kept := map[string]bool{}
	for _, w := range words {
		e := entries[w]
		seen := map[string]bool{text.Stem(w): true}
		var cols [4][]string
		any := false
		for i, list := range e.rel {
			for _, r := range list {
				r = strings.ToLower(r)
				if !keep(r) || entries[r] == nil || seen[text.Stem(r)] {
					continue
				}
				seen[text.Stem(r)] = true
				cols[i] = append(cols[i], r)
				any = true
			}
		}
		if !any {
			continue
		}
		kept[w] = true
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\n", w, strings.Join(cols[0], " "), strings.Join(cols[1], " "),
			strings.Join(cols[2], " "), strings.Join(cols[3], " "))
	}
	// Irregular forms (mice → mouse, ran → run) of the words kept.
	for _, name := range []string{"noun", "verb", "adj", "adv"} {
		f, err := os.Open(filepath.Join(*dict, name+".exc"))
		if err != nil {
			log.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) < 2 || !keep(fs[0]) {
				continue
			}
			var bases []string
			for _, base := range fs[1:] {
				if kept[base] && base != fs[0] {
					bases = append(bases, base)
				}
			}
			if len(bases) > 0 {
				fmt.Fprintf(&b, "=%s\t%s\n", fs[0], strings.Join(bases, " "))
			}
		}
		f.Close()
	}
	o, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(o, gzip.BestCompression)
	if _, err := zw.Write([]byte(b.String())); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := o.Close(); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d words, %d bytes of text", len(kept), b.Len())
}

// readCounts reads cntlist.rev into the times each sense was tagged, keyed word:pos:sense
// number.
func readCounts(path string) map[string]int {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		lemma, rest, ok := strings.Cut(fs[0], "%")
		if !ok || rest == "" {
			continue
		}
		pos := map[byte]string{'1': "n", '2': "v", '3': "a", '4': "r", '5': "a"}[rest[0]]
		n, _ := strconv.Atoi(fs[2])
		out[lemma+":"+pos+":"+fs[1]] += n
	}
	return out
}

// keep reports whether w is a word the table holds: lower-case ASCII letters, three or more,
// not a stop word.
func keep(w string) bool {
	if len(w) < 3 || text.IsStop(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// readData reads one data.* file into syn, keyed pos:offset (satellite adjectives as "a").
func readData(path, pos string, syn map[string]*synset) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			continue
		}
		if i := strings.Index(line, " | "); i >= 0 {
			line = line[:i]
		}
		fs := strings.Fields(line)
		wcnt, _ := strconv.ParseInt(fs[3], 16, 0)
		s := &synset{}
		i := 4
		for k := 0; k < int(wcnt); k++ {
			w := fs[i]
			if j := strings.Index(w, "("); j > 0 { // adjective markers: "galore(ip)"
				w = w[:j]
			}
			s.words = append(s.words, w)
			i += 2
		}
		pcnt, _ := strconv.Atoi(fs[i])
		i++
		for k := 0; k < pcnt; k++ {
			tpos := fs[i+2]
			if tpos == "s" {
				tpos = "a"
			}
			sd, _ := strconv.ParseUint(fs[i+3], 16, 16)
			s.ptrs = append(s.ptrs, pointer{sym: fs[i], target: tpos + ":" + fs[i+1], src: int(sd >> 8), dst: int(sd & 0xff)})
			i += 4
		}
		syn[pos+":"+fs[0]] = s
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}
