//go:build !desktop

package main

import (
	"fmt"
	"os"

	"engram/backend/i18n"
)

// runDesktop in a build without the desktop tags explains how to get a window.
func runDesktop(_ string, catalog *i18n.Catalog, lang string) int {
	fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.desktop_unavailable", nil))
	return 2
}
