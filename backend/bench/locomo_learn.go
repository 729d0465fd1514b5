//go:build bench

package bench

import (
	"context"
	"encoding/gob"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"engram/backend/recall"
)

// The learned correction of recall's ranking (recall/learned.go), fit and cross-validated on
// the LoCoMo conversations. Each question is asked once with the hand-shaped ranking; the
// candidates it ranked are kept with their features and whether they are evidence. A linear
// model is fit by pairwise logistic regression (evidence against the non-evidence candidates
// ranked highest) with an L2 penalty; the final score of a candidate is its hand-shaped score
// times e^(w·x), ordered and cut at the floor the way recall does. The cross-validation holds
// each conversation out: the model that scores it was fit on the four others, and the penalty
// was chosen by leave-one-out among those four, so nothing about the held-out questions goes
// into what scores them. The weights recall ships are fit the same way on all five.

// learnRow is one ranked candidate of a question.
type learnRow struct {
	Hand  float64
	X     [recall.NumFeatures]float64
	Label bool
}

// learnQ is one question's candidates.
type learnQ struct {
	Cat  string
	Rows []learnRow
}

// collectLearn asks every question of c with tuning t and keeps its candidates.
func (c *locomoConv) collectLearn(ctx context.Context, t recall.Tuning) ([]learnQ, error) {
	var rows []recall.FeatureRow
	ropts := recall.Options{Tuning: t, Logger: c.quiet, Features: func(r []recall.FeatureRow) { rows = r }}
	if c.emb != nil {
		ropts.Embedder = c.emb
	}
	rec := recall.New(c.store, ropts)
	out := make([]learnQ, len(c.qs))
	for i, q := range c.qs {
		rows = nil
		if _, err := rec.Search(ctx, recall.SearchParams{Query: q.qa.Question, Limit: 20, NoTouch: true}); err != nil {
			return nil, err
		}
		lq := learnQ{Cat: q.cat}
		for _, r := range rows {
			src := r.Memory.Source
			ev := q.ev[fmt.Sprintf("D%s:%d", strings.TrimPrefix(src.Session, c.smp.SampleID+"/D"), src.Turn)]
			lq.Rows = append(lq.Rows, learnRow{Hand: r.Hand, X: r.X, Label: ev})
		}
		out[i] = lq
	}
	return out, nil
}

// learnRank is the 0-based rank of q's first evidence in the top 20 under weights w (-1 for
// none), with recall's floor at minRel of the best score.
func learnRank(q learnQ, w *[recall.NumFeatures]float64, minRel float64) int {
	best, pos := 0.0, -1.0
	score := func(r *learnRow) float64 {
		z := 0.0
		for i := range r.X {
			z += w[i] * r.X[i]
		}
		return r.Hand * math.Exp(z)
	}
	for k := range q.Rows {
		s := score(&q.Rows[k])
		best = math.Max(best, s)
		if q.Rows[k].Label {
			pos = math.Max(pos, s)
		}
	}
	if pos < 0 || pos < minRel*best {
		return -1
	}
	above := 0
	for k := range q.Rows {
		if !q.Rows[k].Label && score(&q.Rows[k]) > pos {
			above++
		}
	}
	if above >= 20 {
		return -1
	}
	return above
}

// learnObjective is R@10 plus MRR (as shares) of qs under w.
func learnObjective(qs []learnQ, w *[recall.NumFeatures]float64, minRel float64) float64 {
	if len(qs) == 0 {
		return 0
	}
	sum := 0.0
	for _, q := range qs {
		k := learnRank(q, w, minRel)
		if k >= 0 && k < 10 {
			sum++
		}
		if k >= 0 {
			sum += 1 / float64(k+1)
		}
	}
	return sum / float64(len(qs))
}

// learnMode is the fit's pair weighting: "lambda" or "" (every pair alike).
var learnMode = os.Getenv("ENGRAM_LEARN_MODE")

// learnNegatives is how many of the best-ranked non-evidence candidates each question keeps
// for the fit.
const learnNegatives = 60

// learnGain is what a question scores with its first evidence at rank r (0-based): R@10 plus
// reciprocal rank, as the objective counts it.
func learnGain(r int) float64 {
	g := 1 / float64(r+1)
	if r < 10 {
		g++
	}
	return g
}

// fitLearn fits the weights on qs with penalty lambda: pairwise logistic loss on standardised
// features between each evidence candidate and the non-evidence ones, every pair weighted by
// how much swapping the two would change the objective under the current weights (LambdaRank),
// so the fit spends itself on the top of the list; minimised by Adam from zero (the
// hand-shaped ranking).
func fitLearn(qs []learnQ, lambda float64) [recall.NumFeatures]float64 {
	const n = recall.NumFeatures
	type item struct {
		base  float64
		x     [n]float64
		label bool
		s     float64
	}
	var mean, sd [n]float64
	cnt := 0.0
	var pools [][]item
	for _, q := range qs {
		rows := append([]learnRow(nil), q.Rows...)
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Hand > rows[j].Hand })
		var pool []item
		pos, neg := 0, 0
		for _, r := range rows {
			if !r.Label {
				if neg >= learnNegatives {
					continue
				}
				neg++
			} else {
				pos++
			}
			pool = append(pool, item{base: math.Log(r.Hand), x: r.X, label: r.Label})
			for i := range r.X {
				mean[i] += r.X[i]
			}
			cnt++
		}
		if pos > 0 && neg > 0 {
			pools = append(pools, pool)
		}
	}
	var w [n]float64
	if len(pools) == 0 {
		return w
	}
	for i := range mean {
		mean[i] /= cnt
	}
	for _, pool := range pools {
		for _, it := range pool {
			for i := range it.x {
				d := it.x[i] - mean[i]
				sd[i] += d * d
			}
		}
	}
	for i := range sd {
		sd[i] = math.Sqrt(sd[i] / cnt)
	}
	for _, pool := range pools {
		for k := range pool {
			for i := range pool[k].x {
				if sd[i] > 0 {
					pool[k].x[i] = (pool[k].x[i] - mean[i]) / sd[i]
				} else {
					pool[k].x[i] = 0
				}
			}
		}
	}
	nq := float64(len(pools))
	var m1, m2 [n]float64
	const lr, b1, b2, eps = 0.05, 0.9, 0.999, 1e-8
	order := make([]int, 0, learnNegatives+8)
	rank := make([]int, 0, learnNegatives+8)
	for it := 1; it <= 300; it++ {
		var g [n]float64
		for _, pool := range pools {
			order, rank = order[:0], rank[:0]
			for k := range pool {
				s := pool[k].base
				for i := range w {
					s += w[i] * pool[k].x[i]
				}
				pool[k].s = s
				order = append(order, k)
				rank = append(rank, 0)
			}
			sort.SliceStable(order, func(a, b int) bool { return pool[order[a]].s > pool[order[b]].s })
			for r, k := range order {
				rank[k] = r
			}
			// Only the best-ranked evidence counts in the objective.
			first := -1
			for _, k := range order {
				if pool[k].label {
					first = k
					break
				}
			}
			np := 0
			for _, p := range pool {
				if p.label {
					np++
				}
			}
			for kp, p := range pool {
				if !p.label || (learnMode == "lambda" && kp != first) {
					continue
				}
				for k, q := range pool {
					if q.label {
						continue
					}
					dw := 1 / float64(np*(len(pool)-np))
					if learnMode == "lambda" {
						dw = math.Abs(learnGain(rank[first]) - learnGain(rank[k]))
					}
					if dw == 0 {
						continue
					}
					z := p.s - q.s
					c := -dw / (1 + math.Exp(z)) / nq
					for i := range g {
						g[i] += c * (p.x[i] - q.x[i])
					}
				}
			}
		}
		for i := range w {
			g[i] += 2 * lambda * w[i]
			m1[i] = b1*m1[i] + (1-b1)*g[i]
			m2[i] = b2*m2[i] + (1-b2)*g[i]*g[i]
			mh := m1[i] / (1 - math.Pow(b1, float64(it)))
			vh := m2[i] / (1 - math.Pow(b2, float64(it)))
			w[i] -= lr * mh / (math.Sqrt(vh) + eps)
		}
	}
	var raw [n]float64
	for i := range w {
		if sd[i] > 0 {
			raw[i] = w[i] / sd[i]
		}
	}
	return raw
}

// ascentLearn fits the weights by coordinate ascent on the objective itself over qs (each
// question cut to its evidence and its best learnNegatives other candidates): a weight moves
// by a step of its feature's spread when that raises R@10+MRR by more than minGain.
func ascentLearn(qs []learnQ, minGain, minRel float64) [recall.NumFeatures]float64 {
	const n = recall.NumFeatures
	var cut []learnQ
	var mean, sd [n]float64
	cnt := 0.0
	for _, q := range qs {
		rows := append([]learnRow(nil), q.Rows...)
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Hand > rows[j].Hand })
		var keep []learnRow
		neg := 0
		for _, r := range rows {
			if !r.Label {
				if neg >= learnNegatives {
					continue
				}
				neg++
			}
			keep = append(keep, r)
			for i := range r.X {
				mean[i] += r.X[i]
				sd[i] += r.X[i] * r.X[i]
			}
			cnt++
		}
		cut = append(cut, learnQ{Cat: q.Cat, Rows: keep})
	}
	var w [n]float64
	if cnt == 0 {
		return w
	}
	for i := range sd {
		mean[i] /= cnt
		sd[i] = math.Sqrt(math.Max(sd[i]/cnt-mean[i]*mean[i], 0))
	}
	cur := learnObjective(cut, &w, minRel)
	steps := []float64{-1, -0.5, -0.25, 0.25, 0.5, 1}
	for pass := 0; pass < 3; pass++ {
		moved := false
		for i := 0; i < n; i++ {
			if sd[i] == 0 {
				continue
			}
			bestW, bestObj := w[i], cur
			for _, st := range steps {
				try := w
				try[i] = w[i] + st/sd[i]
				if got := learnObjective(cut, &try, minRel); got > bestObj+minGain {
					bestW, bestObj = try[i], got
				}
			}
			if bestW != w[i] {
				w[i], cur, moved = bestW, bestObj, true
			}
		}
		if !moved {
			break
		}
	}
	return w
}

// learnLambdas are the penalties the inner cross-validation chooses from.
var learnLambdas = []float64{0.001, 0.01, 0.1, 1}

func fitMode(qs []learnQ, lambda, minRel float64) [recall.NumFeatures]float64 {
	if learnMode == "ascent" {
		// The penalty is read as the least gain a step must bring, in thousandths.
		return ascentLearn(qs, lambda/100, minRel)
	}
	return fitLearn(qs, lambda)
}

// chooseLambda picks the penalty by leave-one-conversation-out among convs (ties keep the
// larger penalty) and returns it with its inner objective.
func chooseLambda(data [][]learnQ, convs []int, minRel float64) (float64, float64) {
	best, bestObj := learnLambdas[len(learnLambdas)-1], -1.0
	for li := len(learnLambdas) - 1; li >= 0; li-- {
		lambda := learnLambdas[li]
		var all []learnQ
		obj := 0.0
		for _, held := range convs {
			var train []learnQ
			for _, c := range convs {
				if c != held {
					train = append(train, data[c]...)
				}
			}
			w := fitMode(train, lambda, minRel)
			obj += learnObjective(data[held], &w, minRel) * float64(len(data[held]))
			all = append(all, data[held]...)
		}
		obj /= float64(len(all))
		if obj > bestObj+1e-9 {
			best, bestObj = lambda, obj
		}
	}
	return best, bestObj
}

// LocomoLearned is the cross-validated report of the learned correction.
type LocomoLearned struct {
	// Hand is the hand-shaped ranking scored offline on the kept candidates (it must equal the
	// benchmark's in-sample figures), CV the learned one held out.
	Hand, CV LocomoSet
	Folds    []string
	// Weights are fit on all five with Lambda (chosen by leave-one-out on the five).
	Weights [recall.NumFeatures]float64
	Lambda  float64
}

// learnLocomo collects every conversation's candidates with tuning t and cross-validates the
// learned correction over them.
func learnLocomo(ctx context.Context, convs []*locomoConv, t recall.Tuning, dump string, progress io.Writer) (LocomoLearned, error) {
	t.Learned = [recall.NumFeatures]float64{}
	data := make([][]learnQ, len(convs))
	for i, c := range convs {
		qs, err := c.collectLearn(ctx, t)
		if err != nil {
			return LocomoLearned{}, err
		}
		data[i] = qs
	}
	if dump != "" {
		if err := saveLearn(dump, data, convs); err != nil {
			return LocomoLearned{}, err
		}
	}
	return crossLearn(data, convNames(convs), t.MinRelative, progress), nil
}

func convNames(convs []*locomoConv) []string {
	var out []string
	for _, c := range convs {
		out = append(out, c.smp.SampleID)
	}
	return out
}

// learnDump is the collected candidates, saved so that the fit can be re-run without the
// conversations (TestLocomoLearnDump).
type learnDump struct {
	Names []string
	Data  [][]learnQ
}

func saveLearn(path string, data [][]learnQ, convs []*locomoConv) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("bench: unable to save the candidates: %w", err)
	}
	defer f.Close()
	return gob.NewEncoder(f).Encode(learnDump{Names: convNames(convs), Data: data})
}

func loadLearn(path string) (learnDump, error) {
	var d learnDump
	f, err := os.Open(path)
	if err != nil {
		return d, err
	}
	defer f.Close()
	err = gob.NewDecoder(f).Decode(&d)
	return d, err
}

// crossLearn cross-validates the learned correction over the collected candidates.
func crossLearn(data [][]learnQ, names []string, minRel float64, progress io.Writer) LocomoLearned {
	var rep LocomoLearned
	hand, cv := newLocomoScore(), newLocomoScore()
	var zero [recall.NumFeatures]float64
	for held := range data {
		var train []int
		for i := range data {
			if i != held {
				train = append(train, i)
			}
		}
		lambda, inner := chooseLambda(data, train, minRel)
		var tq []learnQ
		for _, c := range train {
			tq = append(tq, data[c]...)
		}
		w := fitMode(tq, lambda, minRel)
		fold := newLocomoScore()
		for _, q := range data[held] {
			hand.add(q.Cat, learnRank(q, &zero, minRel))
			k := learnRank(q, &w, minRel)
			cv.add(q.Cat, k)
			fold.add(q.Cat, k)
		}
		f := fold.set().Overall
		line := fmt.Sprintf("held out %-8s R@10 %.3f MRR %.3f (n %d); penalty %g (inner R@10+MRR %.3f)",
			names[held], f.R10, f.MRR, f.N, lambda, inner)
		rep.Folds = append(rep.Folds, line)
		if progress != nil {
			fmt.Fprintln(progress, "learn: "+line)
		}
	}
	all := make([]int, len(data))
	for i := range all {
		all[i] = i
	}
	rep.Lambda, _ = chooseLambda(data, all, minRel)
	var aq []learnQ
	for _, d := range data {
		aq = append(aq, d...)
	}
	rep.Weights = fitMode(aq, rep.Lambda, minRel)
	rep.Hand, rep.CV = hand.set(), cv.set()
	if progress != nil {
		fmt.Fprintf(progress, "learn: in sample with the five-fold fit: R@10+MRR %.3f (hand %.3f)\n",
			learnObjective(aq, &rep.Weights, minRel), learnObjective(aq, &zero, minRel))
	}
	return rep
}
