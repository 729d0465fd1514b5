package extraction

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"
)

// evalSet is testdata/offline/eval.json: conversations whose user messages list the memories
// a careful person would keep from that turn (see its split_rule and match_rule).
type evalSet struct {
	SplitRule     string     `json:"split_rule"`
	MatchRule     string     `json:"match_rule"`
	Conversations []evalConv `json:"conversations"`
}

type evalConv struct {
	Lang     string    `json:"lang"`
	Kind     string    `json:"kind"`
	Batch    int       `json:"batch"`
	Workdir  string    `json:"workdir"`
	Messages []evalMsg `json:"messages"`
}

type evalMsg struct {
	Role    string       `json:"role"`
	Content string       `json:"content"`
	Expect  []evalExpect `json:"expect"`
}

type evalExpect struct {
	Type  string `json:"type"` // one type, or alternatives separated by "|"
	Scope string `json:"scope"`
	Key   string `json:"key"`
}

// evalTurn is one user message with its context, ready to plan.
type evalTurn struct {
	split, lang string
	batch       int
	in          Input
	expect      []evalExpect
}

func loadEval(t testing.TB) (evalSet, []evalTurn) {
	t.Helper()
	raw, err := os.ReadFile("testdata/offline/eval.json")
	if err != nil {
		t.Fatal(err)
	}
	var set evalSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	var turns []evalTurn
	nth := map[string]int{}
	for ci, c := range set.Conversations {
		nth[c.Lang]++
		// The split rule of the file: the n-th conversation of a language is dev when n mod 4 is
		// 1 or 2, held when it is 3 or 0.
		split := "held"
		if n := nth[c.Lang] % 4; n == 1 || n == 2 {
			split = "dev"
		}
		var history []Message
		var users []Message
		for _, m := range c.Messages {
			msg := Message{Role: m.Role, Content: m.Content}
			history = append(history, msg)
			if m.Role != "user" {
				continue
			}
			users = append(users, msg)
			last := users
			if len(last) > 4 {
				last = last[len(last)-4:]
			}
			// Each turn is scored as its own run: the controller marks the earlier ones planned.
			var planned []string
			for _, u := range last[:len(last)-1] {
				planned = append(planned, ContentHash(u.Content))
			}
			turns = append(turns, evalTurn{split: split, lang: c.Lang, batch: c.Batch, expect: m.Expect, in: Input{
				Request: Request{SessionID: fmt.Sprintf("eval-%d", ci), Agent: "eval", Workdir: c.Workdir,
					Messages: append([]Message(nil), history...)},
				Turns:   append([]Message(nil), last...),
				Planned: planned,
				Now:     time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC),
			}})
		}
	}
	return set, turns
}

// matches is the match rule of the evaluation set: the item's type is one of the expected
// types, the scopes agree, and the key phrase occurs in the title or body — case-insensitively,
// and as a whole word when the key is made of Latin letters and digits.
func matches(it PlanItem, e evalExpect) bool {
	typeOK := false
	for _, t := range strings.Split(e.Type, "|") {
		typeOK = typeOK || t == it.Type
	}
	return typeOK && it.Scope == e.Scope && containsKey(it.Description+"\n"+it.Body, e.Key)
}

func containsKey(hay, key string) bool {
	h, k := strings.ToLower(hay), strings.ToLower(key)
	for from := 0; ; {
		i := strings.Index(h[from:], k)
		if i < 0 {
			return false
		}
		i += from
		before, after := rune(' '), rune(' ')
		if i > 0 {
			before = lastRune(h[:i])
		}
		if j := i + len(k); j < len(h) {
			after = firstRune(h[j:])
		}
		if !(latinWordRune(firstRune(k)) && latinWordRune(before)) && !(latinWordRune(lastRune(k)) && latinWordRune(after)) {
			return true
		}
		from = i + 1
	}
}

func latinWordRune(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func lastRune(s string) rune {
	r := []rune(s)
	return r[len(r)-1]
}

type evalScore struct {
	turns, expected, found, produced, correct int
}

func (s evalScore) precision() float64 {
	if s.produced == 0 {
		return 1
	}
	return float64(s.correct) / float64(s.produced)
}

func (s evalScore) recall() float64 {
	if s.expected == 0 {
		return 1
	}
	return float64(s.found) / float64(s.expected)
}

// TestOfflineEval scores the offline extractor on the evaluation set: precision and recall
// per language on dev and on held. Held precision under 0.9 in either language fails: a wrong
// memory costs a person more than a missed one. Rows per batch, and "batch2+" pooling the
// batches written after the first rules (batch 1's held half was written by the rules' author
// before them, so it flatters). OFFLINE_EVAL_SHOW=1 lists dev's misses and wrong items (never
// held's: held is not looked at while writing rules).
func TestOfflineEval(t *testing.T) {
	set, turns := loadEval(t)
	if set.SplitRule == "" || set.MatchRule == "" {
		t.Fatal("eval.json must state its split and match rules")
	}
	perLang := map[string]int{}
	for _, tu := range turns {
		perLang[tu.lang]++
	}
	if len(turns) < 150 || perLang["en"] < 70 || perLang["zh"] < 70 {
		t.Fatalf("evaluation set too small: %d turns, %v", len(turns), perLang)
	}
	show := os.Getenv("OFFLINE_EVAL_SHOW") != ""
	p := NewOffline()
	scores := map[string]*evalScore{}
	for _, tu := range turns {
		out, err := p.Plan(context.Background(), tu.in)
		if err != nil {
			t.Fatal(err)
		}
		checkPlanInvariants(t, tu.in, out)
		var found, correct int
		for _, e := range tu.expect {
			hit := false
			for _, it := range out.Plan.Items {
				hit = hit || matches(it, e)
			}
			if hit {
				found++
			} else if show && tu.split == "dev" {
				t.Logf("MISS  %q want %s/%s %q", evalLastUser(tu.in), e.Type, e.Scope, e.Key)
			}
		}
		for _, it := range out.Plan.Items {
			ok := false
			for _, e := range tu.expect {
				ok = ok || matches(it, e)
			}
			if ok {
				correct++
			} else if show && tu.split == "dev" {
				t.Logf("WRONG %q got %s/%s %q", evalLastUser(tu.in), it.Type, it.Scope, it.Description)
			}
		}
		keys := []string{tu.split + "/" + tu.lang, fmt.Sprintf("%s/%s/batch%d", tu.split, tu.lang, tu.batch)}
		if tu.batch >= 2 {
			// Batches written after the first rules: the freshest measure of phrasings the
			// rules were not written from.
			keys = append(keys, tu.split+"/"+tu.lang+"/batch2+")
		}
		for _, key := range keys {
			sc := scores[key]
			if sc == nil {
				sc = &evalScore{}
				scores[key] = sc
			}
			sc.turns++
			sc.expected += len(tu.expect)
			sc.found += found
			sc.produced += len(out.Plan.Items)
			sc.correct += correct
		}
	}
	t.Logf("%-5s %-4s %-7s %6s %9s %8s %8s %8s %10s %7s", "split", "lang", "batch", "turns", "expected", "recalled", "produced", "correct", "precision", "recall")
	for _, batch := range []string{"", "/batch2+", "/batch1", "/batch2", "/batch3", "/batch4", "/batch5", "/batch6"} {
		for _, split := range []string{"dev", "held"} {
			for _, lang := range []string{"en", "zh"} {
				sc := scores[split+"/"+lang+batch]
				if sc == nil {
					continue
				}
				name := "all"
				if batch != "" {
					name = batch[1:]
				}
				t.Logf("%-5s %-4s %-7s %6d %9d %8d %8d %8d %10.3f %7.3f", split, lang, name, sc.turns, sc.expected, sc.found,
					sc.produced, sc.correct, sc.precision(), sc.recall())
			}
		}
	}
	for _, lang := range []string{"en", "zh"} {
		if sc := scores["held/"+lang]; sc.precision() < 0.9 {
			t.Errorf("held precision in %s is %.3f (%d of %d items right), below 0.9", lang, sc.precision(), sc.correct, sc.produced)
		}
	}
}

func evalLastUser(in Input) string {
	msg, _ := newestUserMessage(in)
	return msg
}
