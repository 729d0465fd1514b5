// Package faults is the fault-injection suite of issue 15 (item 5): processes SIGKILLed while
// they write, import, apply an organizer report, reindex and back up; a full disk; a read-only
// home; the index deleted or corrupted under a running process. Every scenario ends by checking
// that each acknowledged write is on disk, parses, and that the index agrees with the files.
//
// The children are this package's test binary re-executed in a role (see TestMain), running
// the same services the engram binary builds (backend/wire), so a scenario is one row of the
// kills table (kill_test.go). It has no code of its own. ENGRAM_FAULTS_ROUNDS raises the kills
// per scenario for a longer soak (`make fuzz` style); `make test` runs the default.
package faults
