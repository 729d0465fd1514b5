package memory

import (
	"fmt"
	"strings"
	"testing"
)

// The goals of issue 8: the guard finds at least 95% of the secret shapes of the table and
// refuses at most 2% of its look-alikes.
const (
	minDetection     = 0.95
	maxFalsePositive = 0.02
)

func TestSecretTable(t *testing.T) {
	cases, err := loadSecretTable("testdata/secrets.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var secrets, clean, found, falsePos int
	for _, c := range cases {
		kind := secretKind(c.text)
		if c.secret {
			secrets++
			switch {
			case kind == "":
				t.Logf("missed line %d (%s): %q", c.line, c.kind, c.text)
			case kind != c.kind:
				found++
				t.Errorf("line %d: named %s, want %s", c.line, kind, c.kind)
			default:
				found++
			}
			continue
		}
		clean++
		if kind != "" {
			falsePos++
			t.Logf("false positive line %d (%s) as %s: %q", c.line, c.kind, kind, c.text)
		}
	}
	if secrets < 40 || clean < 40 {
		t.Fatalf("the table holds %d secrets and %d look-alikes; it needs at least 40 of each", secrets, clean)
	}
	detection, fp := float64(found)/float64(secrets), float64(falsePos)/float64(clean)
	t.Logf("secret table: detection %d/%d = %.1f%%, false positives %d/%d = %.1f%%",
		found, secrets, 100*detection, falsePos, clean, 100*fp)
	if detection < minDetection {
		t.Errorf("detection %.1f%% is below the goal of %.0f%%", 100*detection, 100*minDetection)
	}
	if fp > maxFalsePositive {
		t.Errorf("false positives %.1f%% are above the goal of %.0f%%", 100*fp, 100*maxFalsePositive)
	}
}

// fakeAWSKeyID is shaped like an AWS access key id (split so no scanner takes it for one).
const fakeAWSKeyID = "AK" + "IA" + "Q3EGRJZXN7WVT2LP"

// tableSecret returns the expanded text of the first table row of a kind.
func tableSecret(t *testing.T, kind string) string {
	t.Helper()
	cases, err := loadSecretTable("testdata/secrets.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.secret && c.kind == kind && !strings.Contains(c.text, "\n") {
			return c.text
		}
	}
	t.Fatalf("no one-line %s in the table", kind)
	return ""
}

// Every text field is scanned, and the refusal names the kind and the field without echoing
// the secret: before, tags, aliases and the source were never scanned.
func TestSecretInEveryField(t *testing.T) {
	e := newEnv(t)
	gh := tableSecret(t, "github_token")
	hf := tableSecret(t, "huggingface_token")
	fields := []struct {
		field string
		set   func(it *Item, v string)
	}{
		{"title", func(it *Item, v string) { it.Title = sp(v) }},
		{"body", func(it *Item, v string) { it.Body = sp(v) }},
		{"source_quote", func(it *Item, v string) { it.SourceQuote = sp(v) }},
		{"reasoning", func(it *Item, v string) { it.Reasoning = sp(v) }},
		{"aliases", func(it *Item, v string) { it.Aliases = []string{"fine alias", v} }},
		{"tags", func(it *Item, v string) { it.Tags = []string{"ok", v} }},
		{"supersedes", func(it *Item, v string) { it.Supersedes = []string{v} }},
		{"conflicts_with", func(it *Item, v string) { it.ConflictsWith = []string{v} }},
		{"source.session", func(it *Item, v string) { it.Source = &Source{Kind: "tool", Session: v} }},
		{"source.model", func(it *Item, v string) { it.Source = &Source{Kind: "tool", Model: v} }},
		{"source.agent", func(it *Item, v string) { it.Source = &Source{Kind: "tool", Agent: v} }},
		{"workdir", func(it *Item, v string) {
			it.Scope, it.Type, it.Workdir = ScopeProject, TypeProject, "/srv/"+v
		}},
	}
	base := e.ok(wr("clean-base", "Clean", "Nothing secret here."))
	for i, f := range fields {
		for _, sec := range []struct{ kind, text string }{{"github_token", gh}, {"huggingface_token", hf}} {
			t.Run(f.field+"/"+sec.kind, func(t *testing.T) {
				e.t = t
				it := wr(fmt.Sprintf("field-%02d", i), "harmless", "harmless body")
				f.set(&it, sec.text)
				r := e.do(it)
				if r.OK || r.Code != CodeSecretDetected || r.Args["Kind"] != sec.kind || r.Args["Field"] != f.field {
					t.Fatalf("write: ok=%v code=%s args=%v", r.OK, r.Code, r.Args)
				}
				if strings.Contains(r.Message, sec.text) || strings.Contains(fmt.Sprint(r.Args), sec.text) {
					t.Fatal("the refusal echoes the secret")
				}
				if f.field == "workdir" {
					return
				}
				up := Item{Op: OpUpdate, ID: base.ID}
				f.set(&up, sec.text)
				up.Scope, up.Type, up.Slug = "", "", ""
				if r := e.do(up); r.OK || r.Code != CodeSecretDetected || r.Args["Field"] != f.field {
					t.Fatalf("update: ok=%v code=%s args=%v", r.OK, r.Code, r.Args)
				}
			})
		}
	}
	e.t = t
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE type <> 'daily'`); n != 1 {
		t.Fatalf("%d memories stored, want only the clean one", n)
	}
	if m := e.get(base.ID); m.Body != "Nothing secret here." || len(m.Tags) != 0 || len(m.Aliases) != 0 {
		t.Fatalf("a refused update changed the memory: %+v", m)
	}
	// the journal names its one field.
	r := e.do(Item{Op: OpAppendDaily, Text: "deploy with " + gh})
	if r.Code != CodeSecretDetected || r.Args["Field"] != "text" || strings.Contains(r.Message, gh) {
		t.Fatalf("append_daily: %s %v %q", r.Code, r.Args, r.Message)
	}
	// an import line is refused like a write, the other lines are kept.
	lines := `{"slug":"imported-ok","title":"t","scope":"global","type":"user","body":"fine"}` + "\n" +
		`{"slug":"imported-leak","title":"t","scope":"global","type":"user","body":"fine","tags":["` + hf + `"]}` + "\n"
	rep, err := e.s.Import(e.ctx, strings.NewReader(lines))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported != 1 || len(rep.Errors) != 1 || rep.Errors[0].Code != CodeSecretDetected ||
		rep.Errors[0].Args["Field"] != "tags" || strings.Contains(rep.Errors[0].Message, hf) {
		t.Fatalf("import: %+v", rep)
	}
}

// Disguised keys (zero-width characters inside, fullwidth forms) are found in any field.
func TestSecretDisguisedInTags(t *testing.T) {
	e := newEnv(t)
	key := fakeAWSKeyID
	disguises := map[string]string{
		"zero-width space": strings.Join(strings.Split(key, ""), "\u200b"),
		"word joiner":      key[:6] + "\u2060" + key[6:],
		"soft hyphen":      key[:10] + "\u00ad" + key[10:],
		"fullwidth":        mustTransform(t, key, "fw"),
	}
	i := 0
	for name, v := range disguises {
		i++
		it := wr(fmt.Sprintf("disguised-%d", i), "t", "b")
		it.Tags = []string{v}
		r := e.do(it)
		if r.Code != CodeSecretDetected || r.Args["Kind"] != "aws_access_key" || r.Args["Field"] != "tags" {
			t.Errorf("%s: %s %v", name, r.Code, r.Args)
		}
	}
}

func mustTransform(t *testing.T, s, how string) string {
	t.Helper()
	out, err := transformText(s, how)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The documented AWS examples are look-alikes: a note explaining AWS configuration is kept.
func TestAWSExampleKeysAllowed(t *testing.T) {
	e := newEnv(t)
	body := "Example from the AWS docs:\naws_access_key_id = AK" + "IAIOSFODNN7EXAMPLE\n" +
		"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
	e.ok(wr("aws-docs-example", "AWS config example", body))
}

// BenchmarkSecretScan measures the guard on full-size bodies: ordinary prose, and text dense
// with the words and characters that wake most rules (none of it a secret).
func BenchmarkSecretScan(b *testing.B) {
	for name, body := range map[string]string{
		"prose": strings.Repeat("Prefers tabs; the deploy script lives in scripts/deploy.sh and uses s3. ", MaxBodyBytes/72),
		"dense": strings.Repeat("tokens = tokenizer.encode(text) # secret key: see https://x.io/a|b sk-learn aws s3\n", MaxBodyBytes/84),
	} {
		m := &Memory{Title: "Deploy notes", Body: body, Tags: []string{"deploy", "aws"}, SourceQuote: "as said"}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := checkMemory(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
