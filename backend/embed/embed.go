// Package embed turns text into vectors: a local embedder that needs no download and no
// network, and a client for OpenAI-compatible /embeddings endpoints (OpenAI, Ollama, LM Studio,
// vLLM…). It imports no store; where vectors are kept and searched is package vector's.
package embed

import (
	"context"
	"fmt"
	"math"
)

// Embedder turns texts into vectors of one model.
type Embedder interface {
	// Model names the model and every parameter that changes its vectors; vectors of different
	// Model strings never mix, and a change of Model has every vector computed again.
	Model() string
	// Embed returns one L2-normalised vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Error codes; each has an i18n key "error.<code>".
const (
	CodeEmbeddingFailed = "embedding_failed"
	// CodeInvalidConfig is also package vector's, for the vector-backend half of a Config.
	CodeInvalidConfig = "invalid_embedding_config"
)

// Error is a coded failure of this package.
type Error struct {
	Code string
	Args map[string]any
	Msg  string
	Err  error
}

// Error is the message, prefixed by the layer.
func (e *Error) Error() string { return "embed: " + e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode is the stable code the api translates as "error.<code>".
func (e *Error) ErrorCode() string { return e.Code }

// ErrorArgs fill the translated message's placeholders.
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func codeErr(code string, cause error, args map[string]any, format string, a ...any) *Error {
	return &Error{Code: code, Args: args, Msg: fmt.Sprintf(format, a...), Err: cause}
}

// Normalize scales v to unit length in place (a zero vector stays zero).
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// Dot is the inner product of two vectors of equal length (the cosine of unit vectors).
func Dot(a, b []float32) float32 {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// DocumentText is the text of a memory that gets embedded: its title, tags and body.
func DocumentText(title string, tags []string, body string) string {
	s := title
	for _, t := range tags {
		s += " " + t
	}
	return s + "\n" + body
}
