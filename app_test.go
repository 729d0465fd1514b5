package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
)

func testCatalog(t *testing.T) *i18n.Catalog {
	t.Helper()
	locales, _ := fs.Sub(localeFiles, "locales")
	cat, err := i18n.Load(locales)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// The desktop window's App: its api exists before the store, a call made at once waits for
// the store and succeeds, and Stop closes what opened.
func TestStartPendingOpens(t *testing.T) {
	app := NewApp(t.TempDir(), testCatalog(t), "en", "test", nil)
	app.StartPending(context.Background())
	if app.API == nil {
		t.Fatal("StartPending returned without an api to bind")
	}
	st, err := app.API.Settings.Get(api.Empty{})
	if err != nil || st.Language != "en" {
		t.Fatalf("settings.get before the store was known open: %+v, %v", st, err)
	}
	if err := app.Opened(); err != nil {
		t.Fatal(err)
	}
	if app.Events == nil || app.Settings == nil {
		t.Fatal("opened without its services")
	}
	if err := app.Stop(); err != nil {
		t.Fatal(err)
	}
}

// A store that cannot open (its folder is a file): Opened answers the store's error, every
// call answers it translated, and Stop has nothing to close.
func TestStartPendingFails(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "memory"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	app := NewApp(home, testCatalog(t), "zh-CN", "test", nil)
	app.StartPending(context.Background())
	_, callErr := app.API.Memory.List(api.ListParams{})
	openErr := app.Opened()
	if openErr == nil || !strings.Contains(openErr.Error(), "unable to create") {
		t.Fatalf("Opened: want the store's error, got %v", openErr)
	}
	var ae *api.Error
	if !errors.As(callErr, &ae) || !strings.Contains(ae.Message, openErr.Error()) || ae.I18nKey != "error.internal" {
		t.Fatalf("memory.list: want the open error translated, got %v", callErr)
	}
	if err := app.Stop(); err != nil {
		t.Fatal(err)
	}
}
