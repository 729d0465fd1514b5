package memory

import (
	"strings"
	"testing"
)

// A hand file's problem names its detail by key, so doctor and the app say it in the person's
// language (the Chinese doctor printed "10000 bytes, at most 8192" in English).
func TestProblemDetailsNamedByKey(t *testing.T) {
	e := newEnv(t)
	e.put("global/user/too-big.md", handFile("01JB0000000000000000000781", "Big", strings.Repeat("x", MaxBodyBytes+10)))
	same := handFile("01JB0000000000000000000782", "Same", "same id")
	e.put("global/user/first.md", same)
	e.reconcile()
	e.put("global/user/second.md", same)
	e.reconcile()
	big := e.problemAt("global/user/too-big.md")
	if big == nil || big.Code != ProblemHandBodyLarge || big.DetailKey != "detail.bytes_over" ||
		big.DetailArgs["Size"] != MaxBodyBytes+10 || big.DetailArgs["Max"] != MaxBodyBytes {
		t.Fatalf("too big: %+v", big)
	}
	dup := e.problemAt("global/user/second.md")
	if dup == nil || dup.Code != ProblemDuplicateID || dup.DetailKey != "detail.id_used_by" ||
		dup.DetailArgs["ID"] != "01JB0000000000000000000782" || dup.DetailArgs["Holder"] != "global/user/first.md" {
		t.Fatalf("duplicate id: %+v", dup)
	}
}
