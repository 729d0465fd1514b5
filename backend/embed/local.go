package embed

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"

	"engram/backend/text"
)

// DefaultLocalDim is the width of the local embedder's vectors.
const DefaultLocalDim = 256

// Local is the default embedder: it needs no model file and no network. A text becomes a bag
// of features — Porter-stemmed words, character 3- and 4-grams of each word (which tolerate
// typos, compounds and inflections the stemmer misses), for CJK text single characters and
// bigrams, and the everyday concepts a word belongs to (dog → pets, 猫 → pets: see
// text.ConceptOf), which lets a question about a category meet a memory naming a member — each
// hashed with a sign into Dim buckets, weighted by 1+log(tf), and the vector is
// L2-normalised. Stop words of both languages are left out, so what remains is topic. The
// same text always gives the same vector, whatever else is stored.
type Local struct {
	dim int
}

// NewLocal returns a local embedder of dim dimensions (DefaultLocalDim when dim <= 0).
func NewLocal(dim int) *Local {
	if dim <= 0 {
		dim = DefaultLocalDim
	}
	return &Local{dim: dim}
}

// Model names the feature recipe and width; bump the version when the recipe changes.
func (l *Local) Model() string { return fmt.Sprintf("local-hash-v2/%d", l.dim) }

// Dim is the vector width.
func (l *Local) Dim() int { return l.dim }

// Embed computes the vectors; it never fails except on a cancelled context.
func (l *Local) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = l.Vector(t)
	}
	return out, nil
}

// Feature weights: whole words carry the topic; character grams only nudge.
const (
	wWord    = 1.0
	wGram    = 0.25
	wCJKBi   = 1.0
	wCJKChar = 0.35
	wConcept = 0.5
)

// cjkConcepts finds concept words inside a CJK chunk (which has no word boundaries): every
// substring of two to four characters is looked up.
func cjkConcepts(chunk string) []string {
	rs := []rune(chunk)
	var out []string
	for i := range rs {
		for n := 1; n <= 4 && i+n <= len(rs); n++ {
			out = append(out, text.ConceptOf(string(rs[i:i+n]))...)
		}
	}
	return out
}

// Vector embeds one text.
func (l *Local) Vector(s string) []float32 {
	feats := map[string]float64{}
	for _, t := range text.Split(s) {
		if t.CJK {
			for _, c := range text.Chunks(t.Text) {
				rs := []rune(c)
				for _, c := range cjkConcepts(c) {
					feats["k:"+c] += wConcept
				}
				for i, r := range rs {
					feats["c:"+string(r)] += wCJKChar
					if i+1 < len(rs) {
						feats["w:"+string(rs[i:i+2])] += wCJKBi
					}
				}
			}
			continue
		}
		if text.IsStop(t.Text) {
			continue
		}
		feats["w:"+text.Stem(t.Text)] += wWord
		for _, c := range text.ConceptOf(t.Text) {
			feats["k:"+c] += wConcept
		}
		rs := []rune("<" + t.Text + ">")
		if len(rs) < 5 {
			continue
		}
		for n := 3; n <= 4; n++ {
			for i := 0; i+n <= len(rs); i++ {
				feats["g:"+string(rs[i:i+n])] += wGram
			}
		}
	}
	v := make([]float32, l.dim)
	h := fnv.New64a()
	for f, w := range feats {
		h.Reset()
		h.Write([]byte(f))
		x := h.Sum64()
		weight := w
		if w >= 1 {
			weight = 1 + math.Log(w)
		}
		if x>>63 == 1 {
			weight = -weight
		}
		v[x%uint64(l.dim)] += float32(weight)
	}
	Normalize(v)
	return v
}
