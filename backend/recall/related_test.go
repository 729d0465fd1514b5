package recall

import (
	"testing"
)

// withTuning sets the ranking constants.
func withTuning(t Tuning) envOpt { return func(o *Options) { o.Tuning = t } }

// The thesaurus path and credit find a memory that answers in other words, and only when
// weighted: by default (weights 0) the question's words alone decide.
func TestRelatedWordsFindOtherWording(t *testing.T) {
	mems := []mem{
		{slug: "auto", title: "Errand", body: "Finally bought a used automobile, a blue one."},
		{slug: "bike", title: "Errand", body: "Fixed the bike chain and oiled it."},
	}
	off := newEnv(t)
	off.write(mems...)
	if r := rankOf(off.search("which car did she purchase"), "auto"); r >= 0 {
		t.Fatalf("no shared word, yet found at %d without the thesaurus", r)
	}
	for name, tu := range map[string]func(*Tuning){
		"path":   func(t *Tuning) { t.WRelated = 0.3 },
		"credit": func(t *Tuning) { t.WRelated, t.WRelatedSurface = 0.15, 0.5 },
	} {
		tun := DefaultTuning()
		tu(&tun)
		e := newEnv(t, withTuning(tun))
		e.write(mems...)
		res := e.search("which car did she purchase")
		if rankOf(res, "auto") != 0 {
			t.Errorf("%s: want the automobile memory first: %v", name, slugs(res))
		}
		if rankOf(res, "bike") >= 0 {
			t.Errorf("%s: the bike memory relates to nothing asked: %v", name, slugs(res))
		}
	}
}
