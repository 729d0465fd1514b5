//go:build (desktop || bindings) && linux

package desktop

// #cgo pkg-config: gtk+-3.0
// #include <gtk/gtk.h>
// static void engramFlushDisplay(void) {
//   GdkDisplay *d = gdk_display_get_default();
//   if (d != NULL) gdk_display_flush(d);
// }
import "C"

// flushClosedWindow sends the closed window's destruction on to the display server. Wails
// destroys the window once its main loop has stopped, and nothing sends that request then:
// the window stayed on screen, frozen, for as long as the process still ran (a store still
// opening, its close). Called on the thread that ran wails.Run (GTK's).
func flushClosedWindow() { C.engramFlushDisplay() }
