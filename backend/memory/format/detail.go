package format

import (
	"strconv"
	"strings"
)

// The reasons ParseFile gives, and the catalog key (detail.*) each is shown with in the
// person's language: a problem's detail is stored as the English sentence (logs, the index of
// older builds), and DetailKey reads the key back from it.
const (
	msgNotUTF8       = "file is not valid UTF-8"
	msgNoHeader      = "missing frontmatter (file must start with ---)"
	msgUnterminated  = "unterminated frontmatter (no closing ---)"
	msgBadYAML       = "invalid frontmatter: "
	msgNoID          = "frontmatter has no id"
	msgBadConfidence = "unknown confidence "
	msgNotLocation   = "not a memory location (scope/type/slug.md)"
	msgBadSlug       = "file name is not a valid slug: "
	msgBadTypeDir    = "folder is not a memory type: "
)

// BadSlug is the detail of a file in a memory folder whose name is not a slug ("x.md").
func BadSlug(name string) string { return msgBadSlug + strconv.Quote(name) }

// BadTypeFolder is the detail of a file under a folder that names no memory type.
func BadTypeFolder(name string) string { return msgBadTypeDir + strconv.Quote(name) }

// NotLocation is the detail of a file outside the memory layout (scope/type/slug.md).
const NotLocation = msgNotLocation

// DetailKey returns the catalog key and arguments of a parse problem's detail, as stored
// ("memory: " and all); "" when the detail is not one of ParseFile's reasons.
func DetailKey(detail string) (string, map[string]any) {
	d := strings.TrimPrefix(detail, "memory: ")
	switch {
	case d == msgNotUTF8:
		return "detail.not_utf8", nil
	case d == msgNoHeader:
		return "detail.no_header", nil
	case d == msgUnterminated:
		return "detail.unterminated_header", nil
	case d == msgNoID:
		return "detail.no_id", nil
	case d == msgNotLocation:
		return "detail.not_location", nil
	case strings.HasPrefix(d, msgBadSlug):
		return "detail.bad_slug", map[string]any{"Name": unquote(strings.TrimPrefix(d, msgBadSlug))}
	case strings.HasPrefix(d, msgBadTypeDir):
		return "detail.bad_type_folder", map[string]any{"Name": unquote(strings.TrimPrefix(d, msgBadTypeDir))}
	case strings.HasPrefix(d, msgBadYAML):
		reason := strings.TrimPrefix(strings.TrimPrefix(d, msgBadYAML), "yaml: ")
		if line, rest, ok := strings.Cut(reason, ": "); ok && strings.HasPrefix(line, "line ") {
			if n, err := strconv.Atoi(strings.TrimPrefix(line, "line ")); err == nil {
				// The line in the person's language; the parser's own words stay as they are.
				return "detail.bad_yaml_line", map[string]any{"Line": n, "Reason": rest}
			}
		}
		return "detail.bad_yaml", map[string]any{"Reason": reason}
	case strings.HasPrefix(d, msgBadConfidence):
		v := strings.TrimPrefix(d, msgBadConfidence)
		if u, err := strconv.Unquote(v); err == nil {
			v = u
		}
		return "detail.bad_confidence", map[string]any{"Value": v}
	}
	return "", nil
}

func unquote(v string) string {
	if u, err := strconv.Unquote(v); err == nil {
		return u
	}
	return v
}
