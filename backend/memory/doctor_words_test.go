package memory

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"engram/backend/i18n"
)

// loadCatalog reads the app's catalogs, to check that what doctor names by key reads as a
// sentence of the person's language.
func loadCatalog(t *testing.T) *i18n.Catalog {
	t.Helper()
	c, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// englishRE finds an English word of the parser's or the store's (identifiers such as a field's
// name are allowed by the caller).
var englishRE = regexp.MustCompile(`[A-Za-z]{3,}`)

// wantChinese fails unless s, a Chinese sentence, holds no English word but those allowed.
func wantChinese(t *testing.T, s string, allowed ...string) {
	t.Helper()
	if strings.Contains(s, "{{") || strings.Contains(s, "<no value>") {
		t.Fatalf("not filled: %q", s)
	}
	for _, w := range englishRE.FindAllString(s, -1) {
		// YAML, JSON and null are what the file is written in; frontmatter is the catalog's
		// word for a header in error.field_over_limit.
		ok := w == "YAML" || w == "JSON" || w == "null" || w == "frontmatter"
		for _, a := range allowed {
			ok = ok || strings.Contains(a, w)
		}
		if !ok {
			t.Fatalf("English %q in the Chinese sentence %q", w, s)
		}
	}
}

// A hand file the index cannot take names its reason by key, with the field, the size and the
// limit, or the YAML line and cause: the Chinese doctor printed "title has a value of 200
// characters, at most 120" and "did not find expected ',' or ']'" inside its own sentences.
func TestDoctorDetailsOfHandFilesAreNamedByKey(t *testing.T) {
	cat := loadCatalog(t)
	cases := []struct {
		name, header, key string
		args              map[string]any
	}{
		{"title too long", "title: " + strings.Repeat("T", 200) + "\n", "detail.field_too_long", map[string]any{"Field": "title", "Len": 200, "Max": MaxTitleChars}},
		{"too many tags", "tags: [" + strings.Join(distinct(33, 4), ", ") + "]\n", "detail.too_many_values", map[string]any{"Field": "tags", "Values": 33, "Max": 32}},
		{"long source session", "source:\n  kind: hand\n  session: " + strings.Repeat("s", 129) + "\n", "detail.field_too_long", map[string]any{"Field": "source.session", "Len": 129, "Max": 128}},
		{"unclosed list", "title: [a, b\n", "detail.yaml_unclosed_list", map[string]any{"Line": 2}},
		{"unclosed map", "title: {a: b\n", "detail.yaml_unclosed_map", map[string]any{"Line": 2}},
		{"colon in a value", "title: a: b\n", "detail.yaml_colon_in_value", map[string]any{"Line": 3}},
		{"unclosed quote", "title: \"abc\n", "detail.yaml_unclosed_quote", map[string]any{"Line": 3}},
		{"no colon", "just some text\n", "detail.yaml_no_colon", map[string]any{"Line": 3}},
		{"tab", "\ttitle: x\n", "detail.yaml_tab", map[string]any{"Line": 3}},
		{"reserved character", "title: @home\n", "detail.yaml_reserved_char", map[string]any{"Line": 3}},
		{"list out of place", "- a\ntitle: x\n", "detail.yaml_indent", map[string]any{"Line": 2}},
		{"list for a title", "title: [a, b]\n", "detail.yaml_wrong_kind", map[string]any{"Line": 3}},
		{"repeated field", "title: x\ntitle: y\n", "detail.yaml_repeated_field", map[string]any{"Line": 4, "Field": "title"}},
		{"bad date", "created: last tuesday\n", "detail.yaml_bad_time", map[string]any{"Value": "last tuesday"}},
		{"unknown anchor", "title: *nowhere\n", "detail.yaml_invalid", map[string]any{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			rel := "global/user/hand-file.md"
			e.put(rel, []byte("---\nid: 01JB0000000000000000000801\n"+c.header+"---\nwritten by hand\n"))
			e.reconcile()
			p := e.problemAt(rel)
			if p == nil || p.DetailKey != c.key {
				t.Fatalf("problem %+v, want key %s", p, c.key)
			}
			for k, v := range c.args {
				if p.DetailArgs[k] != v {
					t.Fatalf("arg %s = %v, want %v (%+v)", k, p.DetailArgs[k], v, p.DetailArgs)
				}
			}
			zh := cat.T("zh-CN", p.DetailKey, p.DetailArgs)
			wantChinese(t, zh, fmt.Sprint(c.args["Field"]), fmt.Sprint(c.args["Value"]))
			if line, ok := c.args["Line"]; ok && !strings.Contains(zh, fmt.Sprintf("第 %v 行", line)) {
				t.Fatalf("the line is not said: %q", zh)
			}
			// The whole sentence the Chinese doctor prints around it.
			wantChinese(t, cat.T("zh-CN", "error."+p.Code, map[string]any{"Detail": zh}), fmt.Sprint(c.args["Field"]), fmt.Sprint(c.args["Value"]))
			if en := cat.T("en", p.DetailKey, p.DetailArgs); strings.Contains(en, "<no value>") || en == p.DetailKey {
				t.Fatalf("english: %q", en)
			}
			if strings.HasPrefix(c.key, "detail.yaml_") {
				// The parser's own words stay in the arguments (doctor --json), not in the sentence.
				if r, _ := p.DetailArgs["Reason"].(string); r == "" || strings.Contains(zh, r) {
					t.Fatalf("reason %q, sentence %q", r, zh)
				}
			}
		})
	}
}

// An agent's kv.json that cannot be used names what is wrong by key — in the problems list,
// in the kv_file_invalid error every kv call returns, and in doctor's finding, which calls it
// the agent's key-value file, not a memory ("agents/a/kv.json cannot be read as a memory").
func TestDoctorNamesUnusableKeyFilesInTheirOwnWords(t *testing.T) {
	cat := loadCatalog(t)
	many := make([]string, MaxKVKeys+1)
	for i := range many {
		many[i] = fmt.Sprintf(`"k%d": 1`, i)
	}
	cases := []struct {
		name, content, key string
		args               map[string]any
	}{
		{"array", `[1,2]`, "detail.kv_not_object", nil},
		{"empty", ``, "detail.kv_json_cut", nil},
		{"cut short", `{"a": 1,`, "detail.kv_json_cut", nil},
		{"bad JSON on line 3", "{\n  \"a\": 1,\n  \"b\" 2\n}", "detail.kv_not_json_line", map[string]any{"Line": 3}},
		{"repeated key", `{"a": 1, "a": 2}`, "detail.kv_repeated_key", map[string]any{"Entry": 2}},
		{"empty key", `{"": 1}`, "detail.kv_key_empty", map[string]any{"Entry": 1}},
		{"long key", `{"a": 1, "` + strings.Repeat("k", 300) + `": 1}`, "detail.kv_key_too_long", map[string]any{"Entry": 2, "Size": 300, "Max": MaxKVKeyBytes}},
		{"spaced key", `{" a": 1}`, "detail.kv_key_space", map[string]any{"Entry": 1}},
		{"control in key", "{\"a\\u0001\": 1}", "detail.kv_key_unprintable", map[string]any{"Entry": 1, "Char": "U+0001"}},
		{"null", `{"a": null}`, "detail.kv_value_missing", map[string]any{"Entry": 1}},
		{"large value", `{"a": "` + strings.Repeat("v", MaxKVValueBytes) + `"}`, "detail.kv_value_too_large", map[string]any{"Entry": 1, "Max": MaxKVValueBytes}},
		{"secret value", `{"gh": "ghp_` + strings.Repeat("a1B2", 9) + `"}`, "detail.kv_secret_value", map[string]any{"Entry": 1, "Kind": "github_token"}},
		{"secret key", `{"ghp_` + strings.Repeat("a1B2", 9) + `": 1}`, "detail.kv_secret_key", map[string]any{"Entry": 1, "Kind": "github_token"}},
		{"too many keys", "{" + strings.Join(many, ",") + "}", "detail.kv_too_many_keys", map[string]any{"Max": MaxKVKeys}},
		{"text after", `{"a": 1} {"b": 2}`, "detail.kv_text_after", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			rel := "agents/a/kv.json"
			e.put(rel, []byte(c.content))
			p := e.problemAt(rel)
			if p == nil || p.Code != ProblemKVFile || p.DetailKey != c.key || p.Detail == "" {
				t.Fatalf("problem %+v, want key %s", p, c.key)
			}
			for k, v := range c.args {
				if p.DetailArgs[k] != v {
					t.Fatalf("arg %s = %v, want %v (%+v)", k, p.DetailArgs[k], v, p.DetailArgs)
				}
			}
			zh := cat.T("zh-CN", c.key, p.DetailArgs)
			wantChinese(t, zh, fmt.Sprint(p.DetailArgs["Kind"]), fmt.Sprint(p.DetailArgs["Char"]))
			// A kv call's error carries the key too, for api to translate its Detail.
			_, err := e.s.KVGet(e.ctx, "a", "a")
			var ce *Error
			if !errors.As(err, &ce) || ce.Code != CodeKVFileInvalid || ce.Args["DetailKey"] != c.key || ce.Args["Path"] != rel {
				t.Fatalf("kv error %v", err)
			}
			doc, err := e.s.Doctor(e.ctx)
			if err != nil {
				t.Fatal(err)
			}
			var f *Finding
			for i := range doc.Findings {
				if doc.Findings[i].Path == rel {
					f = &doc.Findings[i]
				}
			}
			if f == nil || f.Code != "kv_file_unusable" || f.Args["Agent"] != "a" || f.Args["DetailKey"] != c.key ||
				strings.Contains(f.Fix, FixReindex) || !strings.Contains(f.Fix, "$EDITOR ") {
				t.Fatalf("finding %+v", f)
			}
			if msg := cat.T("zh-CN", "doctor.finding."+f.Code, map[string]any{"Path": rel, "Agent": "a", "Detail": zh}); strings.Contains(msg, "记忆") {
				t.Fatalf("a key file called a memory: %q", msg)
			}
		})
	}
}
