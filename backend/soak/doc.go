// Package soak holds process-level fault tests that drive the real engram-cli binary: a
// SIGKILL soak over CLI writes, import and `engram serve` (see killsoak_test.go). It has no
// code of its own.
package soak
