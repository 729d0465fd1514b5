package text

import (
	"slices"
	"testing"
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
