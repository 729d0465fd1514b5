package memory

import "testing"

func TestBodyHolds(t *testing.T) {
	for _, tc := range []struct {
		body, add string
		want      bool
	}{
		{"Works at Google.", "Go", false},
		{"Works at Google.", "Google", true},
		{"Works at Google.\n\nLikes tea.", "Likes tea.", true},
		{"Uses Go 1.26 daily.", "Go", true},
		{"go-git is vendored", "git", true},
		{"Prefers green tea", "tea", true},
		{"Prefers green teapots", "tea", false},
		{"喜欢喝乌龙茶", "乌龙茶", true},
		{"port 80801", "8080", false},
		{"", "x", false},
		{"anything", "", true},
	} {
		if got := BodyHolds(tc.body, tc.add); got != tc.want {
			t.Errorf("BodyHolds(%q, %q) = %v", tc.body, tc.add, got)
		}
	}
	// A merge update appends a word another word only contains.
	e := newEnv(t)
	r := e.ok(wr("works-at", "Works at", "Works at Google."))
	e.ok(Item{Op: OpUpdate, ID: r.ID, Body: sp("Go")})
	if got := e.get(r.ID).Body; got != "Works at Google.\n\nGo" {
		t.Fatalf("merged body %q", got)
	}
}
