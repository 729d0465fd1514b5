package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"syscall"

	"engram/backend/coded"
)

// fault is why a file cannot be used (a memory file the index cannot take, an agent's
// kv.json): the English words (logs, the problems table's detail, callers without a catalog)
// and the catalog key (detail.*) with its arguments, made together where the reason is found,
// so the person reads it in their language and nothing parses the English back.
type fault struct {
	text string
	key  string
	args map[string]any
}

func newFault(key string, args map[string]any, format string, a ...any) fault {
	return fault{text: fmt.Sprintf(format, a...), key: key, args: args}
}

// faultOf is the fault of a coded error: its words, and the DetailKey and arguments it
// carries (a parse error carries the parser's, format.ParseError). Path, Detail and DetailKey
// are the error's own, not the reason's.
func faultOf(err error) fault {
	f := fault{text: err.Error()}
	var e *Error
	if !errors.As(err, &e) {
		return f
	}
	if k, _ := e.Args["DetailKey"].(string); k != "" {
		f.key, f.args = k, map[string]any{}
		for name, v := range e.Args {
			if name != "Path" && name != "Detail" && name != "DetailKey" {
				f.args[name] = v
			}
		}
	}
	return f
}

// detailFault is the fault a coded error names: its Detail (English, as kvInvalid puts it)
// when it has one, else its words, with the DetailKey and arguments it carries.
func detailFault(err error) fault {
	f := faultOf(err)
	var e *Error
	if errors.As(err, &e) {
		if d, ok := e.Args["Detail"].(string); ok && d != "" {
			f.text = d
		}
	}
	return f
}

// readFault is a file that cannot be read at all (a link in its place, no permission).
func readFault(err error) fault {
	key, _ := coded.Reason(nil, err)["DetailKey"].(string)
	if errors.Is(err, syscall.ELOOP) {
		key = "detail.not_regular_file"
	}
	return fault{text: err.Error(), key: key}
}

// encodeArgs is a fault's arguments as the problems table keeps them ("" for none).
func encodeArgs(args map[string]any) string {
	if len(args) == 0 {
		return ""
	}
	b, err := json.Marshal(args)
	if err != nil {
		return ""
	}
	return string(b)
}

// decodeArgs reads encodeArgs back; whole numbers come back as int, as they were made (a
// template or a caller comparing Line with 3 sees no float).
func decodeArgs(s string) map[string]any {
	if s == "" {
		return nil
	}
	var args map[string]any
	if json.Unmarshal([]byte(s), &args) != nil {
		return nil
	}
	for k, v := range args {
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			args[k] = int(f)
		}
	}
	return args
}
