// Package coded is the one shape of a user-visible failure. Every package's coded error
// (memory, organizer, recall, embed, settings) offers its stable code and the arguments of its
// translated message through Error, and api translates any error by it; the packages satisfy
// the interface by their methods alone. It imports nothing, so anything may use it.
package coded

import "errors"

// Error is a failure with a stable code (translated as "error.<code>") and the arguments that
// fill the translated message's placeholders.
type Error interface {
	error
	ErrorCode() string
	ErrorArgs() map[string]any
}

// As returns the outermost coded error in err's chain.
func As(err error) (Error, bool) {
	var c Error
	if errors.As(err, &c) {
		return c, true
	}
	return nil, false
}
