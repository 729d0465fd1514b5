// Package vector keeps and searches the vectors of memories: the in-process index over the
// memory_vec table, a client for an external vector store over HTTP, and the background
// indexer that keeps vectors in step with the memories. The embedders themselves are package
// embed's.
package vector

import (
	"context"
	"errors"
	"fmt"

	"engram/backend/embed"
	"engram/backend/memory"
)

// Match is one nearest neighbour. A backend's answer is a list of candidates only: recall
// loads each from the index and applies its own filter again, whatever the backend said.
type Match struct {
	ID string `json:"id"`
	// RID is the index row id when the searcher is the local index (0 otherwise).
	RID   int64   `json:"-"`
	Score float64 `json:"score"`
}

// Searcher finds the memories nearest to a query vector among those f lets through.
type Searcher interface {
	Search(ctx context.Context, vec []float32, limit int, f memory.Filter) ([]Match, error)
}

// CodeVectorBackend is the code of a vector backend's transport failure; its i18n key is
// "error.vector_backend_failed". A bad backend setting is embed.CodeInvalidConfig.
const CodeVectorBackend = "vector_backend_failed"

// Error is a coded failure of this package.
type Error struct {
	Code string
	Args map[string]any
	Msg  string
	Err  error
}

// Error is the message, prefixed by the layer.
func (e *Error) Error() string { return "vector: " + e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode is the stable code the api translates as "error.<code>".
func (e *Error) ErrorCode() string { return e.Code }

// ErrorArgs fill the translated message's placeholders.
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func codeErr(code string, cause error, args map[string]any, format string, a ...any) *Error {
	return &Error{Code: code, Args: args, Msg: fmt.Sprintf(format, a...), Err: cause}
}

// IsBackendError reports whether err is a transport failure of a vector backend or of an
// embedding provider.
func IsBackendError(err error) bool {
	var ve *Error
	if errors.As(err, &ve) && ve.Code == CodeVectorBackend {
		return true
	}
	var ee *embed.Error
	return errors.As(err, &ee) && ee.Code == embed.CodeEmbeddingFailed
}
