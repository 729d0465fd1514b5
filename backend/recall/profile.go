package recall

import (
	"context"
	"math"
	"sort"
	"strings"

	"engram/backend/memory"
	"engram/backend/text"
)

// profileFallback answers an identity question that found little from the person's profile:
// user memories, those that share most of the question's words and characters first (a
// question in other words than its note still finds it among them: "我咩星座" and
// "屬牛,天蠍座" share 座), then those named like a profile, then the newest.
func (s *Service) profileFallback(ctx context.Context, a Analysis, f memory.Filter, have []Hit, limit int) ([]Hit, error) {
	if f.Type != "" && f.Type != memory.TypeUser {
		return nil, nil
	}
	uf := f
	uf.Type = memory.TypeUser
	uf.Limit = 200
	items, _, err := s.store.List(ctx, uf)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	low := 1.0
	for _, h := range have {
		seen[h.Memory.ID] = true
		low = math.Min(low, h.Score)
	}
	isProfile := func(m *memory.Memory) bool {
		if strings.Contains(m.Slug, "profile") || strings.Contains(m.Slug, "about-me") || strings.Contains(m.Slug, "identity") {
			return true
		}
		for _, t := range m.Tags {
			if t == "profile" || t == "identity" || t == "画像" || t == "身份" {
				return true
			}
		}
		return false
	}
	terms := fallbackTerms(a)
	shared := make(map[string]int, len(items))
	for _, m := range items {
		shared[m.ID] = sharedTerms(terms, m)
	}
	sort.SliceStable(items, func(i, j int) bool {
		if si, sj := shared[items[i].ID], shared[items[j].ID]; si != sj {
			return si > sj
		}
		pi, pj := isProfile(items[i]), isProfile(items[j])
		if pi != pj {
			return pi
		}
		if items[i].Reviewed != items[j].Reviewed {
			return items[i].Reviewed
		}
		return items[i].Updated.After(items[j].Updated)
	})
	var out []Hit
	for i, m := range items {
		if len(have)+len(out) >= limit {
			break
		}
		if seen[m.ID] {
			continue
		}
		out = append(out, Hit{Memory: m, Score: low * 0.5 / float64(i+1), Via: []string{"profile"}})
	}
	return out, nil
}

// fallbackTerms are what a question asks about, as the fallback compares them: its keywords'
// stems beside the words it asks with (facetWords), and its Chinese characters beside those a
// question asks with (facetChars), folded to Simplified Mandarin.
func fallbackTerms(a Analysis) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, k := range a.Keywords {
		if !k.CJK {
			if !facetWords[k.Text] && !facetWords[k.Stem] {
				add(k.Stem)
			}
		}
	}
	for _, r := range foldDialect(a.Query) {
		if text.IsCJK(r) && !strings.ContainsRune(facetChars, r) && !text.IsChineseStop(string(r)) {
			add(string(r))
		}
	}
	return out
}

// sharedTerms counts the terms a memory's title and text hold: a Chinese character, or an
// English stem as the start of a word's letters ("liv" in "living"; a stem that rewrote its
// word's end, "studi", is missed: this only orders the fallback).
func sharedTerms(terms []string, m *memory.Memory) int {
	if len(terms) == 0 {
		return 0
	}
	hay := strings.ToLower(foldDialect(m.Title + "\n" + m.Body))
	n := 0
	for _, t := range terms {
		if strings.Contains(hay, t) {
			n++
		}
	}
	return n
}

// reSelfQuestion is a question in the first person: a question mark or a question word, and
// I, me or my (我, not 我们).
var (
	reFirstPerson = text.Lazy(`(?i)\b(?:i|i'm|i've|i'd|i'll|me|my|myself)\b|我(?:[^们]|$)`)
	reAsking      = text.Lazy(`(?i)[?？]|^\s*(?:what|where|when|who|whose|which|how|remind|tell|is|am|do|does|did|can|should)\b|什么|啥|哪|几|多少|吗|呢|咩|乜|边|幾|邊`)
)

// selfQuestion reports a question the person asks about themselves, not about code.
func selfQuestion(a Analysis) bool {
	return a.Intent != IntentCode && reFirstPerson.MatchString(a.Query) && reAsking.MatchString(a.Query)
}

// reRequest is a request to the assistant in Chinese: asked for (帮我, 给我, 请), or a question.
var reRequest = text.Lazy(`帮我|帮忙|给我|替我|请|[?？]|什么|啥|哪|几|多少|谁|吗|呢|怎么|咋`)

// chineseRequest reports a Chinese request or question not about code, whose subject (the
// person) may be left out as Chinese leaves it.
func chineseRequest(a Analysis) bool {
	return a.Intent != IntentCode && text.HasCJK(a.Query) && reRequest.MatchString(a.Query)
}

// sharingTerms keeps the fallback's notes whose title holds one of the question's terms
// (fallbackTerms), or whose text holds two: a title labels its note ("猫" for "给猫买零食买什么好"),
// while a single character shared in the text is as often another word's (话 of 笑话 in 电话).
// Those that hold most come first and, among as many, those with a title that holds one (the
// cat's note before one whose "天气好" shares only the question's 好); the scores the
// fallback gave go by order.
func sharingTerms(a Analysis, hits []Hit) []Hit {
	terms := fallbackTerms(a)
	type shared struct {
		h            Hit
		title, whole int
	}
	var keep []shared
	for _, h := range hits {
		n := sharedTerms(terms, h.Memory)
		title := sharedTerms(terms, &memory.Memory{Title: h.Memory.Title})
		// One character shared in the text alone is no evidence: 话 of 笑话 is in 电话 too.
		if title > 0 || n > 1 {
			keep = append(keep, shared{h, title, n})
		}
	}
	sort.SliceStable(keep, func(i, j int) bool {
		if keep[i].whole != keep[j].whole {
			return keep[i].whole > keep[j].whole
		}
		return keep[i].title > keep[j].title
	})
	out := make([]Hit, len(keep))
	for i, k := range keep {
		out[i] = k.h
		out[i].Score = hits[i].Score
	}
	return out
}
