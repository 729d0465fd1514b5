package memory

import (
	"bytes"
	"strings"
	"testing"
)

// D13: `import --keep-review` restores a journal day with its own source (source.kind user),
// as it does every other field; without --keep-review the day is the import's. It became
// "import" either way. Needs the daily.go change in /tmp/impfix/daily.go.patch.
func TestKeepReviewKeepsAJournalDaysSource(t *testing.T) {
	for _, tc := range []struct {
		name string
		keep bool
		want string
	}{
		{"--keep-review", true, ActorUser},
		{"plain import", false, ActorImport},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := newEnv(t), newEnv(t)
			day := a.ok(Item{Op: OpAppendDaily, Text: "Shipped the importer."})
			if got := a.get(day.ID).Source.Kind; got != ActorUser {
				t.Fatalf("the day's own source is %q", got)
			}
			var exp bytes.Buffer
			if _, err := a.s.Export(a.ctx, &exp, Filter{}); err != nil {
				t.Fatal(err)
			}
			rep, err := b.s.ImportWith(b.ctx, strings.NewReader(exp.String()), ImportOptions{KeepReview: tc.keep})
			if err != nil || rep.Daily != 1 {
				t.Fatalf("import %+v %v", rep, err)
			}
			if got := b.get(day.ID).Source.Kind; got != tc.want {
				t.Fatalf("restored day's source.kind %q, want %q", got, tc.want)
			}
		})
	}
}
