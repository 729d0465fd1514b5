package extraction

import (
	"testing"
	"time"

	"engram/backend/memory"
)

// TestDeriveProfile: the profile is read from the person-profile signal lines, the global user
// memories and the experiences (English and Chinese labels); topics older than 30 days, other
// scopes and repeated values are left out; every entry names the memory that says it.
func TestDeriveProfile(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	mems := []*memory.Memory{
		{ID: "P", Slug: ProfileSlug, Scope: memory.ScopeGlobal, Type: memory.TypeUser, Updated: now.Add(-time.Hour),
			Body: "- role: backend engineer\n- preferred_tool: Neovim\n- preferred_tool: neovim\n- recent_topic: Postgres replication\n- pain_point: flaky CI\n- unknown_kind: x\nfree text"},
		{ID: "N", Slug: "name-is-ada", Title: "Name is Ada", Scope: memory.ScopeGlobal, Type: memory.TypeUser, Updated: now.Add(-2 * time.Hour), Reviewed: true},
		{ID: "X", Slug: "proj-user", Title: "Not global", Scope: memory.ScopeProject, Type: memory.TypeUser, Updated: now},
		{ID: "E1", Slug: "deploy-grace", Title: "What worked: raise the grace period", Scope: memory.ScopeGlobal, Type: memory.TypeExperience, Updated: now.Add(-3 * time.Hour),
			Body: "Pain: deploys kept timing out\nSolution: raise the health-check grace period\nOutcome: deploys finish in two minutes"},
		{ID: "E2", Slug: "oom-fix", Title: "经验：限制并发", Scope: memory.ScopeGlobal, Type: memory.TypeExperience, Updated: now.Add(-4 * time.Hour),
			Body: "痛点：构建经常 OOM\n解决：限制并发为 2\n结果：再也没有失败"},
		{ID: "E3", Slug: "plain-exp", Title: "Plain", Scope: memory.ScopeGlobal, Type: memory.TypeExperience, Updated: now.Add(-5 * time.Hour),
			Body: "Use   ccache for C++ builds."},
	}
	p := DeriveProfile(mems, now)
	if p.ProfileID != "P" || len(p.Role) != 1 || p.Role[0].Value != "backend engineer" || p.Role[0].MemoryID != "P" {
		t.Fatalf("role %+v id %q", p.Role, p.ProfileID)
	}
	if len(p.PreferredTools) != 1 || p.PreferredTools[0].Value != "Neovim" {
		t.Fatalf("tools (a repeat differing in case is one) %+v", p.PreferredTools)
	}
	if len(p.RecentTopics) != 1 || len(p.About) != 1 || p.About[0].MemoryID != "N" || !p.About[0].Reviewed {
		t.Fatalf("topics %+v about %+v", p.RecentTopics, p.About)
	}
	if len(p.Experiences) != 3 || p.Experiences[0].Pain != "deploys kept timing out" ||
		p.Experiences[0].Outcome != "deploys finish in two minutes" || p.Experiences[1].Solution != "限制并发为 2" ||
		p.Experiences[2].Solution != "Use ccache for C++ builds." {
		t.Fatalf("experiences %+v", p.Experiences)
	}
	// Pain points: the signal, then each experience's pain.
	if len(p.PainPoints) != 3 || p.PainPoints[1].MemoryID != "E1" || p.PainPoints[2].Value != "构建经常 OOM" {
		t.Fatalf("pain points %+v", p.PainPoints)
	}
	// A topic signal from a profile untouched for 40 days is not recent.
	mems[0].Updated = now.Add(-40 * 24 * time.Hour)
	if p := DeriveProfile(mems, now); len(p.RecentTopics) != 0 || len(p.Role) != 1 {
		t.Fatalf("stale topics %+v", p.RecentTopics)
	}
}

// An experience written on one line ("Pain: … Solution: … Outcome: …", as people and models
// write it) is read part by part, and its links by their names: the About-you card showed the
// whole body as one pain point, with "[[Postgres]]" as written.
func TestExperienceOnOneLine(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		body, pain, solution, outcome string
	}{
		{"Pain: jobs stuck after a migration. Solution: restart the worker. Outcome: jobs resumed. Related: [[Postgres]]",
			"jobs stuck after a migration", "restart the worker", "jobs resumed. Related: Postgres"},
		{"- **Problem:** the [[CI|build server]] ran out of disk\n- **Fix:** prune images nightly",
			"the build server ran out of disk", "prune images nightly", ""},
		{"痛点：构建经常 OOM。解决：限制并发为 2。结果：再也没有失败",
			"构建经常 OOM", "限制并发为 2", "再也没有失败"},
		// A label inside a word is not a label ("hotfix:" is no "fix:").
		{"Use the hotfix: branch for [[Acme]] releases.", "", "Use the hotfix: branch for Acme releases.", ""},
	}
	for _, c := range cases {
		p := DeriveProfile([]*memory.Memory{{ID: "E", Slug: "e", Title: "E", Scope: memory.ScopeGlobal, Type: memory.TypeExperience, Updated: now, Body: c.body}}, now)
		if len(p.Experiences) != 1 {
			t.Fatalf("%q: %d experiences", c.body, len(p.Experiences))
		}
		x := p.Experiences[0]
		if x.Pain != c.pain || x.Solution != c.solution || x.Outcome != c.outcome {
			t.Errorf("%q:\n got pain %q solution %q outcome %q\nwant pain %q solution %q outcome %q", c.body, x.Pain, x.Solution, x.Outcome, c.pain, c.solution, c.outcome)
		}
	}
}
