package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"strings"

	"engram/backend/i18n"
)

// A verb's flags speak the person's language like the rest of the CLI: each description comes
// from the catalog (cli.flag.<verb>.<name>, else the shared cli.flag.<name>), the listing that
// -h prints and the mistakes Parse finds are translated too. The English written beside each
// flag in Go is what a key missing from the catalog would show, which
// TestEveryFlagIsInTheCatalog forbids. Go's flag package prints English ("flag provided but
// not defined", "Usage of", "(default 10)") and is kept quiet.

// FlagText translates one verb's flags in one language; a nil catalog keeps the Go text.
type FlagText struct {
	Catalog *i18n.Catalog
	Lang    string
	// Verb is the command line's verb ("write", "backup"), Name what the listing calls it
	// ("history restore").
	Verb, Name string
}

func (ft FlagText) t(key string, args map[string]any, fallback string) string {
	if ft.Catalog == nil || !ft.Catalog.Has(key) {
		return fallback
	}
	return ft.Catalog.T(ft.Lang, key, args)
}

// key is the catalog key of the description of flag name, "" when the catalog has none.
func (ft FlagText) key(name string) string {
	if ft.Catalog == nil {
		return ""
	}
	for _, k := range []string{"cli.flag." + ft.Verb + "." + name, "cli.flag." + name} {
		if ft.Catalog.Has(k) {
			return k
		}
	}
	return ""
}

// Localize puts the catalog's description on every flag of fs.
func (ft FlagText) Localize(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if k := ft.key(f.Name); k != "" {
			f.Usage = ft.Catalog.T(ft.Lang, k, nil)
		}
	})
}

// PrintDefaults writes the verb's flags as Go's flag package lays them out, in the
// person's language.
func (ft FlagText) PrintDefaults(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, ft.t("cli.flags_of", map[string]any{"Verb": ft.Name}, "Usage of engram "+ft.Name+":"))
	fs.VisitAll(func(f *flag.Flag) {
		var b strings.Builder
		fmt.Fprintf(&b, "  -%s", f.Name)
		typ, usage := flag.UnquoteUsage(f)
		if typ != "" {
			b.WriteString(" " + typ)
		}
		if b.Len() <= 4 { // a one-letter flag without a value fits on its line
			b.WriteString("\t")
		} else {
			b.WriteString("\n    \t")
		}
		if def := f.DefValue; def != "" && def != "0" && def != "false" && def != "[]" {
			if reflect.TypeOf(f.Value).String() == "*flag.stringValue" {
				def = fmt.Sprintf("%q", def)
			}
			usage = ft.t("cli.flag_default", map[string]any{"Usage": usage, "Value": def}, usage+" (default "+def+")")
		}
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n    \t"))
		fmt.Fprintln(w, b.String())
	})
}

// Parse parses args with fs, which writes nothing itself: -h writes the listing to w and
// returns flag.ErrHelp; any other mistake comes back as one translated sentence.
func (ft FlagText) Parse(fs *flag.FlagSet, args []string, w io.Writer) error {
	ft.Localize(fs)
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		ft.PrintDefaults(w, fs)
		return flag.ErrHelp
	}
	return errors.New(ft.parseError(err))
}

// parseError words one of the flag package's mistakes for people; its own sentence (English)
// when the form is not one of these.
func (ft FlagText) parseError(err error) string {
	msg := err.Error()
	say := func(key string, args map[string]any) string {
		s := ft.t(key, args, msg)
		return ft.t("cli.flag_hint", map[string]any{"Message": s, "Verb": ft.Name}, s)
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return say("cli.flag_unknown", map[string]any{"Flag": name, "Verb": ft.Name})
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return say("cli.flag_needs_value", map[string]any{"Flag": name})
	}
	// invalid value "x" for flag -every: parse error; invalid boolean value "x" for -json: …
	for _, prefix := range []string{"invalid value ", "invalid boolean value "} {
		rest, ok := strings.CutPrefix(msg, prefix)
		if !ok {
			continue
		}
		value, after, found := strings.Cut(rest, " for ")
		if !found {
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(after, "flag "), ":")
		return say("cli.flag_bad_value", map[string]any{"Flag": name, "Value": strings.Trim(value, `"`)})
	}
	return msg
}
