package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"unicode"

	"engram/backend/api"
)

// decodePayload decodes an agent's hook payload into v (a pointer to the payload struct), or
// says in words why it is not the JSON the agent sends: the catalog key of the reason and its
// placeholders; key is "" when it decoded. Fields the agent adds later are ignored.
func decodePayload(data []byte, v any) (key string, args map[string]any) {
	return decodeObject(data, v, false)
}

// decodeObject decodes one JSON object into v, or names what is wrong with it in words: the
// field as the JSON spells it and what it must hold, never Go's types ("cannot unmarshal
// number into Go struct field Payload.session_id of type string", "Go value of type
// api.ExtractionRequestParams"). strict refuses fields v does not have and a second value
// (`engram extract`'s file: a typo there would be lost silently).
func decodeObject(data []byte, v any, strict bool) (key string, args map[string]any) {
	if len(bytes.TrimSpace(data)) == 0 {
		return "cli.hook.payload_empty", nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil && dec.More():
		return "cli.extract_more_values", nil
	case err == nil:
		if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
			return "cli.hook.payload_not_json", map[string]any{"Offset": dec.InputOffset() + 1}
		}
		return "", nil
	case errors.As(err, &syn):
		return "cli.hook.payload_not_json", map[string]any{"Offset": syn.Offset}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "cli.hook.payload_not_json", map[string]any{"Offset": len(data)}
	case errors.As(err, &typ) && typ.Field == "":
		return "cli.hook.payload_not_object", nil
	case errors.As(err, &typ):
		field := jsonPath(typ.Field)
		return fieldWants(reflect.TypeOf(v), field, typ.Type), map[string]any{"Field": field}
	case strings.HasPrefix(err.Error(), `json: unknown field "`):
		// encoding/json has no type for this one: its text is the only way to tell.
		name := strings.TrimSuffix(strings.TrimPrefix(err.Error(), `json: unknown field "`), `"`)
		return "cli.extract_unknown_field", map[string]any{"Field": name}
	}
	return "cli.hook.payload_not_json", map[string]any{"Offset": dec.InputOffset()}
}

// jsonPath is a type error's field path as the JSON spells it: encoding/json puts the Go name
// of an embedded struct in it (ExtractionRequestParams's "Request.messages.content"); JSON
// names here all start lowercase, Go's embedded names uppercase.
func jsonPath(goPath string) string {
	var kept []string
	for _, seg := range strings.Split(goPath, ".") {
		if r := []rune(seg); len(r) > 0 && !unicode.IsUpper(r[0]) {
			kept = append(kept, seg)
		}
	}
	if len(kept) == 0 {
		return goPath
	}
	return strings.Join(kept, ".")
}

// fieldWants is the key that says what field must hold: the field's own type, looked up by
// its JSON name through embedded structs (for a list's bad element Go reports the element's
// type: "input-messages" must be a list of texts, not "text"); got is Go's type otherwise.
func fieldWants(t reflect.Type, field string, got reflect.Type) string {
	want := got
	if f, ok := jsonField(t, field); ok {
		want = f
	}
	switch api.JSONKind(want) {
	case "string":
		return "cli.hook.field_text"
	case "true/false":
		return "cli.hook.field_bool"
	case "number":
		return "cli.hook.field_number"
	case "list":
		for want.Kind() == reflect.Pointer {
			want = want.Elem()
		}
		if want.Elem().Kind() == reflect.String {
			return "cli.hook.field_texts"
		}
		return "cli.hook.field_list"
	case "object":
		return "cli.hook.field_object"
	}
	return "cli.hook.field_type"
}

// jsonField finds the type of the top-level field named name (JSON) in t, through embedded
// structs; nested paths ("messages.content") are left to the type Go reported.
func jsonField(t reflect.Type, name string) (reflect.Type, bool) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct || strings.Contains(name, ".") {
		return nil, false
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			if ft, ok := jsonField(f.Type, name); ok {
				return ft, true
			}
			continue
		}
		if tag == name || tag == "" && f.Name == name {
			return f.Type, true
		}
	}
	return nil, false
}
