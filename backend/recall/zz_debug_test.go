package recall

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestZZDebug(t *testing.T) {
	path := os.Getenv("ZZ_SET")
	if path == "" {
		t.Skip()
	}
	sets := loadIdentitySets(t, path)
	idx, _ := strconv.Atoi(os.Getenv("ZZ_IDX"))
	set := sets[idx]
	e := set.home(t, false)
	for _, q := range strings.Split(os.Getenv("ZZ_Q"), "|") {
		a := Analyze(q, time.Now(), time.UTC)
		fmt.Printf("Q %q facets=%v intent=%v kw=%v exp=%v singles=%v\n", q, a.Facets, a.Intent, a.Keywords, a.Expansions, a.Singles)
		for _, h := range e.search(q).Hits {
			fmt.Printf("   %-18s %.4f %v\n", h.Memory.Slug, h.Score, h.Via)
		}
	}
}
