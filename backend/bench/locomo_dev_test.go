//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/recall"
)

// TestLocomoFile runs the benchmark on the file named by ENGRAM_LOCOMO (skipped otherwise):
//
//	ENGRAM_LOCOMO=../shared/bench/locomo-dev.json go test ./backend/bench -run TestLocomoFile -v
//
// ENGRAM_LOCOMO_MISS=path writes the questions missed at 10 there.
func TestLocomoFile(t *testing.T) {
	path := os.Getenv("ENGRAM_LOCOMO")
	if path == "" {
		t.Skip("set ENGRAM_LOCOMO to a LoCoMo file")
	}
	opts := LocomoOptions{NoVectors: os.Getenv("ENGRAM_LOCOMO_NOVEC") != "", CacheDir: os.Getenv("ENGRAM_LOCOMO_CACHE"),
		NoCV: os.Getenv("ENGRAM_LOCOMO_NOCV") != "", Progress: os.Stderr}
	if only := os.Getenv("ENGRAM_LOCOMO_CV_ONLY"); only != "" {
		// ENGRAM_LOCOMO_CV_ONLY=Fwd2,Keep cross-validates just those constants.
		opts.CVOnly = strings.Split(only, ",")
	}
	if mp := os.Getenv("ENGRAM_LOCOMO_MISS"); mp != "" {
		f, err := os.Create(mp)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		opts.Miss = f
		if at := os.Getenv("ENGRAM_LOCOMO_MISS_AT"); at != "" {
			fmt.Sscan(at, &opts.MissAt)
		}
	}
	if tune := os.Getenv("ENGRAM_TUNE"); tune != "" {
		// ENGRAM_TUNE='{"WVector":0}' overrides ranking constants for an experiment.
		opts.Tuning = recall.DefaultTuning()
		if err := json.Unmarshal([]byte(tune), &opts.Tuning); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Locomo(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	printLocomo(os.Stdout, path, rep)
}

// TestRecallScaleDev measures recall at the sizes in ENGRAM_RECALL_SCALE ("10000,100000");
// skipped otherwise.
func TestRecallScaleDev(t *testing.T) {
	spec := os.Getenv("ENGRAM_RECALL_SCALE")
	if spec == "" {
		t.Skip("set ENGRAM_RECALL_SCALE to sizes")
	}
	var sizes []int
	for _, s := range strings.Split(spec, ",") {
		var n int
		fmt.Sscan(s, &n)
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		var f RecallScaleFigures
		var err error
		if dir := os.Getenv("ENGRAM_RECALL_SCALE_CACHE"); dir != "" {
			home := filepath.Join(dir, fmt.Sprint(n))
			os.MkdirAll(home, 0o755)
			f, err = recallScaleAt(context.Background(), home, n, true, os.Stdout)
		} else {
			f, err = RecallScale(context.Background(), n, os.Stdout)
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.MarshalIndent(f, "", "  ")
		fmt.Println(string(b))
	}
}
