package bench

import (
	"os"
	"strconv"
	"sync"

	"engram/backend/embed"
)

var gloveOnce struct {
	sync.Once
	g   *embed.Glove
	err error
}

// experimentGlove loads ENGRAM_LOCOMO_GLOVE (mix ENGRAM_LOCOMO_GLOVE_MIX, SIF a
// ENGRAM_LOCOMO_GLOVE_A) once; nil when unset.
func experimentGlove() (*embed.Glove, error) {
	path := os.Getenv("ENGRAM_LOCOMO_GLOVE")
	if path == "" {
		return nil, nil
	}
	gloveOnce.Do(func() {
		data, err := os.ReadFile(path)
		if err != nil {
			gloveOnce.err = err
			return
		}
		mix, _ := strconv.ParseFloat(os.Getenv("ENGRAM_LOCOMO_GLOVE_MIX"), 64)
		if mix == 0 {
			mix = 0.5
		}
		a, _ := strconv.ParseFloat(os.Getenv("ENGRAM_LOCOMO_GLOVE_A"), 64)
		if a == 0 {
			a = 1e-3
		}
		gloveOnce.g, gloveOnce.err = embed.LoadGlove(data, mix, a)
	})
	return gloveOnce.g, gloveOnce.err
}
