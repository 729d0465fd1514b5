package api

import (
	"errors"
	"testing"

	"engram/backend/memory"
)

// TestWriteWithoutSlugTakesItFromTheTitle writes memories with no slug: an English title
// gives its words, a Chinese one its characters, the same title again is reported
// as taken (never a second memory under another slug), and no title and no slug is a missing
// title.
func TestWriteWithoutSlugTakesItFromTheTitle(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	write := func(title string) (ItemResult, error) {
		return a.Memory.Write(WriteParams{Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: title, Body: "Body of " + title})
	}
	res, err := write("Prefers green tea!")
	if err != nil || res.Slug != "prefers-green-tea" {
		t.Fatalf("English title: slug %q, err %v", res.Slug, err)
	}
	zh, err := write("猫")
	if err != nil || zh.Slug != "猫" || !memory.ValidSlug(zh.Slug) {
		t.Fatalf("Chinese title: slug %q, err %v", zh.Slug, err)
	}
	again, err := write("猫")
	var e *Error
	if !errors.As(err, &e) || e.Code != memory.CodeAlreadyExists {
		t.Fatalf("the same title again: %+v, %v; want %s", again, err, memory.CodeAlreadyExists)
	}
	if _, err := write("  "); !errors.As(err, &e) || e.Code != memory.CodeMissingTitle {
		t.Fatalf("no title, no slug: %v; want %s", err, memory.CodeMissingTitle)
	}
	if m, err := a.deps.Store.GetBySlug(a.ctx, memory.ScopeGlobal, "", "", zh.Slug); err != nil || m.Title != "猫" {
		t.Fatalf("the Chinese memory: %+v, %v", m, err)
	}
}
