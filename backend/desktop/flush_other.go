//go:build (desktop || bindings) && !linux

package desktop

// flushClosedWindow has nothing to do where the window system is not GTK's.
func flushClosedWindow() {}
