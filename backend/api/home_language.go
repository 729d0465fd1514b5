package api

import (
	"context"

	"engram/backend/memory"
	"engram/backend/settings"
)

// HomeLanguage is the language chosen in home's settings, read without opening the home: the
// CLI's help, a verb's flags (-h) and "Unknown command" are said in it, where before they
// followed only ENGRAM_LANG/LANG while every other message of a Chinese home was Chinese.
// fallback (the environment's) when the home has no index yet, or its settings cannot be read.
func HomeLanguage(ctx context.Context, home, fallback string) string {
	if home == "" {
		return fallback
	}
	rows, err := memory.PeekSettings(home)
	if err != nil {
		return fallback
	}
	defer rows.Close()
	st, err := settings.New(rows, fallback).Get(ctx)
	if err != nil || st.Language == "" {
		return fallback
	}
	return st.Language
}
