package organizer

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"engram/backend/memory"
)

func TestNormalize(t *testing.T) {
	cases := map[string]string{
		"User prefers  DARK mode.":      "user prefers dark mode",
		"Don't use tabs!":               "dont use tabs",
		"ＡＢＣ　全角":                        "abc 全角",
		"- works_at [[Acme Corp]]":      "works at acme corp",
		"用户喜欢喝绿茶，不加糖。":                  "用户喜欢喝绿茶 不加糖",
		"  \n\t ":                       "",
		"version 3.14 of the tool":      "version 3 14 of the tool",
		"e-mail: someone@example.com":   "e mail someone example com",
		"It’s the user’s choice":        "its the users choice",
		"'quoted' words stay separated": "quoted words stay separated",
	}
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokensSegmentCJK(t *testing.T) {
	got := strings.Join(Tokens(Normalize("我喜欢茶 and Go")), "|")
	if want := "我喜|喜欢|欢茶|and|go"; got != want {
		t.Fatalf("Tokens = %q, want %q", got, want)
	}
}

// TestCompareTiers checks each near-duplicate tier and the pairs that must not match.
func TestCompareTiers(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		tier Tier
		// guarded says the fuzzy match differs in a number or negation.
		guarded bool
	}{
		{"exact after normalising", "User prefers dark mode.", "user prefers  DARK mode", TierExact, false},
		// The same words, but a word's symbols differ: never merged without a person.
		{"exact but C++ and C#", "The engine is written in C++ for speed.", "The engine is written in C# for speed.", TierExact, true},
		{"exact but -1 and 1", "Set RETRY_LIMIT to -1 in prod.", "Set RETRY_LIMIT to 1 in prod.", TierExact, true},
		{"exact with Markdown and quotes", "Use **tabs** in \"Go\" files.", "use tabs in go files", TierExact, false},
		// Typography is not a difference: curly quotes, a list's dash, a long dash, CJK marks.
		{"exact across typography", "- The build doesn’t run on Fridays — ever.", "The build doesn't run on Fridays - ever", TierExact, false},
		{"exact across CJK marks", "用户喜欢绿茶、咖啡。", "用户喜欢绿茶，咖啡", TierExact, false},
		{"contained but test-all and test all", "Run make test-all before pushing to main.",
			"Always run make test all before pushing to main, every single time.", TierContainment, true},
		{"containment", "The user prefers dark mode in every editor.",
			"The user prefers dark mode in every editor, and in the terminal too, because bright screens hurt.", TierContainment, false},
		{"containment reversed arguments",
			"The user prefers dark mode in every editor, and in the terminal too, because bright screens hurt.",
			"The user prefers dark mode in every editor.", TierContainment, false},
		{"containment needs word boundaries", "The user prefers dark mode in every editor",
			"The user prefers dark modes in every editors window", TierNone, false},
		{"containment of CJK", "用户喜欢喝绿茶", "用户喜欢喝绿茶，不加糖。", TierContainment, false},
		{"too short to contain", "uses go", "the user uses go daily at work for every backend service", TierNone, false},
		{"cosine", "The project uses PostgreSQL for the main database and Redis for caching sessions.",
			"The project uses PostgreSQL for its main database and Redis for caching sessions.", TierCosine, false},
		{"jaccard on a reordered list", "Favourite drinks: tea, coffee, juice, water, milk, soda, lemonade.",
			"Favourite drinks: milk, water, soda, lemonade, tea, juice, coffee.", TierJaccard, false},
		{"numbers differ", "The team meets every Monday at 10 for the sprint planning session with the whole group.",
			"The team meets every Monday at 11 for the sprint planning session with the whole group.", TierCosine, true},
		{"tabs versus spaces", "User prefers tabs for indentation in Go files.",
			"User prefers spaces for indentation in Go files.", TierNone, false},
		{"unrelated", "The user lives in Berlin and works remotely.",
			"Deploys go out on Fridays after the release review.", TierNone, false},
		{"empty", "", "anything at all here", TierNone, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			an := NewAnalyzer()
			a, b := an.Analyze(tc.a), an.Analyze(tc.b)
			m := Compare(a, b)
			if m.Tier != tc.tier {
				t.Fatalf("tier = %q (score %.3f, cosine %.3f, jaccard %.3f), want %q", m.Tier, m.Score, Cosine(a, b), Jaccard(a, b), tc.tier)
			}
			if m.Guarded != tc.guarded {
				t.Fatalf("guarded = %v, want %v", m.Guarded, tc.guarded)
			}
			if back := Compare(b, a); back.Tier != m.Tier {
				t.Fatalf("Compare is not symmetric: %q then %q", m.Tier, back.Tier)
			}
			if tc.tier != TierNone {
				conf := tierConfidence(m)
				if tc.guarded && conf >= LowConfidence {
					t.Fatalf("guarded match has confidence %.2f, want below %.2f", conf, LowConfidence)
				}
				if !tc.guarded && conf < 0.75 {
					t.Fatalf("confidence %.2f is lower than any tier allows", conf)
				}
			}
		})
	}
}

// TestNegationNeverAutoMerges: a statement and its negation must never be merged unattended.
func TestNegationNeverAutoMerges(t *testing.T) {
	an := NewAnalyzer()
	a := an.Analyze("The user likes long detailed answers with many code examples and references.")
	b := an.Analyze("The user does not like long detailed answers with many code examples and references.")
	m := Compare(a, b)
	if m.Tier != TierNone && tierConfidence(m) >= LowConfidence {
		t.Fatalf("negated pair matched %q with confidence %.2f", m.Tier, tierConfidence(m))
	}
}

func TestMergeBodies(t *testing.T) {
	cases := []struct {
		name   string
		keeper string
		others []string
		want   string
	}{
		{"duplicate adds nothing", "User prefers dark mode.", []string{"user prefers dark mode"}, "User prefers dark mode."},
		{"superset replaces", "User prefers dark mode.", []string{"User prefers dark mode. Also in the terminal."},
			"User prefers dark mode. Also in the terminal."},
		{"new sentences are appended", "Uses Go for the backend. Deploys on Fridays.",
			[]string{"Deploys on Fridays. Tests run in CI before every merge."},
			"Uses Go for the backend. Deploys on Fridays.\n\nTests run in CI before every merge."},
		{"short sentences are kept unless equal", "No. The build is green.", []string{"Yes. The build is green."},
			"No. The build is green.\n\nYes."},
		{"CJK sentences", "用户喜欢绿茶。", []string{"用户喜欢绿茶。不加糖。"}, "用户喜欢绿茶。不加糖。"},
		// The keeper's exact command is kept, and the other's different symbols too.
		{"symbols are kept", "Run `make test-all` before pushing.", []string{"Always run make test all before pushing to main."},
			"Run `make test-all` before pushing.\n\nAlways run make test all before pushing to main."},
		{"C++ and C# both stay", "Written in C++.", []string{"Written in C#."}, "Written in C++.\n\nWritten in C#."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := mergeBodies(tc.keeper, tc.others); got != tc.want {
				t.Fatalf("mergeBodies = %q, want %q", got, tc.want)
			}
		})
	}
}

// BenchmarkStructuralGroups measures the pairwise tiers over one full scope instance (500
// entries of one type, the quota limit).
func BenchmarkStructuralGroups(b *testing.B) {
	words := strings.Fields("the user prefers dark mode tea coffee berlin go rust deploys fridays review tests ci docs api " +
		"database redis postgres cache editor terminal tabs spaces morning evening project build release meeting team")
	var entries []*memory.Memory
	for i := 0; i < 500; i++ {
		var sb strings.Builder
		for j := 0; j < 12+i%20; j++ {
			sb.WriteString(words[(i*7+j*13+j*j)%len(words)])
			sb.WriteByte(' ')
		}
		entries = append(entries, &memory.Memory{ID: fmt.Sprintf("%04d", i), Scope: memory.ScopeGlobal, Type: memory.TypeUser,
			Body: sb.String()})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (StructuralClusterer{}).Groups(context.Background(), ScopeInstance{Scope: memory.ScopeGlobal}, entries, MaxClusterSize); err != nil {
			b.Fatal(err)
		}
	}
}
