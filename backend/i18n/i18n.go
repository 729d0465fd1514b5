// Package i18n loads the one message catalog (locales/*.toml) shared by Go and the UI and
// translates coded errors and CLI text.
package i18n

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"text/template"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Languages the catalog ships, in menu order.
var Languages = []string{"en", "zh-CN"}

// DefaultLanguage is used when nothing better is known.
const DefaultLanguage = "en"

// Catalog holds every locale's messages.
type Catalog struct {
	bundle *goi18n.Bundle
	flat   map[string]map[string]string // lang → key → template
}

// Load reads <lang>.toml for each language from fsys.
func Load(fsys fs.FS) (*Catalog, error) {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	c := &Catalog{bundle: b, flat: map[string]map[string]string{}}
	for _, lang := range Languages {
		name := lang + ".toml"
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("i18n: unable to read %s: %w", name, err)
		}
		if _, err := b.ParseMessageFileBytes(data, path.Base(name)); err != nil {
			return nil, fmt.Errorf("i18n: unable to parse %s: %w", name, err)
		}
		var raw map[string]any
		if err := toml.Unmarshal(data, &raw); err != nil {
			return nil, fmt.Errorf("i18n: unable to parse %s: %w", name, err)
		}
		flat := map[string]string{}
		flatten("", raw, flat)
		c.flat[lang] = flat
	}
	return c, nil
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
	loc := goi18n.NewLocalizer(c.bundle, Normalize(lang), DefaultLanguage)
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
	s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: key, TemplateData: args, Funcs: funcs})
	if err != nil || s == "" {
		return key
	}
	return s
}

// Has reports whether key exists in the English catalog.
func (c *Catalog) Has(key string) bool {
	_, ok := c.flat[DefaultLanguage][key]
	return ok
}

// Messages returns the flat key → template map of one language (for the UI and tests).
func (c *Catalog) Messages(lang string) map[string]string {
	src := c.flat[Normalize(lang)]
	out := make(map[string]string, len(src))
	for k, v := range src {
		out[k] = v
	}
	return out
}

// Keys returns the sorted keys of one language.
func (c *Catalog) Keys(lang string) []string {
	m := c.flat[Normalize(lang)]
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
