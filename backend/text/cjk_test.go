package text

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSegmentCJK(t *testing.T) {
	for in, want := range map[string]string{
		"我喜欢茶":           " 我喜 喜欢 欢茶 ",
		"我":              " 我 ",
		"likes 绿茶 a lot": "likes  绿茶  a lot",
		"東京タワー":          " 東京 京タ タワ ワー ",
		"plain":          "plain",
	} {
		if got := SegmentCJK(in); got != want {
			t.Errorf("SegmentCJK(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSegmentCJKDoc(t *testing.T) {
	for _, c := range []struct {
		cols   []string
		finals string
	}{
		{[]string{"我喜欢茶"}, " 茶"},
		// 茶 begins 茶叶 in the second column, so the first column's last character needs nothing.
		{[]string{"我喜欢茶", "茶叶很好"}, " 好"},
		// Each missing character once, in the order met; a lone character is its own token.
		{[]string{"喝茶。喝茶", "茶", "plain text"}, ""},
		{[]string{"绿茶，红茶", "奶茶"}, " 茶"},
		{[]string{"no cjk at all", ""}, ""},
		{[]string{"東京タワー"}, " ー"},
	} {
		segs, finals := SegmentCJKDoc(c.cols...)
		if finals != c.finals {
			t.Errorf("SegmentCJKDoc(%q) finals = %q, want %q", c.cols, finals, c.finals)
		}
		for i, col := range c.cols {
			if segs[i] != SegmentCJK(col) {
				t.Errorf("SegmentCJKDoc(%q)[%d] = %q, want SegmentCJK's %q", c.cols, i, segs[i], SegmentCJK(col))
			}
		}
	}
}

// TestEveryCharacterBeginsAToken is what the lone-character search relies on: every CJK
// character of a document begins one of its tokens once the finals are added.
func TestEveryCharacterBeginsAToken(t *testing.T) {
	docs := [][]string{
		{"我在杭州住了三年，平时喜欢喝龙井。", "用户住杭州", "茶 咖啡"},
		{"Tom 的猫叫豆豆", "", ""},
		{"朝はコーヒーが好き。한국어 문장입니다", "ー", "x"},
		{"a好b坏c", "他说：“再见”", "喵"},
	}
	for _, d := range docs {
		segs, finals := SegmentCJKDoc(d...)
		begins := map[rune]bool{}
		for _, tok := range strings.Fields(strings.Join(segs, " ") + finals) {
			r, _ := utf8.DecodeRuneInString(tok)
			begins[r] = true
		}
		for _, col := range d {
			for _, r := range col {
				if IsCJK(r) && !begins[r] {
					t.Errorf("%q: %q begins no token", d, r)
				}
			}
		}
	}
}

// TestIsCJKFastPaths: the ranges IsCJK answers without the script tables agree with them.
func TestIsCJKFastPaths(t *testing.T) {
	for r := rune(0); r <= 0x10FFFF; r++ {
		if IsCJK(r) != isCJKSlow(r) {
			t.Fatalf("IsCJK(%U) = %v, the script tables say %v", r, IsCJK(r), isCJKSlow(r))
		}
	}
}

// TestOneIsCJKForIndexAndWords: the words recall and the local embedder split are the runs the
// index segments; the prolonged sound mark keeps a katakana word whole in both.
func TestOneIsCJKForIndexAndWords(t *testing.T) {
	for _, r := range []rune{'我', 'コ', 'ー', 'ｰ', '한'} {
		if !IsCJK(r) {
			t.Errorf("IsCJK(%q) = false", r)
		}
	}
	for _, r := range []rune{'a', '1', ' ', 'é', '-'} {
		if IsCJK(r) {
			t.Errorf("IsCJK(%q) = true", r)
		}
	}
	toks := Split("朝はコーヒーが好き coffee")
	if len(toks) != 2 || toks[0].Text != "朝はコーヒーが好き" || !toks[0].CJK || toks[1].Text != "coffee" {
		t.Fatalf("Split = %+v, want one CJK run and one word", toks)
	}
	if got := Bigrams("コーヒー"); !slices.Equal(got, []string{"コー", "ーヒ", "ヒー"}) {
		t.Fatalf("Bigrams = %v", got)
	}
	if !HasCJK("x ー") || HasCJK("plain") || RuneLen("コーヒー") != 4 {
		t.Fatal("HasCJK/RuneLen")
	}
}

// SegmentCJKDoc skips the rune-by-rune pass over a column that holds no CJK character
// (mayHoldCJK); its columns must still be exactly SegmentCJK's, for every kind of text: ASCII,
// other scripts below U+1100, invalid UTF-8, and CJK at the edge of the fast path's byte test.
func TestSegmentCJKDocFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 11))
	pieces := []string{"plain words ", "Ünïcödé ", "Привет ", "\xff", "\x80", "\xc3", "\xe2\x82", "ა", "\u10ff", "\u1100", "ᄀ", "我喜欢茶", "。", " ", "\n", "€", "ｶ"}
	for n := 0; n < 3000; n++ {
		cols := make([]string, 1+r.IntN(3))
		for i := range cols {
			var b strings.Builder
			for k := r.IntN(6); k >= 0; k-- {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			cols[i] = b.String()
		}
		segs, _ := SegmentCJKDoc(cols...)
		for i, c := range cols {
			if want := SegmentCJK(c); segs[i] != want {
				t.Fatalf("SegmentCJKDoc column %q = %q, SegmentCJK gives %q", c, segs[i], want)
			}
		}
	}
}
