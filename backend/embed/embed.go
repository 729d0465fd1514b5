// Package embed turns memory text into vectors and keeps them: a local embedder that needs no
// download and no network, a client for OpenAI-compatible /embeddings endpoints (OpenAI,
// Ollama, LM Studio, vLLM…), the in-process vector index over the memory_vec table, a client
// for an external vector store over HTTP, and the background indexer that keeps vectors in step
// with the memories.
package embed

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"engram/backend/memory"
)

// Embedder turns texts into vectors of one model.
type Embedder interface {
	// Model names the model and every parameter that changes its vectors; vectors of different
	// Model strings never mix, and a change of Model has every vector computed again.
	Model() string
	// Embed returns one L2-normalised vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

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

// Error codes; each has an i18n key "error.<code>".
const (
	CodeEmbeddingFailed = "embedding_failed"
	CodeVectorBackend   = "vector_backend_failed"
	CodeInvalidConfig   = "invalid_embedding_config"
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

// IsBackendError reports whether err is a transport failure of a vector backend or provider.
func IsBackendError(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Code == CodeVectorBackend || e.Code == CodeEmbeddingFailed)
}

// EncodeVec packs a vector as little-endian float32, the memory_vec.vec format.
func EncodeVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// DecodeVec unpacks a memory_vec.vec blob into dst (grown as needed) and returns it.
func DecodeVec(b []byte, dst []float32) []float32 {
	n := len(b) / 4
	if cap(dst) < n {
		dst = make([]float32, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return dst
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
