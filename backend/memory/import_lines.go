package memory

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"engram/backend/coded"
)

// Codes of an import line that is not a record Engram reads. They replace parse_error with
// Go's own English ("invalid character 'o' in literal null") under "the file could not be
// read", which named the file for a fault of one line and read the same in Chinese.
const (
	CodeLineNotJSON      = "line_not_json"
	CodeLineUnknownField = "line_unknown_field"
	CodeLineFieldType    = "line_field_type"
	CodeLineNotObject    = "line_not_object"
	// CodeLineNotUTF8 is a line with bytes that are no UTF-8 text (args Offset, from 1): the
	// decoder would have imported them as U+FFFD without a word.
	CodeLineNotUTF8 = "line_not_utf8"
	// CodeImportBadID is an id that is no ULID (args ID): it said "the file could not be
	// read: id", naming neither the fault nor the form an id takes.
	CodeImportBadID = "import_bad_id"
)

// lineJSONError classifies why one import line did not decode into a record.
func lineJSONError(err error, line string) (code string, args map[string]any) {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return CodeLineNotJSON, map[string]any{"Offset": syn.Offset}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return CodeLineNotJSON, map[string]any{"Offset": len(line)}
	case errors.As(err, &typ) && typ.Field == "":
		return CodeLineNotObject, nil
	case errors.As(err, &typ):
		return CodeLineFieldType, map[string]any{"Field": typ.Field, "Want": coded.JSONKind(typ.Type)}
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return CodeLineUnknownField, map[string]any{"Field": strings.Trim(f, `"`)}
	}
	return CodeParseError, map[string]any{"Detail": err.Error()}
}
