package memory

// HeaderDisagreement is a memory file whose header names another type, slug or scope than its
// place in the folders. The place decides (a person moves a note to change its type, and the
// index follows the file), so the header's value is not used: someone who edited the header to
// change the type saw nothing happen and no word of why. Doctor names it.
type HeaderDisagreement struct {
	Path   string `json:"path"`
	Field  string `json:"field"`
	Header string `json:"header"`
	Place  string `json:"place"`
}

// headerDisagrees compares what a memory file's header says with what its path says.
func headerDisagrees(rel string, data []byte) (HeaderDisagreement, bool) {
	pi, ok := parsePath(rel)
	if !ok || pi.typ == TypeDaily {
		return HeaderDisagreement{}, false
	}
	m, err := parseHand(data, rel)
	if err != nil {
		return HeaderDisagreement{}, false
	}
	for _, f := range []struct{ field, header, place string }{
		{"type", string(m.Type), string(pi.typ)},
		{"scope", string(m.Scope), string(pi.scope)},
		{"slug", m.Slug, pi.slug},
	} {
		if f.header != "" && f.header != f.place {
			return HeaderDisagreement{Path: rel, Field: f.field, Header: f.header, Place: f.place}, true
		}
	}
	return HeaderDisagreement{}, false
}
