package format

import (
	"errors"
	"testing"

	"gopkg.in/yaml.v3"
)

// Every reason ParseFile gives carries its catalog key and arguments, made where the reason
// is found (nothing reads them back from the English).
func TestParseErrorsCarryTheirKey(t *testing.T) {
	for _, tc := range []struct {
		data string
		key  string
		arg  string
		val  any
	}{
		{"---\nid: x\n---\nbad \xff\n", "detail.not_utf8", "", nil},
		{"plain", "detail.no_header", "", nil},
		{"---\nid: x\ntitle: open\n", "detail.unterminated_header", "", nil},
		{"---\nid: [unclosed\n---\nb\n", "detail.yaml_unclosed_list", "Line", 2},
		{"---\ntitle: t\n---\nb\n", "detail.no_id", "", nil},
		{"---\nid: x\nconfidence: sure\n---\nb\n", "detail.bad_confidence", "Value", "sure"},
	} {
		_, _, err := ParseFile([]byte(tc.data))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("%q: %v, want a *ParseError", tc.data, err)
		}
		if pe.Key != tc.key || (tc.arg != "" && pe.Args[tc.arg] != tc.val) {
			t.Errorf("%q: %q gives %q %v, want %q with %s %v", tc.data, pe.Msg, pe.Key, pe.Args, tc.key, tc.arg, tc.val)
		}
	}
}

// One reading of the YAML parser's errors, for a memory file and an imported one alike, with
// the file's line: a repeated field and a value of the wrong kind (the parser's "unmarshal
// errors:\n line N: …") said the parser's line, one above the file's, on the importer's path.
func TestYAMLErrorNamesCauseAndFileLine(t *testing.T) {
	type anyMap = map[string]any
	for _, tc := range []struct {
		name, head string
		into       func() any
		key        string
		args       anyMap
	}{
		{"unclosed list", "tags: [a, b\n", func() any { return &anyMap{} }, "detail.yaml_unclosed_list", anyMap{"Line": 2}},
		{"repeated field", "title: a\ntitle: b\n", func() any { return &anyMap{} }, "detail.yaml_repeated_field", anyMap{"Line": 3, "Field": "title"}},
		{"repeated field in a header", "title: a\ntitle: b\n", func() any { return &Header{} }, "detail.yaml_repeated_field", anyMap{"Line": 3, "Field": "title"}},
		{"header that is a list", "- a\n- b\n", func() any { return &anyMap{} }, "detail.yaml_wrong_kind", anyMap{"Line": 2}},
		{"list for a title", "id: x\ntitle: [a, b]\n", func() any { return &Header{} }, "detail.yaml_wrong_kind", anyMap{"Line": 3}},
		{"template placeholder", "title: Day\ndate: {{date}}\n", func() any { return &anyMap{} }, "detail.bad_yaml_template", anyMap{"Line": 3, "Text": "date: {{date}}"}},
		{"template as a title", "id: x\ntitle: {{title}}\n", func() any { return &Header{} }, "detail.bad_yaml_template", anyMap{"Line": 3}},
		{"a map for a title is no template", "id: x\ntitle: {a: b}\n", func() any { return &Header{} }, "detail.yaml_wrong_kind", anyMap{"Line": 3}},
		{"bad date", "id: x\ncreated: last tuesday\n", func() any { return &Header{} }, "detail.yaml_bad_time", anyMap{"Value": "last tuesday"}},
		// A fault on the header's first line: the parser names no line ("line 0" left out),
		// so it read "not valid YAML" with neither line nor cause.
		{"colon on the first line", "title: Note: with colon\n", func() any { return &anyMap{} }, "detail.yaml_colon_in_value", anyMap{"Line": 2}},
		{"open quote on the first line", "title: 'unclosed single", func() any { return &anyMap{} }, "detail.yaml_unclosed_quote", anyMap{"Line": 2}},
		{"tab on the first line", "\ttitle: Leading tab\n", func() any { return &anyMap{} }, "detail.yaml_tab", anyMap{"Line": 2}},
		// A tab indenting a list item is no reserved character.
		{"tab before a list item", "title: Tabs\ntags:\n\t- a\n", func() any { return &anyMap{} }, "detail.yaml_tab", anyMap{"Line": 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := yaml.Unmarshal([]byte(tc.head), tc.into())
			if err == nil {
				t.Fatalf("%q parsed", tc.head)
			}
			pe := YAMLError([]byte(tc.head), err, 1)
			if pe.Key != tc.key || pe.Args["Reason"] == "" {
				t.Fatalf("%v: %s %v, want %s", err, pe.Key, pe.Args, tc.key)
			}
			for k, v := range tc.args {
				if pe.Args[k] != v {
					t.Fatalf("%v: %s = %v, want %v (%v)", err, k, pe.Args[k], v, pe.Args)
				}
			}
		})
	}
}
