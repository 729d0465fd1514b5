package api

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"engram/backend/memory"
)

// placeholder finds the arguments a template reads: {{.Field}}, {{n .Count "…"}}, {{if .X}}.
var placeholder = regexp.MustCompile(`\.([A-Z][A-Za-z]*)\b`)

// Every coded message in Chinese says the names it is given in Chinese: rendered through the
// same path a refusal takes (error.* by API.Error, detail.* as an error's DetailKey, warning.*
// as a write's warning, extraction.code.* as an extraction's refusal) with a field name and each enum the code speaks as its arguments, no
// English field name, scope, type, confidence, status or quota level may show that the
// template itself does not spell out (a hint naming the values to type, "请使用 global、project
// 或 agent", is the template's own text). A message whose field is the person's own data
// (rawFieldKeys) is given a made-up field and keeps it as typed.
func TestChineseMessagesSayNamesInChinese(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
		t.Fatal(err)
	}
	cat := a.deps.Catalog
	zh := cat.Messages("zh-CN")
	fields := []string{}
	for _, k := range cat.Keys("en") {
		if f, ok := strings.CutPrefix(k, "field."); ok {
			fields = append(fields, f)
		}
	}
	if len(fields) < 30 {
		t.Fatalf("only %d field names in the catalog", len(fields))
	}
	// The words that must not leak: every field name and every enum value the code speaks.
	words := map[string]bool{}
	for _, f := range fields {
		words[f] = true
	}
	for _, prefix := range []string{"ui.scopes.", "ui.types.", "organizer.status.", "organizer.decision_status.", "quota.level."} {
		for _, k := range cat.Keys("en") {
			if v, ok := strings.CutPrefix(k, prefix); ok {
				words[v] = true
			}
		}
	}
	for _, c := range []string{"high", "medium", "low"} {
		words[c] = true
	}
	// Compiled once per word: compiling two per word for each of ~2,000 rendered messages was
	// most of this test's 40 s under the race detector.
	tokens := map[string]*regexp.Regexp{}
	for w := range words {
		tokens[w] = regexp.MustCompile(`(^|[^A-Za-z0-9_.\-])` + regexp.QuoteMeta(w) + `($|[^A-Za-z0-9_\-])`)
	}
	tokenOf := func(w string) *regexp.Regexp { return tokens[w] }
	sample := func(key, field string) map[string]any {
		args := map[string]any{}
		for _, m := range placeholder.FindAllStringSubmatch(zh[key], -1) {
			args[m[1]] = 3
		}
		for name := range args {
			switch name {
			case "Field":
				args[name] = field
				if rawFieldKeys[key] {
					args[name] = "my_own_key"
				}
			case "Scope":
				args[name] = "project"
			case "Type":
				args[name] = "feedback"
			case "Confidence":
				args[name] = "low"
			case "Level":
				args[name] = "critical"
			case "Status":
				if _, ok := statusSections[key]; ok {
					args[name] = "failed"
				} else {
					args[name] = 401 // an HTTP status
				}
			}
		}
		return args
	}
	render := func(key string, args map[string]any) string {
		switch {
		case strings.HasPrefix(key, "error."):
			return a.Error(strings.TrimPrefix(key, "error."), args).Message
		case strings.HasPrefix(key, "detail."):
			args[DetailKey] = key
			return a.Error(memory.CodeInternal, args).Message
		default:
			return a.codedText(key, args)
		}
	}
	keys := []string{}
	for k := range zh {
		if strings.HasPrefix(k, "error.") || strings.HasPrefix(k, "detail.") || strings.HasPrefix(k, "warning.") || strings.HasPrefix(k, "extraction.code.") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	checked := 0
	for _, key := range keys {
		tpl := zh[key]
		if !strings.Contains(tpl, "{{") {
			continue
		}
		reps := []string{"title"}
		if strings.Contains(tpl, ".Field") {
			reps = fields // every field name a message may be given
		}
		for _, field := range reps {
			msg := render(key, sample(key, field))
			checked++
			for w := range words {
				if tokenOf(w).MatchString(msg) && !tokenOf(w).MatchString(tpl) {
					t.Errorf("%s with Field %q shows the English %q: %s", key, field, w, msg)
				}
			}
		}
	}
	if checked < 200 {
		t.Fatalf("rendered only %d messages; is the catalog read?", checked)
	}
}

// The raw argument stays in the error for callers and agents that match on it, and the key of
// its name goes with it so the UI says it again in its own language.
func TestRefusalKeepsTheRawFieldBesideItsName(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	e := a.Error(memory.CodeFieldTooLong, map[string]any{"Field": "source_quote", "Len": 900, "Max": 500})
	if e.Args["Field"] != "source_quote" || e.Args["FieldKey"] != "field.source_quote" || !strings.Contains(e.Message, "source_quote") {
		t.Fatalf("en: %+v", e)
	}
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
		t.Fatal(err)
	}
	e = a.Error(memory.CodeFieldTooLong, map[string]any{"Field": "source_quote", "Len": 900, "Max": 500})
	if e.Args["Field"] != "source_quote" || !strings.HasPrefix(e.Message, "原文引用过长") {
		t.Fatalf("zh: %+v", e)
	}
	raw := a.Error(memory.CodeLineUnknownField, map[string]any{"Field": "title"})
	if _, ok := raw.Args["FieldKey"]; ok || !strings.Contains(raw.Message, "“title”") {
		t.Fatalf("a field the person typed was renamed: %+v", raw)
	}
	// Every field a memory's limits name has its name in the catalog.
	for _, l := range memory.FieldLimits {
		if !a.deps.Catalog.Has("field." + l.Field) {
			t.Errorf("field.%s missing from the catalog", l.Field)
		}
	}
	if !a.deps.Catalog.Has("field.body") {
		t.Error("field.body missing from the catalog")
	}
}
