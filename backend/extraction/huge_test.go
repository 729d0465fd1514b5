package extraction

import (
	"runtime"
	"strings"
	"testing"
)

// A pasted log of megabytes in the person's message: the gates counted its every grapheme
// (twice per request, seconds a megabyte), the window made it a rune slice (four bytes a
// character) to keep 2,000 of them, and the candidate search split all of it into words — a
// 40 MB message took 164 s and 1 GB in `engram extract`. Each reads only what it needs now:
// what they allocate stays far below the message's own size.
func TestHugeMessageIsReadOnlyAsFarAsNeeded(t *testing.T) {
	huge := "Remember that I prefer kebab-case. " + strings.Repeat("log line with words 12ms\n", 8<<20/25) + "Thanks."
	set := DefaultSettings()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	reason := contentGate(set, gateInput{Text: huge})
	w := cut(huge, ContextMessageChars)
	terms := candidateTerms(cutText(huge, ContextMessageChars))
	runtime.ReadMemStats(&after)
	if reason != "" || !strings.HasPrefix(w, "Remember that I prefer kebab-case.") || !strings.HasSuffix(w, "Thanks.") || len(terms) == 0 {
		t.Fatalf("gate %q, window %d bytes, terms %v", reason, len(w), terms)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Fatalf("reading an %d-byte message allocated %d bytes", len(huge), got)
	}
}
