package coded_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"engram/backend/coded"
)

type inner struct{}

func (inner) Error() string             { return "inner" }
func (inner) ErrorCode() string         { return "inner_code" }
func (inner) ErrorArgs() map[string]any { return map[string]any{"A": 1} }

type outer struct{ err error }

func (o outer) Error() string           { return "outer: " + o.err.Error() }
func (o outer) Unwrap() error           { return o.err }
func (outer) ErrorCode() string         { return "outer_code" }
func (outer) ErrorArgs() map[string]any { return nil }

func TestAsFindsTheOutermostCodedError(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		code string
	}{
		{"plain", errors.New("boom"), ""},
		{"direct", inner{}, "inner_code"},
		{"wrapped by fmt", fmt.Errorf("ctx: %w", inner{}), "inner_code"},
		{"coded wrapping coded", fmt.Errorf("ctx: %w", outer{err: inner{}}), "outer_code"},
	} {
		got := ""
		if c, ok := coded.As(tc.err); ok {
			got = c.ErrorCode()
		}
		if got != tc.code {
			t.Errorf("%s: code %q, want %q", tc.name, got, tc.code)
		}
	}
}

// File-system failures people meet get a reason key; others keep their text only.
func TestReasonNamesFileSystemFailures(t *testing.T) {
	_, missing := os.Open(filepath.Join(t.TempDir(), "nope"))
	_, notDir := os.Open(filepath.Join(os.Args[0], "child"))
	pe := func(e error) error { return fmt.Errorf("backup: %w", &fs.PathError{Op: "open", Path: "/x", Err: e}) }
	for _, tc := range []struct {
		err error
		key string
	}{
		{missing, "detail.no_such_path"},
		{notDir, "detail.not_a_folder"},
		{pe(syscall.EACCES), "detail.permission_denied"},
		{pe(syscall.ENOSPC), "detail.disk_full"},
		{pe(syscall.EROFS), "detail.read_only_fs"},
		{pe(syscall.EISDIR), "detail.is_a_folder"},
		{errors.New("zip: not a valid zip file"), ""},
	} {
		args := coded.Reason(map[string]any{"Path": "/x"}, tc.err)
		if args["Detail"] != tc.err.Error() || args["Path"] != "/x" {
			t.Errorf("%v: args %v", tc.err, args)
		}
		if got, _ := args["DetailKey"].(string); got != tc.key {
			t.Errorf("%v: key %q, want %q", tc.err, got, tc.key)
		}
	}
	if args := coded.Reason(nil, nil); len(args) != 0 {
		t.Errorf("no error: %v", args)
	}
}
