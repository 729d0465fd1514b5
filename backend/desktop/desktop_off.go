//go:build !desktop && !bindings

package desktop

import "errors"

// Available reports whether this build can open a window.
const Available = false

// ErrUnavailable is returned by Run in builds without the desktop tags.
var ErrUnavailable = errors.New("desktop: this build has no window")

// Run explains that this build has no window.
func Run(Options) error { return ErrUnavailable }
