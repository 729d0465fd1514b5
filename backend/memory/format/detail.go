package format

// The reasons ParseFile gives: the English (ParseError.Msg, for logs) and the catalog key
// (detail.*) with its arguments (ParseError.Key, Args) each is shown with in the person's
// language. A problem keeps the key and arguments as they were made here; nothing reads them
// back from the English.
const (
	msgNotUTF8       = "file is not valid UTF-8"
	msgNoHeader      = "missing frontmatter (file must start with ---)"
	msgUnterminated  = "unterminated frontmatter (no closing ---)"
	msgBadYAML       = "invalid frontmatter: "
	msgNoID          = "frontmatter has no id"
	msgBadConfidence = "unknown confidence "
)

var (
	errNotUTF8      = ParseError{Msg: msgNotUTF8, Key: "detail.not_utf8"}
	errNoHeader     = ParseError{Msg: msgNoHeader, Key: "detail.no_header"}
	errUnterminated = ParseError{Msg: msgUnterminated, Key: "detail.unterminated_header"}
	errNoID         = ParseError{Msg: msgNoID, Key: "detail.no_id"}
)

// parseErr is a fresh copy of one of the reasons above (a caller may keep or change it).
func parseErr(e ParseError) *ParseError { return &e }
