package coded

import "reflect"

// JSON kinds a person writing a file or a payload knows a value by, as JSONKind names them.
const (
	KindString = "string"
	KindBool   = "true/false"
	KindNumber = "number"
	KindList   = "list"
	KindObject = "object"
	KindValue  = "value"
)

// JSONKind names the JSON value a Go type takes (a time is written as a string): errors about
// a field of the wrong type say "must be a number", never Go's "Go struct field … of type int".
func JSONKind(t reflect.Type) string {
	if t == nil {
		return KindValue
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return KindString
	case reflect.Bool:
		return KindBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return KindNumber
	case reflect.Slice, reflect.Array:
		return KindList
	}
	if t.Name() == "Time" {
		return KindString
	}
	return KindObject
}
