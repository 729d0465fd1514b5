//go:build bench

package bench

import (
	"context"
	"fmt"
	"io"
	"math"
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
	hand  float64
	x     [recall.NumFeatures]float64
	label bool
}

// learnQ is one question's candidates.
type learnQ struct {
	cat  string
	rows []learnRow
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
		lq := learnQ{cat: q.cat}
		for _, r := range rows {
			src := r.Memory.Source
			ev := q.ev[fmt.Sprintf("D%s:%d", strings.TrimPrefix(src.Session, c.smp.SampleID+"/D"), src.Turn)]
			lq.rows = append(lq.rows, learnRow{hand: r.Hand, x: r.X, label: ev})
		}
		out[i] = lq
	}
	return out, nil
}

// learnRank is the 0-based rank of q's first evidence in the top 20 under weights w (-1 for
// none), with recall's floor at minRel of the best score.
func learnRank(q learnQ, w *[recall.NumFeatures]float64, minRel float64) int {
	type sc struct {
		s     float64
		label bool
	}
	list := make([]sc, 0, len(q.rows))
	best := 0.0
	for _, r := range q.rows {
		z := 0.0
		for i := range r.x {
			z += w[i] * r.x[i]
		}
		s := r.hand * math.Exp(z)
		list = append(list, sc{s, r.label})
		best = math.Max(best, s)
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].s > list[j].s })
	for i, it := range list {
		if i >= 20 || it.s < minRel*best {
			return -1
		}
		if it.label {
			return i
		}
	}
	return -1
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

// learnNegatives is how many of the best-ranked non-evidence candidates each evidence is
// paired with.
const learnNegatives = 40

// fitLearn fits the weights on qs with penalty lambda: pairwise logistic loss on standardised
// features, averaged per question, minimised by Adam from zero (the hand-shaped ranking).
func fitLearn(qs []learnQ, lambda float64) [recall.NumFeatures]float64 {
	const n = recall.NumFeatures
	type pair struct {
		base float64
		dx   [n]float64
		wt   float64
	}
	// Standardise on the rows the pairs use.
	var mean, sd [n]float64
	cnt := 0.0
	var pairs []pair
	pools := make([][]learnRow, 0, len(qs))
	for _, q := range qs {
		rows := append([]learnRow(nil), q.rows...)
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].hand > rows[j].hand })
		var pos, neg []learnRow
		for _, r := range rows {
			if r.label {
				pos = append(pos, r)
			} else if len(neg) < learnNegatives {
				neg = append(neg, r)
			}
		}
		if len(pos) == 0 || len(neg) == 0 {
			continue
		}
		pool := append(pos, neg...)
		pools = append(pools, pool)
		for _, r := range pool {
			for i := range r.x {
				mean[i] += r.x[i]
			}
			cnt++
		}
		wt := 1 / float64(len(pos)*len(neg))
		for _, p := range pos {
			for _, q := range neg {
				pr := pair{base: math.Log(p.hand) - math.Log(q.hand), wt: wt}
				for i := range p.x {
					pr.dx[i] = p.x[i] - q.x[i]
				}
				pairs = append(pairs, pr)
			}
		}
	}
	var w [n]float64
	if cnt == 0 || len(pairs) == 0 {
		return w
	}
	for i := range mean {
		mean[i] /= cnt
	}
	for _, pool := range pools {
		for _, r := range pool {
			for i := range r.x {
				d := r.x[i] - mean[i]
				sd[i] += d * d
			}
		}
	}
	for i := range sd {
		sd[i] = math.Sqrt(sd[i] / cnt)
	}
	for k := range pairs {
		for i := range pairs[k].dx {
			if sd[i] > 0 {
				pairs[k].dx[i] /= sd[i]
			} else {
				pairs[k].dx[i] = 0
			}
		}
	}
	nq := float64(len(pools))
	var m1, m2 [n]float64
	const lr, b1, b2, eps = 0.05, 0.9, 0.999, 1e-8
	for it := 1; it <= 400; it++ {
		var g [n]float64
		for _, p := range pairs {
			z := p.base
			for i := range w {
				z += w[i] * p.dx[i]
			}
			// d/dz log(1+e^-z) = -1/(1+e^z)
			s := -p.wt / (1 + math.Exp(z)) / nq
			for i := range g {
				g[i] += s * p.dx[i]
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

// learnLambdas are the penalties the inner cross-validation chooses from.
var learnLambdas = []float64{0.001, 0.01, 0.1, 1}

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
			w := fitLearn(train, lambda)
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
func learnLocomo(ctx context.Context, convs []*locomoConv, t recall.Tuning, progress io.Writer) (LocomoLearned, error) {
	var rep LocomoLearned
	t.Learned = [recall.NumFeatures]float64{}
	data := make([][]learnQ, len(convs))
	for i, c := range convs {
		qs, err := c.collectLearn(ctx, t)
		if err != nil {
			return rep, err
		}
		data[i] = qs
	}
	hand, cv := newLocomoScore(), newLocomoScore()
	var zero [recall.NumFeatures]float64
	for held := range convs {
		var train []int
		for i := range convs {
			if i != held {
				train = append(train, i)
			}
		}
		lambda, inner := chooseLambda(data, train, t.MinRelative)
		var tq []learnQ
		for _, c := range train {
			tq = append(tq, data[c]...)
		}
		w := fitLearn(tq, lambda)
		fold := newLocomoScore()
		for _, q := range data[held] {
			hand.add(q.cat, learnRank(q, &zero, t.MinRelative))
			k := learnRank(q, &w, t.MinRelative)
			cv.add(q.cat, k)
			fold.add(q.cat, k)
		}
		f := fold.set().Overall
		line := fmt.Sprintf("held out %-8s R@10 %.3f MRR %.3f (n %d); penalty %g (inner R@10+MRR %.3f)",
			convs[held].smp.SampleID, f.R10, f.MRR, f.N, lambda, inner)
		rep.Folds = append(rep.Folds, line)
		if progress != nil {
			fmt.Fprintln(progress, "learn: "+line)
		}
	}
	all := make([]int, len(convs))
	for i := range all {
		all[i] = i
	}
	rep.Lambda, _ = chooseLambda(data, all, t.MinRelative)
	var aq []learnQ
	for _, d := range data {
		aq = append(aq, d...)
	}
	rep.Weights = fitLearn(aq, rep.Lambda)
	rep.Hand, rep.CV = hand.set(), cv.set()
	return rep, nil
}
