//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"engram/backend/recall"
)

// Leave-one-conversation-out cross-validation of recall's tuning. Every ranking constant that
// the LoCoMo questions can move is re-chosen from its grid by coordinate ascent on four
// conversations and the fifth is scored with what was chosen; the five held-out scores make
// the cross-validated figures. They say how the tuning does on conversations it never saw —
// the in-sample figures (the defaults scored on the data they were chosen on) flatter it.

// LocomoCV is the cross-validated report.
type LocomoCV struct {
	LocomoSet
	// Tuned names the parameters each fold chose.
	Tuned []string `json:"tuned"`
	// Folds are the held-out conversations with what their training chose.
	Folds []LocomoFold `json:"folds"`
	// AllFive is what the same procedure chooses on all the conversations (in sample).
	AllFive map[string]float64 `json:"all_five"`
	// Evaluations counts the distinct (tuning, conversation) runs.
	Evaluations int           `json:"evaluations"`
	Took        time.Duration `json:"-"`
}

// LocomoFold is one held-out conversation.
type LocomoFold struct {
	Held string `json:"held"`
	// Chosen are the parameters whose value differs from the default.
	Chosen map[string]float64 `json:"chosen"`
	Train  float64            `json:"train_objective"`
	Score  LocomoMetrics      `json:"held_out"`
}

// tunable is one ranking constant and the values the ascent tries (the default among them).
type tunable struct {
	name   string
	get    func(*recall.Tuning) float64
	set    func(*recall.Tuning, float64)
	values []float64
}

func fparam(name string, p func(*recall.Tuning) *float64, values ...float64) tunable {
	return tunable{name: name, get: func(t *recall.Tuning) float64 { return *p(t) },
		set: func(t *recall.Tuning, v float64) { *p(t) = v }, values: values}
}

func iparam(name string, p func(*recall.Tuning) *int, values ...float64) tunable {
	return tunable{name: name, get: func(t *recall.Tuning) float64 { return float64(*p(t)) },
		set: func(t *recall.Tuning, v float64) { *p(t) = int(v) }, values: values}
}

// locomoTunables are the constants of recall.Tuning that the LoCoMo questions exercise. Left
// out, with the reason: the aliases column weight (the turns have no aliases), WCJK and
// WSubstring (no Chinese, no keyword-less question), WTrigramCode (no code question),
// WordBudget and WordBudgetShare (cost bounds that bind only past 60k memories).
func locomoTunables() []tunable {
	const day = float64(24 * time.Hour)
	return []tunable{
		fparam("ColumnWeights.title", func(t *recall.Tuning) *float64 { return &t.ColumnWeights[0] }, 1, 3, 6),
		fparam("WExpansion", func(t *recall.Tuning) *float64 { return &t.WExpansion }, 0.15, 0.3, 0.6),
		fparam("WTrigram", func(t *recall.Tuning) *float64 { return &t.WTrigram }, 0, 0.15, 0.3),
		fparam("WVector", func(t *recall.Tuning) *float64 { return &t.WVector }, 0, 0.25, 0.5),
		fparam("WSurface", func(t *recall.Tuning) *float64 { return &t.WSurface }, 0, 0.5, 1),
		fparam("RRFK", func(t *recall.Tuning) *float64 { return &t.RRFK }, 30, 60, 120),
		fparam("ScoreShare", func(t *recall.Tuning) *float64 { return &t.ScoreShare }, 0.5, 0.9, 1),
		fparam("Fwd", func(t *recall.Tuning) *float64 { return &t.Fwd }, 0.2, 0.4, 0.6),
		fparam("FwdQuestion", func(t *recall.Tuning) *float64 { return &t.FwdQuestion }, 0.6, 0.9, 1.2),
		fparam("Back", func(t *recall.Tuning) *float64 { return &t.Back }, 0.15, 0.3, 0.5),
		fparam("Session", func(t *recall.Tuning) *float64 { return &t.Session }, 0, 0.2, 0.4),
		fparam("QuestionPenalty", func(t *recall.Tuning) *float64 { return &t.QuestionPenalty }, 0.5, 0.7, 1),
		fparam("TimeBoost", func(t *recall.Tuning) *float64 { return &t.TimeBoost }, 0.3, 0.6, 1),
		fparam("SubjectBoost", func(t *recall.Tuning) *float64 { return &t.SubjectBoost }, 0.5, 1, 2, 3),
		fparam("DateBoost", func(t *recall.Tuning) *float64 { return &t.DateBoost }, 1, 2, 3),
		{name: "DateSlack.days", get: func(t *recall.Tuning) float64 { return float64(t.DateSlack) / day },
			set: func(t *recall.Tuning, v float64) { t.DateSlack = time.Duration(v * day) }, values: []float64{4, 8, 16}},
		{name: "DateLead.days", get: func(t *recall.Tuning) float64 { return float64(t.DateLead) / day },
			set: func(t *recall.Tuning, v float64) { t.DateLead = time.Duration(v * day) }, values: []float64{0, 2, 8}},
		fparam("VecFloor", func(t *recall.Tuning) *float64 { return &t.VecFloor }, 0.2, 0.25, 0.3),
		fparam("MinRelative", func(t *recall.Tuning) *float64 { return &t.MinRelative }, 0.01, 0.02, 0.05),
		iparam("Depth", func(t *recall.Tuning) *int { return &t.Depth }, 50, 100, 200),
		iparam("Keep", func(t *recall.Tuning) *int { return &t.Keep }, 100, 150, 250),
		iparam("ContextTop", func(t *recall.Tuning) *int { return &t.ContextTop }, 20, 40, 80),
		iparam("TrigramBelow", func(t *recall.Tuning) *int { return &t.TrigramBelow }, 5, 10, 20),
	}
}

// cvTunables are the tunables a run re-chooses: all of them, or those opts.CVOnly names.
func cvTunables(opts LocomoOptions) []tunable {
	all := locomoTunables()
	if len(opts.CVOnly) == 0 {
		return all
	}
	var out []tunable
	for _, p := range all {
		for _, n := range opts.CVOnly {
			if p.name == n {
				out = append(out, p)
			}
		}
	}
	return out
}

// cvRunner caches each (tuning, conversation) run: folds start from the same tuning and
// mostly agree, so most of their evaluations are shared.
type cvRunner struct {
	ctx   context.Context
	convs []*locomoConv
	opts  LocomoOptions
	cache map[string][]int
	runs  int
}

func (r *cvRunner) ranks(t recall.Tuning, conv int) ([]int, error) {
	b, _ := json.Marshal(t)
	key := fmt.Sprintf("%d|%s", conv, b)
	if got, ok := r.cache[key]; ok {
		return got, nil
	}
	o := r.opts
	o.Miss = nil
	ranks, _, err := r.convs[conv].ask(r.ctx, t, o)
	if err != nil {
		return nil, err
	}
	r.cache[key] = ranks
	r.runs++
	return ranks, nil
}

// objective is R@10 plus MRR over the questions of the given conversations, both as shares.
func (r *cvRunner) objective(t recall.Tuning, convs []int) (float64, error) {
	sum, n := 0.0, 0
	for _, c := range convs {
		ranks, err := r.ranks(t, c)
		if err != nil {
			return 0, err
		}
		for _, k := range ranks {
			n++
			if k >= 0 && k < 10 {
				sum++
			}
			if k >= 0 && k < 20 {
				sum += 1 / float64(k+1)
			}
		}
	}
	if n == 0 {
		return 0, nil
	}
	return sum / float64(n), nil
}

// tune runs one pass of coordinate ascent over the tunables from start on the training
// conversations; a value replaces the current one only when it scores strictly higher, so
// ties keep the default.
func (r *cvRunner) tune(start recall.Tuning, train []int) (recall.Tuning, float64, error) {
	cur := start
	best, err := r.objective(cur, train)
	if err != nil {
		return cur, 0, err
	}
	for _, p := range cvTunables(r.opts) {
		have := p.get(&cur)
		for _, v := range p.values {
			if v == have {
				continue
			}
			try := cur
			p.set(&try, v)
			got, err := r.objective(try, train)
			if err != nil {
				return cur, 0, err
			}
			if got > best+1e-9 {
				best, cur = got, try
			}
		}
	}
	return cur, best, nil
}

// changed lists the tunables whose value in t differs from def.
func changed(def, t recall.Tuning) map[string]float64 {
	out := map[string]float64{}
	for _, p := range locomoTunables() {
		if v := p.get(&t); v != p.get(&def) {
			out[p.name] = v
		}
	}
	return out
}

// crossValidate holds out each conversation in turn.
func crossValidate(ctx context.Context, convs []*locomoConv, def recall.Tuning, opts LocomoOptions) (LocomoCV, error) {
	t0 := time.Now()
	r := &cvRunner{ctx: ctx, convs: convs, opts: opts, cache: map[string][]int{}}
	var cv LocomoCV
	if len(cvTunables(opts)) != len(opts.CVOnly) && len(opts.CVOnly) > 0 {
		return cv, fmt.Errorf("bench: unknown tunable in %v (known: %s)", opts.CVOnly, tunableNames())
	}
	for _, p := range cvTunables(opts) {
		cv.Tuned = append(cv.Tuned, p.name)
	}
	score := newLocomoScore()
	for held := range convs {
		var train []int
		for i := range convs {
			if i != held {
				train = append(train, i)
			}
		}
		tuned, obj, err := r.tune(def, train)
		if err != nil {
			return cv, err
		}
		ranks, err := r.ranks(tuned, held)
		if err != nil {
			return cv, err
		}
		fold := newLocomoScore()
		for i, q := range convs[held].qs {
			score.add(q.cat, ranks[i])
			fold.add(q.cat, ranks[i])
		}
		f := LocomoFold{Held: convs[held].smp.SampleID, Chosen: changed(def, tuned), Train: obj, Score: fold.set().Overall}
		cv.Folds = append(cv.Folds, f)
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "cv: held out %s: R@10 %.3f MRR %.3f, chose %s (%d runs, %s)\n", f.Held,
				f.Score.R10, f.Score.MRR, chosenText(f.Chosen), r.runs, time.Since(t0).Round(time.Second))
		}
	}
	all := make([]int, len(convs))
	for i := range all {
		all[i] = i
	}
	tunedAll, _, err := r.tune(def, all)
	if err != nil {
		return cv, err
	}
	cv.AllFive = changed(def, tunedAll)
	cv.LocomoSet = score.set()
	cv.Evaluations = r.runs
	cv.Took = time.Since(t0)
	return cv, nil
}

func tunableNames() string {
	var names []string
	for _, p := range locomoTunables() {
		names = append(names, p.name)
	}
	return strings.Join(names, ", ")
}

func chosenText(m map[string]float64) string {
	if len(m) == 0 {
		return "the defaults"
	}
	var parts []string
	for _, p := range locomoTunables() {
		if v, ok := m[p.name]; ok {
			parts = append(parts, fmt.Sprintf("%s=%g", p.name, v))
		}
	}
	return strings.Join(parts, " ")
}
