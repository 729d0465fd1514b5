//go:build bench

// Package bench measures Engram: scale figures for the store and retrieval quality on LoCoMo.
// Benchmarks report numbers; they never pass or fail on speed.
package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/memory"
	"engram/backend/recall"
)

// StoreFigures are the scale measurements at one size.
type StoreFigures struct {
	N                  int     `json:"n"`
	GenerateSec        float64 `json:"generate_s"`
	ColdBuildSec       float64 `json:"cold_build_s"`
	WarmStartSec       float64 `json:"warm_start_s"`
	SearchP50Ms        float64 `json:"search_p50_ms"`
	SearchP95Ms        float64 `json:"search_p95_ms"`
	SearchCJKP95Ms     float64 `json:"search_cjk_p95_ms"`
	SearchCJK1P95Ms    float64 `json:"search_cjk1_p95_ms"`
	FindCJK1P95Ms      float64 `json:"find_cjk1_p95_ms"`
	FacetFirstMs       float64 `json:"facet_first_ms"`
	FacetP50Ms         float64 `json:"facet_p50_ms"`
	FacetP95Ms         float64 `json:"facet_p95_ms"`
	ApplyBatchItemsSec float64 `json:"apply_batch_items_per_s"`
	EditSearchableP50  float64 `json:"edit_to_searchable_p50_ms"`
	EditSearchableMax  float64 `json:"edit_to_searchable_max_ms"`
	RSSMiB             float64 `json:"rss_mib"`
	PeakRSSMiB         float64 `json:"peak_rss_mib"`
	IndexMiB           float64 `json:"index_mib"`
	BaselineBuildSec   float64 `json:"baseline_fts5_build_s"`
	BaselineP50Ms      float64 `json:"baseline_fts5_search_p50_ms"`
	BaselineP95Ms      float64 `json:"baseline_fts5_search_p95_ms"`
}

var (
	enWords = strings.Fields(`project deploy kubernetes postgres migration review latency cache token budget agent
		memory editor vim emacs rust golang python typescript react vue sqlite index search ranking coffee tea
		morning evening meeting standup release branch commit rebase docker build test flaky benchmark profile
		pipeline invoice customer billing travel berlin tokyo paris hiking running guitar piano novel family
		birthday doctor dentist garden recipe pasta curry allergy peanut vegetarian keyboard monitor laptop`)
	zhWords = strings.Fields(`项目 部署 数据库 迁移 评审 延迟 缓存 预算 智能体 记忆 编辑器 搜索 排序 咖啡 绿茶 早上 晚上
		会议 发布 分支 提交 测试 性能 客户 账单 旅行 北京 上海 东京 爬山 跑步 吉他 钢琴 小说 家人 生日 医生
		花园 菜谱 面条 过敏 花生 素食 键盘 显示器 电脑 喜欢 讨厌 习惯 偏好 周末 假期 朋友 同事`)
	types = []memory.Type{memory.TypeUser, memory.TypeFeedback, memory.TypeProject, memory.TypeReference, memory.TypeExperience}
)

// vocab is a synthetic vocabulary whose word frequencies follow Zipf's law, like real notes:
// a few words everywhere, most words rare. Uniform sampling from a small list would make every
// query match a third of the store, which no real memory store sees.
type vocab struct {
	en, zh []string
	zipf   *rand.Zipf
}

var syllables = strings.Fields("ka ri to ne mo la su vi den par col mer tis bar gan fol ric ton sel mia dor pen lux tra nor")
var hanzi = []rune("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞")

func newVocab(r *rand.Rand) *vocab {
	v := &vocab{}
	for i := 0; i < 20000; i++ {
		n := 2 + r.IntN(2)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteString(syllables[r.IntN(len(syllables))])
		}
		v.en = append(v.en, b.String())
		v.zh = append(v.zh, string([]rune{hanzi[r.IntN(len(hanzi))], hanzi[r.IntN(len(hanzi))]}))
	}
	copy(v.en, enWords)
	copy(v.zh, zhWords)
	v.zipf = rand.NewZipf(r, 1.07, 2, uint64(len(v.en)-1))
	return v
}

func (v *vocab) sentence(r *rand.Rand, n int) string {
	var b strings.Builder
	zh := r.IntN(3) == 0
	for i := 0; i < n; i++ {
		k := v.zipf.Uint64()
		if zh {
			b.WriteString(v.zh[k])
			if r.IntN(6) == 0 {
				b.WriteString("，")
			}
			continue
		}
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(v.en[k])
	}
	if zh {
		b.WriteString("。")
	} else {
		b.WriteString(".")
	}
	return b.String()
}

// query picks words the way people search: mostly specific (mid-frequency) words.
func (v *vocab) query(r *rand.Rand, zh bool) string {
	pick := func() int { return 20 + r.IntN(2000) }
	if zh {
		return v.zh[pick()]
	}
	return v.en[pick()] + " " + v.en[pick()]
}

// generate writes n memory files directly (as a person's synced folder would arrive), spread
// over global, a few projects and agents so no scope instance exceeds the quota.
func generate(root string, n int, r *rand.Rand, v *vocab) ([]string, error) {
	now := time.Now()
	docs := make([]string, 0, n)
	for i := 0; i < n; i++ {
		m := &memory.Memory{ID: ulid.Make().String(), Slug: fmt.Sprintf("mem-%07d", i), Type: types[i%len(types)],
			Confidence: memory.ConfidenceMedium, Reviewed: i%3 != 0, SourceQuote: "synthetic",
			Created: now.Add(-time.Duration(r.IntN(400*24)) * time.Hour), Updated: now}
		m.Title = v.sentence(r, 4)
		m.Body = v.sentence(r, 20+r.IntN(40)) + "\n\n" + v.sentence(r, 10+r.IntN(20))
		m.Scope = memory.ScopeAgent
		m.Agent = fmt.Sprintf("agent-%04d", i/400)
		data, err := memory.Render(m)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(root, "memory", "agents", m.Agent, string(m.Type), m.Slug+".md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, err
		}
		docs = append(docs, m.Title+"\n"+m.Body)
	}
	return docs, nil
}

func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	idx := int(float64(len(s)-1) * p)
	return float64(s[idx].Microseconds()) / 1000
}

func procStatusMiB(field string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, field+":") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}

// facetQuestions ask about the person in both languages (recall's facet path).
var facetQuestions = []string{"what is my name", "where do I live", "what do I like to drink", "where do I work",
	"how old am I", "what do I do for fun", "我叫什么名字", "我住在哪里", "我喜欢喝什么", "我有什么忌口", "我是哪里人", "am I allergic to anything"}

func queries(r *rand.Rand, v *vocab, n int, zh bool) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = v.query(r, zh)
	}
	return out
}

// RunStore measures the store at size n in a fresh temporary home and removes it afterwards.
func RunStore(ctx context.Context, n int, progress io.Writer) (StoreFigures, error) {
	f := StoreFigures{N: n}
	home, err := os.MkdirTemp("", "engram-bench-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(home)
	r := rand.New(rand.NewPCG(uint64(n), 42))
	// Each phase labels the goroutine (and those it starts) with its name, so a profile of the
	// run (ENGRAM_BENCH_CPUPROFILE) can be cut to one: go tool pprof -tagfocus 'phase=…'.
	say := func(format string, a ...any) {
		pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("phase", fmt.Sprintf(format, a...))))
		if progress != nil {
			fmt.Fprintf(progress, "  [%d] "+format+"\n", append([]any{n}, a...)...)
		}
	}
	say("generating %d memory files", n)
	t0 := time.Now()
	v := newVocab(r)
	docs, err := generate(home, n, r, v)
	if err != nil {
		return f, err
	}
	f.GenerateSec = time.Since(t0).Seconds()

	say("cold index build")
	t0 = time.Now()
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		return f, err
	}
	f.ColdBuildSec = time.Since(t0).Seconds()
	st.Close()

	say("warm start")
	t0 = time.Now()
	st, err = memory.Open(ctx, home, memory.Options{})
	if err != nil {
		return f, err
	}
	f.WarmStartSec = time.Since(t0).Seconds()
	defer st.Close()

	// Searches go through recall, lexical paths only (no embedder): the one ranker agents use.
	rec := recall.New(st, recall.Options{})
	search := func(q string, limit int) (recall.SearchResult, error) {
		return rec.Search(ctx, recall.SearchParams{Query: q, Limit: limit, NoTouch: true})
	}
	say("search latency")
	var lat, latZH []time.Duration
	for _, q := range queries(r, v, 300, false) {
		t := time.Now()
		if _, err := search(q, 10); err != nil {
			return f, err
		}
		lat = append(lat, time.Since(t))
	}
	for _, q := range queries(r, v, 200, true) {
		t := time.Now()
		if _, err := search(q, 10); err != nil {
			return f, err
		}
		latZH = append(latZH, time.Since(t))
	}
	f.SearchP50Ms, f.SearchP95Ms, f.SearchCJKP95Ms = percentile(lat, .5), percentile(lat, .95), percentile(latZH, .95)

	// One Chinese character, as a person types the first of a word: recall, and the list's
	// search box (memory.find, one page).
	say("one-character search latency")
	var lat1, find1 []time.Duration
	for _, q := range queries(r, v, 100, true) {
		c := string([]rune(q)[r.IntN(2)])
		t := time.Now()
		if _, err := search(c, 10); err != nil {
			return f, err
		}
		lat1 = append(lat1, time.Since(t))
		t = time.Now()
		if _, err := st.Find(ctx, c, memory.Filter{Limit: 100}); err != nil {
			return f, err
		}
		find1 = append(find1, time.Since(t))
	}
	f.SearchCJK1P95Ms, f.FindCJK1P95Ms = percentile(lat1, .95), percentile(find1, .95)

	// Identity and preference questions read every visible user memory (a fifth of the
	// corpus, up to recall's cap): the first pays for reading them, the rest find them read.
	say("identity question latency")
	var latFacet []time.Duration
	for i := 0; i < 120; i++ {
		t := time.Now()
		if _, err := search(facetQuestions[i%len(facetQuestions)], 10); err != nil {
			return f, err
		}
		if i == 0 {
			f.FacetFirstMs = float64(time.Since(t).Microseconds()) / 1000
			continue
		}
		latFacet = append(latFacet, time.Since(t))
	}
	f.FacetP50Ms, f.FacetP95Ms = percentile(latFacet, .5), percentile(latFacet, .95)

	say("apply_batch throughput")
	const batches, per = 10, 100
	t0 = time.Now()
	for b := 0; b < batches; b++ {
		items := make([]memory.Item, per)
		for i := range items {
			title, body := v.sentence(r, 4), v.sentence(r, 30)
			items[i] = memory.Item{Op: memory.OpWrite, Scope: memory.ScopeAgent, Agent: fmt.Sprintf("bench-%02d", b),
				Type: memory.TypeReference, Slug: fmt.Sprintf("batch-%02d-%03d", b, i), Title: &title, Body: &body}
		}
		res, err := st.ApplyBatch(ctx, memory.Batch{Items: items, Actor: memory.ActorTool})
		if err != nil {
			return f, err
		}
		if res.Failed > 0 {
			return f, fmt.Errorf("bench: %d batch items failed: %s", res.Failed, res.Results[0].Message)
		}
	}
	f.ApplyBatchItemsSec = float64(batches*per) / time.Since(t0).Seconds()

	say("external edit → searchable")
	if err := os.MkdirAll(filepath.Join(home, "memory", "global", "reference"), 0o755); err != nil {
		return f, err
	}
	wctx, cancel := context.WithCancel(ctx)
	ready := make(chan struct{})
	done := make(chan struct{})
	go func() { _ = st.Watch(wctx, ready); close(done) }()
	<-ready
	var edits []time.Duration
	for i := 0; i < 10; i++ {
		token := fmt.Sprintf("zqxedit%dtoken", i)
		m := &memory.Memory{ID: ulid.Make().String(), Slug: fmt.Sprintf("edit-%02d", i), Title: "Hand edit " + token,
			Scope: memory.ScopeGlobal, Type: memory.TypeReference, Confidence: memory.ConfidenceLow,
			Body: "Written by hand " + token, Created: time.Now(), Updated: time.Now()}
		data, _ := memory.Render(m)
		t := time.Now()
		if err := os.WriteFile(filepath.Join(home, "memory", "global", "reference", m.Slug+".md"), data, 0o644); err != nil {
			cancel()
			return f, err
		}
		for {
			res, err := search(token, 1)
			if err == nil && len(res.Hits) > 0 {
				break
			}
			if time.Since(t) > 10*time.Second {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		edits = append(edits, time.Since(t))
	}
	cancel()
	<-done
	f.EditSearchableP50 = percentile(edits, .5)
	f.EditSearchableMax = percentile(edits, 1)
	runtime.GC()
	f.RSSMiB = procStatusMiB("VmRSS")
	f.PeakRSSMiB = procStatusMiB("VmHWM")
	if info, err := os.Stat(filepath.Join(home, "memory", "index.sqlite3")); err == nil {
		f.IndexMiB = float64(info.Size()) / (1 << 20)
	}

	say("plain FTS5 BM25 baseline")
	if err := baseline(ctx, filepath.Join(home, "baseline.sqlite3"), docs, r, v, &f); err != nil {
		return f, err
	}
	return f, nil
}

// baseline builds a plain FTS5 table of the same documents and times BM25 queries on it.
func baseline(ctx context.Context, path string, docs []string, r *rand.Rand, v *vocab, f *StoreFigures) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return err
	}
	defer db.Close()
	t0 := time.Now()
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE docs USING fts5(text)`); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO docs(text) VALUES(?)`, d); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	f.BaselineBuildSec = time.Since(t0).Seconds()
	var lat []time.Duration
	for _, q := range queries(r, v, 300, false) {
		t := time.Now()
		rows, err := db.QueryContext(ctx, `SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10`, plainQuery(q))
		if err != nil {
			return err
		}
		for rows.Next() {
		}
		rows.Close()
		lat = append(lat, time.Since(t))
	}
	f.BaselineP50Ms, f.BaselineP95Ms = percentile(lat, .5), percentile(lat, .95)
	return nil
}

// PrintStore writes figures as a table, or JSON.
func PrintStore(w io.Writer, figs []StoreFigures, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(figs)
		return
	}
	row := func(label string, get func(StoreFigures) string) {
		fmt.Fprintf(w, "%-34s", label)
		for _, f := range figs {
			fmt.Fprintf(w, "%14s", get(f))
		}
		fmt.Fprintln(w)
	}
	ff := func(v float64, unit string) string { return strconv.FormatFloat(v, 'f', 2, 64) + unit }
	row("memories", func(f StoreFigures) string { return strconv.Itoa(f.N) })
	row("cold index build from files", func(f StoreFigures) string { return ff(f.ColdBuildSec, " s") })
	row("warm start, nothing changed", func(f StoreFigures) string { return ff(f.WarmStartSec, " s") })
	row("search p50 (en)", func(f StoreFigures) string { return ff(f.SearchP50Ms, " ms") })
	row("search p95 (en)", func(f StoreFigures) string { return ff(f.SearchP95Ms, " ms") })
	row("search p95 (zh, 2 chars)", func(f StoreFigures) string { return ff(f.SearchCJKP95Ms, " ms") })
	row("search p95 (zh, 1 char)", func(f StoreFigures) string { return ff(f.SearchCJK1P95Ms, " ms") })
	row("list search p95 (zh, 1 char)", func(f StoreFigures) string { return ff(f.FindCJK1P95Ms, " ms") })
	row("identity question, first", func(f StoreFigures) string { return ff(f.FacetFirstMs, " ms") })
	row("identity question p50", func(f StoreFigures) string { return ff(f.FacetP50Ms, " ms") })
	row("identity question p95", func(f StoreFigures) string { return ff(f.FacetP95Ms, " ms") })
	row("apply_batch", func(f StoreFigures) string { return ff(f.ApplyBatchItemsSec, " it/s") })
	row("external edit → searchable p50", func(f StoreFigures) string { return ff(f.EditSearchableP50, " ms") })
	row("external edit → searchable max", func(f StoreFigures) string { return ff(f.EditSearchableMax, " ms") })
	row("process RSS after run", func(f StoreFigures) string { return ff(f.RSSMiB, " MiB") })
	row("process peak RSS", func(f StoreFigures) string { return ff(f.PeakRSSMiB, " MiB") })
	row("index size", func(f StoreFigures) string { return ff(f.IndexMiB, " MiB") })
	row("baseline FTS5 build", func(f StoreFigures) string { return ff(f.BaselineBuildSec, " s") })
	row("baseline FTS5 BM25 p50", func(f StoreFigures) string { return ff(f.BaselineP50Ms, " ms") })
	row("baseline FTS5 BM25 p95", func(f StoreFigures) string { return ff(f.BaselineP95Ms, " ms") })
}

// plainQuery is q's words as an OR of phrases for the plain FTS5 table, which tokenizes them
// itself (the word index's builder folds and stems them for its own table).
func plainQuery(q string) string {
	var parts []string
	for _, t := range memory.SplitQuery(q) {
		parts = append(parts, memory.QuotePhrase(t.Text))
	}
	return strings.Join(parts, " OR ")
}
