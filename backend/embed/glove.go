package embed

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"engram/backend/text"
)

// Glove mixes the local hashed features with a word-vector average (GloVe, SIF-weighted):
// the hashed half keeps exact-word matching, the dense half relates words that never occur
// together in one text (camping ~ campfire).
type Glove struct {
	local *Local
	words map[string]int32 // word → row
	rows  []int8           // dim per row
	scale []float32
	rank  []int32
	dim   int
	mix   float64 // share of the dense half in the cosine (0..1)
	sifA  float64
	mean  []float32
}

// LoadGlove reads a GLV1 table (gzip'd or not).
func LoadGlove(data []byte, mix, sifA float64) (*Glove, error) {
	if len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, err
		}
	}
	if len(data) < 12 || string(data[:4]) != "GLV1" {
		return nil, errors.New("embed: not a GLV1 table")
	}
	n := int(binary.LittleEndian.Uint32(data[4:]))
	dim := int(binary.LittleEndian.Uint32(data[8:]))
	g := &Glove{local: NewLocal(0), words: make(map[string]int32, n), rows: make([]int8, 0, n*dim),
		scale: make([]float32, 0, n), rank: make([]int32, 0, n), dim: dim, mix: mix, sifA: sifA}
	p := 12
	for i := 0; i < n; i++ {
		if p+5 > len(data) {
			return nil, errors.New("embed: short GLV1 table")
		}
		l := int(data[p])
		r := int32(binary.LittleEndian.Uint32(data[p+1:]))
		p += 5
		w := string(data[p : p+l])
		p += l
		s := math.Float32frombits(binary.LittleEndian.Uint32(data[p:]))
		p += 4
		for j := 0; j < dim; j++ {
			g.rows = append(g.rows, int8(data[p+j]))
		}
		p += dim
		g.words[w] = int32(i)
		g.scale = append(g.scale, s)
		g.rank = append(g.rank, r)
	}
	// The common direction every average shares (frequent words dominate it): removing it
	// makes cosines between averages say topic, not "is English".
	g.mean = make([]float32, dim)
	for i := 0; i < n && i < 20000; i++ {
		w := float32(g.weight(i))
		for j := 0; j < dim; j++ {
			g.mean[j] += w * g.scale[i] * float32(g.rows[i*dim+j])
		}
	}
	Normalize(g.mean)
	return g, nil
}

// weight is SIF's a/(a+p(w)) with p(w) from the word's frequency rank (Zipf).
func (g *Glove) weight(i int) float64 {
	p := 0.1 / float64(g.rank[i]+10)
	return g.sifA / (g.sifA + p)
}

// Model names the recipe.
func (g *Glove) Model() string { return fmt.Sprintf("local-glove-v0/%d+%d/%.2f", g.local.dim, g.dim, g.mix) }

// Embed computes the vectors.
func (g *Glove) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = g.Vector(t)
	}
	return out, nil
}

// Dense is the SIF average alone (unit length; zero when no word is known).
func (g *Glove) Dense(s string) []float32 {
	v := make([]float32, g.dim)
	for _, t := range text.Split(s) {
		if t.CJK || text.IsStop(t.Text) {
			continue
		}
		i, ok := g.words[t.Text]
		if !ok {
			continue
		}
		w := float32(g.weight(int(i))) * g.scale[i]
		row := g.rows[int(i)*g.dim : int(i+1)*g.dim]
		for j, x := range row {
			v[j] += w * float32(x)
		}
	}
	var d float32
	for j := range v {
		d += v[j] * g.mean[j]
	}
	for j := range v {
		v[j] -= d * g.mean[j]
	}
	Normalize(v)
	return v
}

// Vector is [sqrt(1-mix)·hashed ; sqrt(mix)·dense].
func (g *Glove) Vector(s string) []float32 {
	h := g.local.Vector(s)
	d := g.Dense(s)
	a, b := float32(math.Sqrt(1-g.mix)), float32(math.Sqrt(g.mix))
	out := make([]float32, 0, len(h)+len(d))
	for _, x := range h {
		out = append(out, a*x)
	}
	for _, x := range d {
		out = append(out, b*x)
	}
	Normalize(out)
	return out
}
