package cli

import (
	"flag"

	"engram/backend/api"
)

// updateParams reads `update SLUG|ID [--title T] [--body B|-] [--replace] [--quote Q]
// [--reasoning R] [--confidence C] [--type T] [--alias A]… [--tag T]… [--expected-version V]`.
// The store told a person writing an existing slug to "update it instead", and the CLI had
// no verb that could. Only the flags given change the memory: a body is added to the old one
// unless --replace (then the body, aliases and tags given replace the old ones; an empty
// --quote or --reasoning clears it).
func updateParams(r *runner, args []string) (api.UpdateParams, error) {
	var title, body, quote, reasoning, conf, typ string
	var aliases, tags listFlag
	var replace bool
	var fs *flag.FlagSet
	ref, err := r.ref("update", args, func(f *flag.FlagSet) {
		fs = f
		f.StringVar(&title, "title", "", "new title")
		f.StringVar(&body, "body", "", "text added to the body (Markdown; with --replace the new body); - reads stdin")
		f.BoolVar(&replace, "replace", false, "replace the body, aliases and tags instead of adding to them")
		f.StringVar(&quote, "quote", "", "verbatim evidence quote (empty clears it)")
		f.StringVar(&reasoning, "reasoning", "", "why this is worth remembering (empty clears it)")
		f.StringVar(&conf, "confidence", "", "high | medium | low")
		f.StringVar(&typ, "type", "", "user | feedback | project | reference | experience")
		f.Var(&aliases, "alias", "alias (repeatable)")
		f.Var(&tags, "tag", "tag (repeatable)")
	})
	if err != nil {
		return api.UpdateParams{}, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	changes := false
	for _, name := range []string{"title", "body", "quote", "reasoning", "confidence", "type", "alias", "tag"} {
		changes = changes || set[name]
	}
	if !changes {
		return api.UpdateParams{}, usageError(r.t("cli.missing_arg", map[string]any{"Command": "update", "What": "--title | --body | --quote | --reasoning | --confidence | --type | --alias | --tag"}))
	}
	p := api.UpdateParams{ID: ref.ID, ExpectedVersion: ref.ExpectedVersion, Confidence: api.Confidence(conf), Type: api.Type(typ)}
	if p.ID == "" {
		// A slug (in its scope): the method takes the id.
		m, err := r.api.Memory.Read(ref)
		if err != nil {
			return p, err
		}
		p.ID = m.Memory.ID
	}
	if replace {
		p.Mode = "replace"
	}
	if set["body"] {
		if body == "-" {
			// One byte over the limit lets the api refuse the body with its real size.
			if body, err = r.stdinText(api.MaxBodyBytes + 1); err != nil {
				return p, err
			}
		}
		p.Body = &body
	}
	if set["title"] {
		p.Title = &title
	}
	if set["quote"] {
		p.SourceQuote = &quote
	}
	if set["reasoning"] {
		p.Reasoning = &reasoning
	}
	if set["alias"] {
		p.Aliases = aliases
	}
	if set["tag"] {
		p.Tags = tags
	}
	return p, nil
}
