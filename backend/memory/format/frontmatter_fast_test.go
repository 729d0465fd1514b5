package format

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// trickyValues are texts YAML may read as something else, or not at all, as plain scalars.
var trickyValues = []string{
	"plain words", "Alice's cat", "C#", "a#b", "a:b", "a :b", "x,y", "x]y", "x}y", "q'", `q"`, `a\b`, "50%", "e-mail",
	"true", "false", "True", "yes", "no", "on", "off", "null", "Null", "NULL", "~", "0", "010", "0x1F", "0o17", "1e3", "-1",
	"+1", ".inf", "-.inf", ".nan", "1_000", "2024-01-01", "2024-01-01T10:00:00Z", "12:30", "1:2:3",
	"a: b", "a #b", "#x", "-x", "- x", "--- x", "...", "?x", ":x", "x:", ",x", "[x", "]x", "{x", "}x", "&x", "*x", "!x",
	"|x", ">x", "'x", `"x`, "%x", "@x", "`x", " lead", "trail ", "tab\tin", "new\nline", "\u0085nel", "ls\u2028ls",
	"bom\ufeff", "nbsp\u00a0nbsp", "c1\u0080", "é", "中文标题", "喝茶。", "emoji 🙂", "zero\u200bwidth", "\x7fdel",
	"<<", "=", "a | b", "a > b", "!!str", "x\\", strings.Repeat("long ", 40),
}

func randomHeader(r *rand.Rand) Header {
	ordinary := []string{"green-tea", "Likes green tea", "global", "user", "medium", "extractor", "喜欢喝绿茶", "agent-0001",
		"/home/alex/src/engram", "Prefers short answers", "s1", "gpt-4o"}
	// Mostly ordinary values, so that many headers are for the fast reader to read.
	pick := func() string {
		if r.IntN(25) == 0 {
			return trickyValues[r.IntN(len(trickyValues))]
		}
		return ordinary[r.IntN(len(ordinary))]
	}
	maybe := func() string {
		if r.IntN(3) == 0 {
			return ""
		}
		return pick()
	}
	list := func() []string {
		var l []string
		for k := r.IntN(4); k > 0; k-- {
			l = append(l, pick())
		}
		return l
	}
	h := Header{ID: pick(), Slug: pick(), Title: pick(), Scope: Scope(pick()), Workdir: maybe(), Agent: maybe(),
		Type: Type(pick()), Confidence: Confidence(maybe()), AutoDowngraded: r.IntN(2) == 0, Reviewed: r.IntN(2) == 0,
		SourceQuote: maybe(), Reasoning: maybe(), Aliases: list(), Tags: list(), Supersedes: list(), ConflictsWith: list(),
		Subject: maybe(),
		Created: time.Date(2000+r.IntN(40), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), 0, time.UTC),
		Updated: time.Date(2026, 12, 5, 4, 22, 1, 0, time.UTC)}
	if r.IntN(2) == 0 {
		h.Source = &Source{Kind: maybe(), Agent: maybe(), Session: maybe(), Model: maybe(), Turn: r.IntN(3) * r.IntN(100000)}
	}
	return h
}

// headOf is the YAML between a rendered file's --- lines.
func headOf(t *testing.T, h Header) []byte {
	t.Helper()
	out, err := RenderFile(h, "body")
	if err != nil {
		t.Fatal(err)
	}
	out = out[4:]
	return out[:bytes.Index(out, []byte("\n---\n"))]
}

// mutate changes a rendered header the way a person editing it by hand might: a line
// doubled, dropped, re-indented, commented, quoted, blanked, or its key misspelt.
func mutate(r *rand.Rand, head []byte) []byte {
	lines := strings.Split(string(head), "\n")
	i := r.IntN(len(lines))
	switch r.IntN(9) {
	case 0:
		lines = append(lines[:i+1], lines[i:]...)
	case 1:
		lines = append(lines[:i], lines[i+1:]...)
	case 2:
		lines[i] = "  " + lines[i]
	case 3:
		lines[i] += " # note"
	case 4:
		if k := strings.Index(lines[i], ": "); k > 0 {
			lines[i] = lines[i][:k+2] + `"` + lines[i][k+2:] + `"`
		}
	case 5:
		lines = append(lines[:i], append([]string{""}, lines[i:]...)...)
	case 6:
		lines[i] = strings.Replace(lines[i], "e", "E", 1)
	case 7:
		lines[i] = strings.TrimPrefix(lines[i], "  ")
	case 8:
		lines[i] += "\n    continued"
	}
	return []byte(strings.Join(lines, "\n"))
}

// The fast reader and yaml.v3 read every header the same, or the fast reader declines: on
// headers of tricky values as RenderFile writes them, and on those headers edited by hand.
func TestHeaderFastAgreesWithYAML(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 5))
	fast, total := 0, 0
	check := func(head []byte) {
		total++
		var got Header
		if !readHeaderFast(head, &got) {
			return
		}
		fast++
		var want Header
		if err := yaml.Unmarshal(head, &want); err != nil {
			t.Fatalf("the fast reader took a header yaml.v3 refuses (%v):\n%s", err, head)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("the readers disagree on\n%s\nfast %+v\nyaml %+v", head, got, want)
		}
	}
	for n := 0; n < 4000; n++ {
		head := headOf(t, randomHeader(r))
		check(head)
		for k := 0; k < 3; k++ {
			head = mutate(r, head)
			check(head)
		}
	}
	// Every tricky value in every field, alone, and as a list item and a source field.
	for _, v := range trickyValues {
		for _, key := range []string{"id", "slug", "title", "scope", "workdir", "agent", "type", "confidence",
			"auto_downgraded", "reviewed", "source_quote", "reasoning", "subject", "created", "updated"} {
			check([]byte("id: x1\n" + key + ": " + v))
		}
		check([]byte("id: x1\ntags:\n  - " + v + "\n  - b"))
		for _, key := range []string{"kind", "agent", "session", "turn", "model"} {
			check([]byte("id: x1\nsource:\n  " + key + ": " + v))
		}
	}
	// What Engram writes is read fast: a plain header of ordinary values.
	plain := headOf(t, Header{ID: "01M92703RB2HGNHNQ3X65MPVQE", Slug: "green-tea", Title: "Likes green tea", Scope: ScopeGlobal,
		Type: TypeUser, Confidence: ConfidenceHigh, Reviewed: true, SourceQuote: "I drink green tea every day", Aliases: []string{"tea"},
		Tags: []string{"drink", "绿茶"}, Source: &Source{Kind: "extractor", Session: "s1", Turn: 3},
		Created: time.Date(2024, 5, 14, 10, 30, 0, 0, time.UTC), Updated: time.Date(2024, 5, 15, 8, 0, 0, 0, time.UTC)})
	if h := (Header{}); !readHeaderFast(plain, &h) {
		t.Fatalf("the fast reader declined a plain header:\n%s", plain)
	}
	if fast < total/8 {
		t.Fatalf("the fast reader took %d of %d headers: the test compares too few", fast, total)
	}
	t.Logf("fast reader took %d of %d headers", fast, total)
}
