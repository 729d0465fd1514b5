//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestLocomoEvidenceAndDates(t *testing.T) {
	ev := locomoEvidence([]string{"D8:6; D9:17", "D30:05", "junk"})
	if len(ev) != 3 || !ev["D8:6"] || !ev["D9:17"] || !ev["D30:5"] {
		t.Fatalf("%v", ev)
	}
	d, ok := locomoDate("1:56 pm on 8 May, 2023")
	if !ok || !d.Equal(time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)) {
		t.Fatalf("%v %v", d, ok)
	}
	z, ok := locomoDate("2024年3月3日 下午7:10")
	if !ok || !z.Equal(time.Date(2024, 3, 3, 19, 10, 0, 0, time.UTC)) {
		t.Fatalf("%v %v", z, ok)
	}
}

// TestLocomoDateForms: a session date in the parts a file may write them in; a date that
// cannot be read (or is out of range) has none rather than a wrong one.
func TestLocomoDateForms(t *testing.T) {
	at := func(y int, mo time.Month, d, h, mi int) time.Time { return time.Date(y, mo, d, h, mi, 0, 0, time.UTC) }
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"1:56 pm on 8 May, 2023", at(2023, 5, 8, 13, 56), true},
		{"12:05 am on 1 January, 2024", at(2024, 1, 1, 0, 5), true},
		{"10:37 AM on 27 June 2023", at(2023, 6, 27, 10, 37), true},
		{"May 8th, 2023 13:56", at(2023, 5, 8, 13, 56), true},
		{"Sept 8, 2023, 7:02 p.m.", at(2023, 9, 8, 19, 2), true},
		{"8 Sep 2023", at(2023, 9, 8, 12, 0), true},
		{"2023-05-08 09:15", at(2023, 5, 8, 9, 15), true},
		{"2024年3月3日 下午7:10", at(2024, 3, 3, 19, 10), true},
		{"2024年3月3日 晚上8：00", at(2024, 3, 3, 20, 0), true},
		{"2024年3月3日", at(2024, 3, 3, 12, 0), true},
		{"31 June, 2023", time.Time{}, false},
		{"8 Mayday, 2023", time.Time{}, false},
		{"sometime last spring", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := locomoDate(tt.in)
		if ok != tt.ok || !got.Equal(tt.want) {
			t.Errorf("locomoDate(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRunLocomoJSONShape(t *testing.T) {
	var out bytes.Buffer
	if err := RunLocomo(context.Background(), "testdata/parallel-en.json", true, &out, nil); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Overall    map[string]float64            `json:"overall"`
		ByCategory map[string]map[string]float64 `json:"by_category"`
		Baseline   struct {
			Overall map[string]float64 `json:"overall"`
		} `json:"baseline"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, k := range []string{"r@1", "r@5", "r@10", "r@20", "mrr", "n"} {
		if _, ok := rep.Overall[k]; !ok {
			t.Errorf("overall lacks %s", k)
		}
		if _, ok := rep.Baseline.Overall[k]; !ok {
			t.Errorf("baseline lacks %s", k)
		}
	}
	if rep.Overall["n"] != 28 || len(rep.ByCategory) != 4 || rep.ByCategory["4"]["n"] != 19 {
		t.Fatalf("counts: %+v", rep)
	}
	if rep.Overall["r@10"] < rep.Overall["r@5"] || rep.Overall["r@5"] < rep.Overall["r@1"] || rep.Overall["mrr"] > rep.Overall["r@20"] {
		t.Fatalf("metrics out of order: %+v", rep.Overall)
	}
	var text bytes.Buffer
	if err := RunLocomo(context.Background(), "testdata/parallel-en.json", false, &text, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "FTS5 BM25 baseline") || !strings.Contains(text.String(), "4 single-hop") {
		t.Fatalf("text report:\n%s", text.String())
	}
}

// TestChineseParity scores the hand-translated parallel conversation in both languages through
// the same command: Chinese recall must stay within 5% of English.
func TestChineseParity(t *testing.T) {
	ctx := context.Background()
	en, err := Locomo(ctx, "testdata/parallel-en.json", LocomoOptions{})
	if err != nil {
		t.Fatal(err)
	}
	zh, err := Locomo(ctx, "testdata/parallel-zh.json", LocomoOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("R@10 en %.3f zh %.3f; MRR en %.3f zh %.3f", en.Overall.R10, zh.Overall.R10, en.Overall.MRR, zh.Overall.MRR)
	if en.Overall.N != zh.Overall.N || en.Overall.N < 20 {
		t.Fatalf("question counts %d / %d", en.Overall.N, zh.Overall.N)
	}
	if zh.Overall.R10 < en.Overall.R10-0.05 {
		t.Fatalf("Chinese R@10 %.3f trails English %.3f by more than 5%%", zh.Overall.R10, en.Overall.R10)
	}
	if math.IsNaN(zh.Overall.MRR) || zh.Overall.R10 < 0.8 {
		t.Fatalf("Chinese recall too weak: %+v", zh.Overall)
	}
}
