package coded_test

import (
	"errors"
	"fmt"
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
