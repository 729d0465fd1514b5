package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func load(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil { // Load parses lazily: every catalog must parse
		t.Fatal(err)
	}
	return c
}

// Load parses nothing until a language is asked for, and then only that language (and
// English, the fallback): a CLI call pays for one catalog at most.
func TestLoadIsLazy(t *testing.T) {
	c, err := Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.parsed) != 0 || len(c.flat) != 0 {
		t.Fatalf("Load parsed %d catalogs", len(c.parsed)+len(c.flat))
	}
	if got := c.T("en", "cli.usage", nil); got == "cli.usage" || got == "" {
		t.Fatalf("T: %q", got)
	}
	if _, zh := c.parsed["zh-CN"]; zh || len(c.parsed) != 1 {
		t.Fatalf("an English message parsed %v", c.parsed)
	}
	if got := c.T("zh-CN", "cli.usage", nil); got == c.T("en", "cli.usage", nil) {
		t.Fatal("the Chinese catalog was not loaded on demand")
	}
	if _, err := Load(os.DirFS(t.TempDir())); err == nil {
		t.Fatal("Load of a folder without catalogs must fail")
	}
}

var placeholderRE = regexp.MustCompile(`\{\{\s*(?:n\s+)?\.([A-Za-z0-9_]+)[^}]*\}\}`)

func placeholders(s string) []string {
	var out []string
	for _, m := range placeholderRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return out
}

// Every locale must carry every key with the same placeholders, or a translated message
// would silently lose an argument.
func TestLocalesComplete(t *testing.T) {
	c := load(t)
	en := pluralBases(c.Messages("en"))
	if len(en) < 20 {
		t.Fatalf("english catalog suspiciously small: %d keys", len(en))
	}
	for _, lang := range Languages {
		msgs := pluralBases(c.Messages(lang))
		for k, v := range en {
			tr, ok := msgs[k]
			if !ok {
				t.Errorf("%s: missing key %s", lang, k)
				continue
			}
			if strings.TrimSpace(tr) == "" {
				t.Errorf("%s: empty message %s", lang, k)
			}
			if !reflect.DeepEqual(placeholders(v), placeholders(tr)) {
				t.Errorf("%s: %s placeholders %v, english has %v", lang, k, placeholders(tr), placeholders(v))
			}
		}
		for k := range msgs {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: key %s not in english", lang, k)
			}
		}
	}
}

var pluralForms = map[string]bool{"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}

// pluralBases folds plural messages (key.one, key.other…) into their base key with the
// "other" form: languages differ in which forms they need (Chinese has only "other").
func pluralBases(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		i := strings.LastIndex(k, ".")
		if i > 0 && pluralForms[k[i+1:]] {
			if k[i+1:] == "other" {
				out[k[:i]] = v
			} else if _, ok := out[k[:i]]; !ok {
				out[k[:i]] = ""
			}
			continue
		}
		out[k] = v
	}
	return out
}

func TestTranslate(t *testing.T) {
	c := load(t)
	for _, tc := range []struct{ lang, key string }{{"en", "error.quota_exhausted"}, {"zh-CN", "error.quota_exhausted"}, {"zh", "error.not_found"}} {
		got := c.T(tc.lang, tc.key, map[string]any{"Used": 495, "Limit": 500, "Ref": "x", "Scope": "global"})
		if got == tc.key || strings.Contains(got, "{{") || strings.Contains(got, "<no value>") {
			t.Errorf("T(%s,%s) = %q", tc.lang, tc.key, got)
		}
	}
	if got := c.T("zh-CN", "error.quota_exhausted", map[string]any{"Used": 1, "Limit": 2, "Scope": "global"}); got == c.T("en", "error.quota_exhausted", map[string]any{"Used": 1, "Limit": 2, "Scope": "global"}) {
		t.Errorf("chinese equals english: %q", got)
	}
	if got := c.T("en", "no.such.key", nil); got != "no.such.key" {
		t.Errorf("missing key gave %q", got)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"zh": "zh-CN", "zh_CN.UTF-8": "zh-CN", "en-US": "en", "": "en", "fr": "en"} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCountNouns: a message holding several counts renders each with its noun in the plural
// form the number takes ("1 memory", "2 journal days"), in English and Chinese.
func TestCountNouns(t *testing.T) {
	c := load(t)
	args := map[string]any{"Memories": 1, "Daily": 2, "KV": 1, "Files": 4, "Size": "2 KiB", "Path": "/tmp/b.tar.gz"}
	for _, tc := range []struct{ lang, want string }{
		{"en", "Backed up 1 memory, 2 journal days and 1 agent key file (4 files, 2 KiB) to /tmp/b.tar.gz"},
		{"zh-CN", "已将 1 条记忆、2 天日志和 1 个智能体键值文件（共 4 个文件，2 KiB）备份到 /tmp/b.tar.gz"},
	} {
		if got := c.T(tc.lang, "cli.backup.written", args); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.lang, got, tc.want)
		}
	}
	if got := c.T("en", "cli.export_done", map[string]any{"Count": 3}); got != "Exported 3 memories." {
		t.Errorf("export_done: %q", got)
	}
}

var detailKeyRE = regexp.MustCompile(`"(detail\.[a-z0-9_]+)"`)

// Every reason a package names by key ("DetailKey": "detail.…", translated by api.newError)
// is in the catalog, and every detail.* message is named somewhere: a key misspelt in Go would
// otherwise fall back to the English Detail without a word.
func TestDetailKeysExist(t *testing.T) {
	c := load(t)
	used := map[string]bool{}
	err := filepathWalk("../", func(path string, data []byte) {
		for _, m := range detailKeyRE.FindAllStringSubmatch(string(data), -1) {
			used[m[1]] = true
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// Keys built from a suffix (llm.ValidateBaseURL's "detail." + key) are listed by the suffix.
	for _, k := range []string{"url_unparsable", "url_scheme", "url_no_host", "url_credentials", "url_query"} {
		used["detail."+k] = true
	}
	if len(used) < 10 {
		t.Fatalf("found only %d detail keys: is the walk reading the backend?", len(used))
	}
	en := c.Messages("en")
	for k := range used {
		if _, ok := en[k]; !ok {
			t.Errorf("%s is named in Go but not in the catalog", k)
		}
	}
	for k := range en {
		if strings.HasPrefix(k, "detail.") && !used[k] {
			t.Errorf("%s is in the catalog but named nowhere", k)
		}
	}
}

// filepathWalk calls fn with every non-test Go file under root.
func filepathWalk(root string, fn func(path string, data []byte)) error {
	return fs.WalkDir(os.DirFS(root), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			return err
		}
		fn(path, data)
		return nil
	})
}

// TestNumbersFromStoredJSON: a message's arguments read back from JSON (a run report's, an
// organizer report's) hold numbers as float64, which a template printed as "1.048576e+06":
// `engram extract run ID` said "The text is 1.048576e+06 bytes" for a 1 MiB body a model sent,
// where the live run had said 1048576. Whole numbers print as whole numbers; fractions keep
// their digits.
func TestNumbersFromStoredJSON(t *testing.T) {
	c := load(t)
	for _, tc := range []struct {
		lang string
		args map[string]any
		want string
	}{
		{"en", map[string]any{"Size": float64(1 << 20), "Max": float64(8192)}, "The text is 1048576 bytes; at most 8192 are allowed."},
		{"zh-CN", map[string]any{"Size": float64(123456789), "Max": float64(8192)}, "123456789"},
		{"en", map[string]any{"Size": 2.5e6 + 0.5, "Max": int64(8192)}, "2.5000005e+06"},
	} {
		if got := c.T(tc.lang, "extraction.code.body-too-large", tc.args); !strings.Contains(got, tc.want) {
			t.Errorf("%s %v: %q, want %q in it", tc.lang, tc.args, got, tc.want)
		}
	}
	if got := c.T("en", "cli.export_done", map[string]any{"Count": float64(1000000)}); got != "Exported 1000000 memories." {
		t.Errorf("a stored count: %q", got)
	}
}
