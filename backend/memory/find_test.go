package memory

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"engram/backend/text"
)

func findSlugs(t *testing.T, e *env, q string, f Filter) []string {
	t.Helper()
	res, err := e.s.Find(e.ctx, q, f)
	if err != nil {
		t.Fatalf("Find(%q): %v", q, err)
	}
	var out []string
	for _, m := range res.Items {
		out = append(out, m.Slug)
	}
	if res.Total < len(out) {
		t.Errorf("Find(%q): total %d < %d items", q, res.Total, len(out))
	}
	return out
}

// The list search matches what a person has typed so far: word prefixes, Chinese words of
// two or more characters as phrases, a lone Chinese character anywhere (also at the end of a
// word), every term required; it finds nothing for a query that matches nothing.
func TestFindAsYouType(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("pg-note", "Postgres tuning", "Raise shared_buffers on the postgres box."))
	e.ok(wr("neovim-setup", "Editor", "Uses neovim with lazy.nvim."))
	e.ok(wr("cilantro", "口味", "不吃香菜，也不吃川菜里的辣椒。"))
	e.ok(wr("db-cn", "数据库选型", "团队用数据库 PostgreSQL 做订单。"))
	e.ok(wr("plus", "Languages", "Writes C++ and Go; arrows => everywhere."))
	// 茶 and 品 only ever end a run of characters: no bigram begins with them.
	e.ok(wr("tea", "饮品", "每天早上喝茶。"))

	cases := []struct {
		q    string
		want []string
		not  []string
	}{
		{"p", []string{"pg-note"}, []string{"neovim-setup"}},
		{"po", []string{"pg-note", "db-cn"}, []string{"neovim-setup", "cilantro"}},
		{"postgre", []string{"pg-note", "db-cn"}, nil},
		{"POSTGRES", []string{"pg-note"}, nil},
		{"neo laz", []string{"neovim-setup"}, []string{"pg-note"}},
		{"neovim postgres", nil, []string{"neovim-setup", "pg-note"}}, // every term must match
		{"香菜", []string{"cilantro"}, []string{"db-cn"}},
		{"数据库", []string{"db-cn"}, []string{"cilantro"}},
		{"数据", []string{"db-cn"}, nil},
		{"菜", []string{"cilantro"}, []string{"db-cn"}}, // the end of 香菜 / 川菜
		{"库 postgres", []string{"db-cn"}, []string{"pg-note"}},
		{"茶", []string{"tea"}, []string{"cilantro", "db-cn"}},
		{"品", []string{"tea"}, []string{"cilantro"}}, // the end of the title
		{"喝 茶", []string{"tea"}, nil},
		{"茶 库", nil, []string{"tea", "db-cn"}},
		{"C++", []string{"plus"}, nil},
		{"=>", []string{"plus"}, []string{"pg-note"}},
		{"zebra", nil, []string{"pg-note", "neovim-setup", "cilantro", "db-cn", "plus"}},
	}
	for _, tc := range cases {
		got := findSlugs(t, e, tc.q, Filter{})
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %v, want %s", tc.q, got, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%q: %v, should not find %s", tc.q, got, n)
			}
		}
	}
	if got := findSlugs(t, e, "   ", Filter{}); len(got) != 0 {
		t.Errorf("blank query found %v", got)
	}
	// The title counts most: a title match ranks above a body-only match.
	if got := findSlugs(t, e, "postgres", Filter{}); len(got) < 2 || got[0] != "pg-note" {
		t.Errorf("postgres: %v, want pg-note first", got)
	}
}

// Whatever a person types is searched as text: FTS5 syntax and SQL fragments never reach the
// index as syntax, so they give results or nothing, never an error.
func TestFindHostileQueries(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("quoted", "Quotes", `He said "near" the end -- and NEAR(this) * that 'x'`))
	for _, q := range []string{`"`, `*`, `NEAR(`, `'--`, `"near`, `a AND`, `OR NOT`, `title:x`, `^`, `(`, `)`, `-x`,
		"\x00", `\`, `%`, `_`, `NEAR(this`, `{title}: x`, `'; DROP TABLE memory_meta; --`} {
		if _, err := e.s.Find(e.ctx, q, Filter{}); err != nil {
			t.Errorf("Find(%q): %v", q, err)
		}
	}
	if got := findSlugs(t, e, `NEAR(this`, Filter{}); !slices.Contains(got, "quoted") {
		t.Errorf("NEAR(this: %v, want quoted (searched as words)", got)
	}
	if got := findSlugs(t, e, `%`, Filter{}); len(got) != 0 {
		t.Errorf("%%: %v, a LIKE wildcard must be literal", got)
	}
	long := make([]byte, FindMaxQueryBytes+1)
	for i := range long {
		long[i] = 'a'
	}
	if _, err := e.s.Find(e.ctx, string(long), Filter{}); CodeOf(err) != CodeInvalidQuery {
		t.Errorf("over-long query: %v, want %s", err, CodeInvalidQuery)
	}
	if _, err := e.s.Find(e.ctx, "x", Filter{Scope: "nowhere"}); CodeOf(err) != CodeInvalidScope {
		t.Errorf("bad scope: %v, want %s", err, CodeInvalidScope)
	}
}

// Pages follow one order, the filter applies, and the total counts every match.
func TestFindPagesAndFilters(t *testing.T) {
	e := newEnv(t)
	for i := range 25 {
		it := wr(fmt.Sprintf("note-%02d", i), fmt.Sprintf("Note %d about rust", i), "A body.")
		if i%5 == 0 {
			it.Confidence = ConfidenceLow
		}
		e.ok(it)
	}
	e.ok(wr("other", "Python", "A body."))
	res, err := e.s.Find(e.ctx, "rust", Filter{Limit: 10})
	if err != nil || res.Total != 25 || len(res.Items) != 10 || res.More {
		t.Fatalf("first page: total %d, %d items, more %v, err %v", res.Total, len(res.Items), res.More, err)
	}
	seen := map[string]bool{}
	for off := 0; off < 30; off += 10 {
		for _, s := range findSlugs(t, e, "rust", Filter{Limit: 10, Offset: off}) {
			if seen[s] {
				t.Errorf("offset %d repeats %s", off, s)
			}
			seen[s] = true
		}
	}
	if len(seen) != 25 {
		t.Errorf("three pages held %d memories, want 25", len(seen))
	}
	if got := findSlugs(t, e, "rust", Filter{Type: TypeProject}); len(got) != 0 {
		t.Errorf("type filter: %v", got)
	}
}

// BenchmarkFind is the list search over 4,000 memories (English and Chinese, ten agents):
// whole words, prefixes being typed, Chinese words and a lone character.
func BenchmarkFind(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir(), Options{Logger: quietLogger})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	words := []string{"postgres", "neovim", "kubernetes", "coffee", "python", "rust", "review", "deploy", "budget", "travel", "香菜", "川菜", "数据库", "部署"}
	const n = 4000
	for start := 0; start < n; start += 400 {
		var items []Item
		for i := start; i < start+400; i++ {
			w, v := words[i%len(words)], words[(i*7+3)%len(words)]
			items = append(items, Item{Op: OpWrite, Scope: ScopeAgent, Agent: fmt.Sprintf("bench-%d", i/400), Type: TypeReference,
				Slug: fmt.Sprintf("m-%d", i), Title: sp(fmt.Sprintf("Memory %d about %s", i, w)),
				Body: sp(fmt.Sprintf("Note %d: %s and %s. Line two of the body for the snippet.", i, w, v))})
		}
		if _, err := s.ApplyBatch(ctx, Batch{Items: items, Actor: ActorImport}); err != nil {
			b.Fatal(err)
		}
	}
	for _, q := range []string{"postgres", "po", "kub", "memory", "香菜", "数据库", "菜", "rust deploy"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Find(ctx, q, Filter{Limit: 100, NoDaily: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// An index built before every character began a token (schema 17: a run's last character was
// only the end of a bigram) is rebuilt at the upgrade, so a lone character is found there too.
func TestLoneCharacterAfterUpgrade(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("tea", "饮品", "每天早上喝茶。"))
	var rid int64
	if err := e.s.db.QueryRowContext(e.ctx, `SELECT rid FROM memory_meta WHERE slug = 'tea'`).Scan(&rid); err != nil {
		t.Fatal(err)
	}
	// Back to the row schema 17 wrote, and to schema 17.
	for _, q := range []string{
		`DELETE FROM memory_fts WHERE rowid = ?`,
		`INSERT INTO memory_fts(rowid, title, body, aliases) VALUES(?, '` + text.SegmentCJK("饮品 tea") + `', '` + text.SegmentCJK("每天早上喝茶。") + `', '')`,
	} {
		if _, err := e.s.db.ExecContext(e.ctx, q, rid); err != nil {
			t.Fatal(err)
		}
	}
	// Back to schema 17: later migrations' tables and triggers go with their rows.
	for _, q := range []string{`DROP TRIGGER memory_meta_stamps_insert`, `DROP TRIGGER memory_meta_stamps_delete`,
		`DROP TRIGGER memory_meta_stamps_update`, `DROP TABLE stamp_version`,
		`DROP TRIGGER memory_meta_vectors_insert`, `DROP TRIGGER memory_meta_vectors_delete`, `DROP TRIGGER memory_meta_vectors_update`,
		`DROP TRIGGER recall_vec_ins`, `DROP TRIGGER recall_vec_upd`, `DROP TRIGGER recall_vec_del`,
		`ALTER TABLE recall_vec_log DROP COLUMN tag`,
		`CREATE TRIGGER recall_vec_ins AFTER INSERT ON memory_vec BEGIN INSERT INTO recall_vec_log(rid) VALUES (NEW.rid); END`,
		`CREATE TRIGGER recall_vec_upd AFTER UPDATE ON memory_vec BEGIN INSERT INTO recall_vec_log(rid) VALUES (NEW.rid); END`,
		`CREATE TRIGGER recall_vec_del AFTER DELETE ON memory_vec BEGIN INSERT INTO recall_vec_log(rid) VALUES (OLD.rid); END`,
		// Step 23's columns.
		`ALTER TABLE memory_problems DROP COLUMN detail_key`, `ALTER TABLE memory_problems DROP COLUMN detail_args`,
		// Step 25's column.
		`ALTER TABLE session_turns DROP COLUMN cut_bytes`,
		`DROP INDEX session_turns_scope`, `ALTER TABLE session_turns DROP COLUMN scope_key`,
		`ALTER TABLE session_turns DROP COLUMN workdir`, // step 28
		`DELETE FROM schema_migrations WHERE version > 17`} {
		if _, err := e.s.db.ExecContext(e.ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH '"茶"*'`); n != 0 {
		t.Fatalf("the old row already begins a token with 茶 (%d matches): the test proves nothing", n)
	}
	e.reopen()
	if got := findSlugs(t, e, "茶", Filter{}); !slices.Equal(got, []string{"tea"}) {
		t.Fatalf("茶 after the upgrade: %v, want [tea]", got)
	}
}
