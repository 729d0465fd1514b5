package memory

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var fuzzSeedMemory = &Memory{
	ID: "01HXAMPLE0000000000000000A", Slug: "green-tea", Title: "Likes green tea", Scope: ScopeGlobal, Type: TypeUser,
	Confidence: ConfidenceHigh, Reviewed: true, SourceQuote: "I drink green tea every day", Reasoning: "said so",
	Aliases: []string{"tea"}, Tags: []string{"drink", "绿茶"}, Source: Source{Kind: "extractor", Session: "s1", Turn: 3},
	Created: time.Date(2024, 5, 14, 10, 30, 0, 0, time.UTC), Updated: time.Date(2024, 5, 15, 8, 0, 0, 0, time.UTC),
	Body: "我喜欢喝绿茶\n\n- likes [[Green Tea]]\n- works_at [[Acme]]",
}

// FuzzParse: Parse never panics on any bytes; whatever it accepts renders and re-parses to a
// fixed point; and a memory built from arbitrary text the way the store builds one survives
// Render→Parse unchanged.
func FuzzParse(f *testing.F) {
	seed, err := Render(fuzzSeedMemory)
	if err != nil {
		f.Fatal(err)
	}
	seeds := [][]byte{
		seed,
		[]byte(""),
		[]byte("no frontmatter at all"),
		[]byte("---\n---\n"),
		[]byte("---\nid: x\n---"),
		[]byte("---\nid: x\n---\nbody\n---\nmore\n"),
		[]byte("---\r\nid: x\r\ntitle: crlf\r\n---\r\nbody\r\n"),
		[]byte("\ufeff---\nid: bom\n---\nbody"),
		[]byte("---\nid: [unclosed\n---\n"),
		[]byte("---\nid: x\nconfidence: certain\n---\n"),
		[]byte("---\nid: x\ncreated: 2024-01-01\nupdated: not a date\n---\n"),
		[]byte("---\nid: x\ntags: {a: b}\n---\n"),
		[]byte("---\nid: x\n---\n\xff\xfe"),
		[]byte("---\nid: &a x\ntitle: *a\n---\n"),
		[]byte("---\nid: x\nsource: {kind: user, turn: 99999999999999999999}\n---\n"),
		[]byte("---\nid: x\ntitle: |\n  two\n  ---\n  lines\n---\nbody"),
	}
	texts := [][4]string{
		{"Likes green tea", "我喜欢喝绿茶", "I drink green tea", "tea"},
		{"---", "---\nnot a header\n---", "---", "---"},
		{"title: x", "body: y\nid: z", "key: value", "- item"},
		{"\"quoted\" 'single' #hash", "line1\r\nline2\rline3", "  spaced quote  ", "  "},
		{"null", "~", "true", "2024-01-01"},
		{"\x00ctrl\x1b", "tab\there\x00", "\u2028sep", "\ufeff"},
		{"bad \xff utf8", "body \xfe\xff", "\xc3", "\xe6\x97"},
		{strings.Repeat("長", 121), strings.Repeat("x", 90) + "\n" + strings.Repeat("y ", 60), strings.Repeat("q", 90), strings.Repeat("t ", 50)},
		{"a: b: c", "\n\n\nleading newlines", "|", ">"},
	}
	for i, s := range seeds {
		tx := texts[i%len(texts)]
		f.Add(s, tx[0], tx[1], tx[2], tx[3])
	}
	for _, tx := range texts {
		f.Add(seed, tx[0], tx[1], tx[2], tx[3])
	}

	f.Fuzz(func(t *testing.T, data []byte, title, body, quote, tag string) {
		// 1. any bytes: no panic; an accepted file re-renders to a fixed point.
		if m, err := Parse(data); err == nil {
			out, err := Render(m)
			if err != nil {
				t.Fatalf("Render of a parsed file failed: %v", err)
			}
			m2, err := Parse(out)
			if err != nil {
				t.Fatalf("re-parse of a rendered file failed: %v\n%q", err, out)
			}
			if m2.ID != m.ID || m2.Title != m.Title || m2.SourceQuote != m.SourceQuote || !(len(m2.Tags) == len(m.Tags) && (len(m.Tags) == 0 || reflect.DeepEqual(m2.Tags, m.Tags))) {
				t.Fatalf("render changed the header:\n%+v\n%+v", m, m2)
			}
			out2, err := Render(m2)
			if err != nil {
				t.Fatal(err)
			}
			m3, err := Parse(out2)
			if err != nil {
				t.Fatalf("second re-parse failed: %v", err)
			}
			if !reflect.DeepEqual(m2, m3) {
				t.Fatalf("Render→Parse is not a fixed point:\n%+v\n%+v", m2, m3)
			}
		} else if CodeOf(err) != CodeParseError {
			t.Fatalf("Parse error without parse_error code: %v", err)
		}

		// 2. a valid memory, normalised as ApplyBatch normalises, round-trips exactly.
		title = strings.TrimSpace(normalizeText(title))
		body = strings.TrimSpace(normalizeText(body))
		quote = strings.TrimSpace(normalizeText(quote))
		tag = normalizeText(tag)
		name := normalizeName(tag)
		if validateText(title, body) != nil || body == "" {
			return
		}
		conf, down := ApplyEvidence(ConfidenceHigh, quote)
		m := &Memory{
			ID: "01HXAMPLE0000000000000000B", Slug: "fuzz-slug", Title: title, Scope: ScopeAgent, Agent: "fuzzer", Type: TypeFeedback,
			Confidence: conf, AutoDowngraded: down, Reviewed: len(tag)%2 == 0, SourceQuote: quote, Reasoning: strings.TrimSpace(tag),
			Aliases: cleanList([]string{tag}), Tags: cleanList([]string{tag, title}), Supersedes: cleanList([]string{quote}),
			Source:  Source{Kind: "extractor", Agent: name, Session: normalizeName(title), Model: normalizeName(quote), Turn: len(body)},
			Created: time.Date(2024, 2, 29, 23, 59, 59, 0, time.UTC), Updated: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
			Body: body,
		}
		out, err := Render(m)
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		if !utf8.Valid(out) {
			t.Fatalf("Render produced invalid UTF-8")
		}
		got, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Render(m)): %v\n%s", err, out)
		}
		if !reflect.DeepEqual(got, m) {
			t.Fatalf("round trip changed the memory:\n got %#v\nwant %#v\nfile:\n%s", got, m, out)
		}
	})
}

// FuzzSearchQuery: whatever a user types, the FTS expressions built from it are valid MATCH
// syntax for both tables, and the ranking primitives recall uses (RankWords, RankTrigrams,
// RankSubstrings, HydrateRIDs) never fail with an SQL error on them.
func FuzzSearchQuery(f *testing.F) {
	for _, q := range []string{
		"", "green tea", "绿茶", "喜欢", "茶", "我喜欢喝绿茶 tea", `"`, `""`, `"a" "b`, "*", "a*", "-x", "x:y", "title:x",
		"(", ")", "(a OR b)", "^a", "NEAR", "NEAR(a b, 3)", "NEAR/3", "AND OR NOT", "a AND", "OR", "NOT a", "{a b}: c",
		"+", "a + b", "'", "\\", "%_%", "\x00", "a\x00b", "\xff\xfe", "\u200b", "é", "e\u0301", "🙂", "コーヒー", "ー",
		"ｰ", "\u3000", "x\ny\tz", "col1 : col2", strings.Repeat("a", 300), strings.Repeat("绿", 50),
	} {
		f.Add(q)
	}
	e := newFuzzStore(f)
	f.Fuzz(func(t *testing.T, q string) {
		for _, fq := range []string{BuildFTSQuery(q, "OR"), BuildFTSQuery(q, "AND")} {
			if fq == "" {
				continue
			}
			rows, err := e.s.db.Query(`SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?`, fq)
			if err == nil {
				for rows.Next() {
				}
				err = rows.Err()
				rows.Close()
			}
			if err != nil {
				t.Fatalf("memory_fts MATCH %q (from %q): %v", fq, q, err)
			}
		}
		if tq := TrigramQuery(q); tq != "" {
			rows, err := e.s.db.Query(`SELECT rowid FROM memory_fts_tri WHERE memory_fts_tri MATCH ?`, tq)
			if err == nil {
				for rows.Next() {
				}
				err = rows.Err()
				rows.Close()
			}
			if err != nil {
				t.Fatalf("memory_fts_tri MATCH %q (from %q): %v", tq, q, err)
			}
		}
		if _, err := e.lexical(q, Filter{}); err != nil {
			t.Fatalf("lexical primitives (%q): %v", q, err)
		}
	})
}

// newFuzzStore is a store with a little text in it, shared by every input of a fuzz run.
func newFuzzStore(f *testing.F) *env {
	home := f.TempDir()
	clock := newClock(baseTime)
	s, err := Open(context.Background(), home, Options{Now: clock.Now, Location: time.UTC, Logger: quietLogger})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	e := &env{ctx: context.Background(), home: home, s: s, clock: clock}
	res, err := s.ApplyBatch(e.ctx, Batch{Items: []Item{
		wr("green-tea", "绿茶", "我喜欢喝绿茶 and green tea"),
		wr("syntax", "Syntax", `"quoted" star* NEAR col:val (paren) ^caret AND OR NOT -minus 100% snake_case`),
		wr("coffee-jp", "コーヒー", "朝はコーヒーが好き café"),
	}})
	if err != nil || res.Failed != 0 {
		f.Fatalf("seed store: %v %+v", err, res)
	}
	return e
}

func TestWriteNormalizesText(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		title, body, wantTitle, wantBody string
	}{
		{"crlf", "line one\r\nline two\r\n", "crlf", "line one\nline two"},
		{"lone cr", "a\rb\r\r\nc", "lone cr", "a\nb\n\nc"},
		{"bad \xff utf8", "body \xfe\xff end", "bad \ufffd utf8", "body \ufffd end"},
	}
	for i, tc := range cases {
		it := wr("normalized-"+string(rune('a'+i)), tc.title, tc.body)
		it.Tags = []string{"t\xffag"}
		it.SourceQuote = sp("quote\r\nwith crlf")
		it.Source = &Source{Kind: "user", Agent: "ag\xffent"}
		r := e.ok(it)
		m := e.parsed(r.Path)
		if m.Title != tc.wantTitle || m.Body != tc.wantBody || m.Tags[0] != "t\ufffdag" || m.SourceQuote != "quote\nwith crlf" {
			t.Errorf("%q: file has title %q body %q tags %q quote %q", tc.title, m.Title, m.Body, m.Tags, m.SourceQuote)
		}
		got := e.get(r.ID)
		if got.Body != m.Body || got.Title != m.Title || got.SourceQuote != m.SourceQuote || got.Source != m.Source {
			t.Errorf("%q: index and file disagree: %q vs %q", tc.title, got.Body, m.Body)
		}
	}
	// nothing the store wrote turns into a problem on a full rebuild.
	rep, err := e.s.Reindex(e.ctx)
	if err != nil || rep.Problems != 0 || rep.Added != len(cases) {
		t.Fatalf("reindex: %+v %v", rep, err)
	}
	if _, err := CanonicalWorkdir("/tmp/bad\xff"); CodeOf(err) != CodeInvalidWorkdir {
		t.Fatalf("non-UTF-8 workdir: %v", err)
	}
}
