// Package i18n loads the one message catalog (locales/*.toml) shared by Go and the UI and
// translates coded errors and CLI text.
package i18n

import (
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"
	"sync"
	"text/template"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Languages the catalog ships, in menu order.
var Languages = []string{"en", "zh-CN"}

// DefaultLanguage is used when nothing better is known.
const DefaultLanguage = "en"

// Catalog holds every locale's messages. Each language's file is read and parsed the first
// time something asks for it: a CLI call prints in one language (often nothing translated at
// all: `engram version`), and parsing both catalogs up front cost every process ~15 ms.
type Catalog struct {
	fsys   fs.FS
	mu     sync.RWMutex // parsing writes the bundle; translating reads it
	bundle *goi18n.Bundle
	parsed map[string]error             // languages parsed into bundle (nil error: ok)
	flat   map[string]map[string]string // lang → key → template, built on first use
}

// Load prepares the catalog of <lang>.toml for each language of fsys. Every file is checked to
// exist now; the parse waits for first use (T, Has, Messages, Keys), and Check parses all.
func Load(fsys fs.FS) (*Catalog, error) {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	c := &Catalog{fsys: fsys, bundle: b, parsed: map[string]error{}, flat: map[string]map[string]string{}}
	for _, lang := range Languages {
		if _, err := fs.Stat(fsys, lang+".toml"); err != nil {
			return nil, fmt.Errorf("i18n: unable to read %s.toml: %w", lang, err)
		}
	}
	return c, nil
}

// Check parses every language now (tests, and processes that will serve the UI anyway).
func (c *Catalog) Check() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, lang := range Languages {
		if err := c.parseLocked(lang); err != nil {
			return err
		}
		if _, err := c.flatLocked(lang); err != nil {
			return err
		}
	}
	return nil
}

// parseLocked adds lang's messages to the bundle once.
func (c *Catalog) parseLocked(lang string) error {
	if err, done := c.parsed[lang]; done {
		return err
	}
	name := lang + ".toml"
	data, err := fs.ReadFile(c.fsys, name)
	if err != nil {
		err = fmt.Errorf("i18n: unable to read %s: %w", name, err)
	} else if _, perr := c.bundle.ParseMessageFileBytes(data, path.Base(name)); perr != nil {
		err = fmt.Errorf("i18n: unable to parse %s: %w", name, perr)
	}
	c.parsed[lang] = err
	return err
}

// flatLocked is lang's key → template map, built once.
func (c *Catalog) flatLocked(lang string) (map[string]string, error) {
	if m, ok := c.flat[lang]; ok {
		return m, nil
	}
	name := lang + ".toml"
	data, err := fs.ReadFile(c.fsys, name)
	if err != nil {
		return nil, fmt.Errorf("i18n: unable to read %s: %w", name, err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("i18n: unable to parse %s: %w", name, err)
	}
	flat := map[string]string{}
	flatten("", raw, flat)
	c.flat[lang] = flat
	return flat, nil
}

// flatOf is flatLocked taking the lock; a catalog that fails to parse reads as empty.
func (c *Catalog) flatOf(lang string) map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, _ := c.flatLocked(lang)
	return m
}

func flatten(prefix string, v any, out map[string]string) {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			flatten(key, child, out)
		}
	case string:
		out[prefix] = t
	}
}

// Normalize maps a requested language ("zh", "zh_CN.UTF-8", "en-US") to a shipped one.
func Normalize(lang string) string {
	l := strings.ToLower(strings.ReplaceAll(strings.SplitN(lang, ".", 2)[0], "_", "-"))
	switch {
	case strings.HasPrefix(l, "zh"):
		return "zh-CN"
	case l == "":
		return DefaultLanguage
	}
	return DefaultLanguage
}

// T translates key into lang with args filling {{.Name}} placeholders. A missing key falls
// back to English, then to the key itself, so nothing is ever blank.
func (c *Catalog) T(lang, key string, args map[string]any) string {
	lang = Normalize(lang)
	c.mu.RLock()
	_, okLang := c.parsed[lang]
	_, okDef := c.parsed[DefaultLanguage]
	if !okLang || !okDef {
		c.mu.RUnlock()
		c.mu.Lock()
		_ = c.parseLocked(DefaultLanguage)
		_ = c.parseLocked(lang)
		c.mu.Unlock()
		c.mu.RLock()
	}
	defer c.mu.RUnlock()
	loc := goi18n.NewLocalizer(c.bundle, lang, DefaultLanguage)
	// {{n .Count "count.memories"}} renders a number with its noun in the language's plural
	// form ("1 memory", "2 memories"; "2 条记忆"), so a message holding several counts needs
	// no plural forms of its own.
	funcs := template.FuncMap{"n": func(count any, noun string) string {
		s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: noun, PluralCount: count, TemplateData: map[string]any{"Count": count}})
		if err != nil || s == "" {
			return fmt.Sprint(count)
		}
		return s
	}}
	s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: key, TemplateData: wholeNumbers(args), Funcs: funcs})
	if err != nil || s == "" {
		return key
	}
	return s
}

// wholeNumbers is args with each whole float64 as an int64. Arguments read back from JSON (a
// stored run report's, an organizer report's) hold every number as float64, which a template
// prints as "1.048576e+06" from a million on and the plural function could not count; a
// fraction is left as it is. args itself is not changed (a caller may hold it).
func wholeNumbers(args map[string]any) map[string]any {
	var out map[string]any
	for k, v := range args {
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(args))
			for k2, v2 := range args {
				out[k2] = v2
			}
		}
		out[k] = int64(f)
	}
	if out == nil {
		return args
	}
	return out
}

// Has reports whether key exists in the English catalog.
func (c *Catalog) Has(key string) bool {
	_, ok := c.flatOf(DefaultLanguage)[key]
	return ok
}

// Messages returns the flat key → template map of one language (for the UI and tests).
func (c *Catalog) Messages(lang string) map[string]string {
	src := c.flatOf(Normalize(lang))
	out := make(map[string]string, len(src))
	for k, v := range src {
		out[k] = v
	}
	return out
}

// Keys returns the sorted keys of one language.
func (c *Catalog) Keys(lang string) []string {
	m := c.flatOf(Normalize(lang))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
