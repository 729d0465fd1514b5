package memory

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

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
	// CodeLineBadTime is a "created" or "updated" that is no RFC 3339 time (args Field,
	// Value): the line was refused with Go's parser in English ("parsing time "2024-07-20"
	// as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"") under "the file could not
	// be read", which named neither the field nor the form a time takes, in either language.
	CodeLineBadTime = "line_bad_time"
	// CodeImportNoProject is a project line that names neither a folder nor a project key
	// (and no --workdir was given): "the project folder “” must be an absolute path" did not
	// say what was missing or that --workdir places such lines.
	CodeImportNoProject = "import_no_project"
)

// recordTimeFields are the Record fields that hold a time.
var recordTimeFields = []string{"created", "updated"}

// lineJSONError classifies why one import line did not decode into a record.
func lineJSONError(err error, line string) (code string, args map[string]any) {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tpe *time.ParseError
	switch {
	case errors.As(err, &syn):
		return CodeLineNotJSON, map[string]any{"Offset": syn.Offset}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return CodeLineNotJSON, map[string]any{"Offset": len(line)}
	case errors.As(err, &typ) && typ.Field == "":
		return CodeLineNotObject, nil
	case errors.As(err, &typ):
		return CodeLineFieldType, map[string]any{"Field": typ.Field, "Want": coded.JSONKind(typ.Type)}
	case errors.As(err, &tpe):
		return CodeLineBadTime, badTimeField(line, tpe.Value)
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return CodeLineUnknownField, map[string]any{"Field": strings.Trim(f, `"`)}
	}
	return CodeParseError, map[string]any{"Detail": err.Error()}
}

// badTimeField names the time field of line that does not parse (time.ParseError does not
// say which one), with its value as written.
func badTimeField(line, value string) map[string]any {
	var fields map[string]json.RawMessage
	_ = json.Unmarshal([]byte(line), &fields)
	for _, f := range recordTimeFields {
		var t time.Time
		if raw, ok := fields[f]; ok && json.Unmarshal(raw, &t) != nil {
			var v string
			if json.Unmarshal(raw, &v) == nil {
				value = v
			}
			return map[string]any{"Field": f, "Value": clip(value, 80)}
		}
	}
	return map[string]any{"Field": recordTimeFields[0], "Value": clip(value, 80)}
}
