package recall

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/memory"
)

func TestVisibilityNarrowAndFilter(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	cases := []struct {
		name           string
		caller         Caller
		scope          memory.Scope
		workdir, agent string
		want           memory.Filter // zero when refused
		refused        string
	}{
		{name: "empty caller sees global only", want: memory.Filter{Scope: memory.ScopeGlobal}},
		{name: "empty caller, global", scope: memory.ScopeGlobal, want: memory.Filter{Scope: memory.ScopeGlobal}},
		{name: "empty caller, project", scope: memory.ScopeProject, refused: CodeNoProjectHere},
		{name: "empty caller, agent", scope: memory.ScopeAgent, refused: CodeNoAgentHere},
		{name: "empty caller names a workdir", workdir: a, refused: CodeScopeNotVisible},
		{name: "empty caller names an agent", agent: "claude", refused: CodeScopeNotVisible},
		{name: "project caller", caller: Caller{Workdir: a}, want: memory.Filter{Workdir: a}},
		{name: "project caller, project", caller: Caller{Workdir: a}, scope: memory.ScopeProject,
			want: memory.Filter{Scope: memory.ScopeProject, Workdir: a}},
		{name: "project caller, own workdir spelt otherwise", caller: Caller{Workdir: a}, workdir: a + "/./",
			want: memory.Filter{Workdir: a}},
		{name: "project caller, another workdir", caller: Caller{Workdir: a}, workdir: b, refused: CodeScopeNotVisible},
		{name: "project caller, relative workdir", caller: Caller{Workdir: a}, workdir: "rel/x", refused: CodeScopeNotVisible},
		{name: "project caller, agent scope", caller: Caller{Workdir: a}, scope: memory.ScopeAgent, refused: CodeNoAgentHere},
		{name: "agent caller", caller: Caller{Agent: "claude"}, want: memory.Filter{Agent: "claude"}},
		{name: "agent caller, agent", caller: Caller{Agent: "claude"}, scope: memory.ScopeAgent,
			want: memory.Filter{Scope: memory.ScopeAgent, Agent: "claude"}},
		{name: "agent caller, another agent", caller: Caller{Agent: "claude"}, agent: "codex", refused: CodeScopeNotVisible},
		{name: "both", caller: Caller{Workdir: a, Agent: "claude"}, want: memory.Filter{Workdir: a, Agent: "claude"}},
		{name: "bad scope", caller: Caller{Workdir: a}, scope: "everything", refused: memory.CodeInvalidScope},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := NewVisibility(tc.caller, nil)
			if err != nil {
				t.Fatal(err)
			}
			n, err := v.Narrow(tc.scope, tc.workdir, tc.agent)
			if tc.refused != "" {
				if code, _ := codeOf(err); code != tc.refused {
					t.Fatalf("want %s, got %v", tc.refused, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want.Workdir != "" {
				want.Workdir, _ = memory.CanonicalWorkdir(want.Workdir)
			}
			if got := n.Filter(); got != want {
				t.Fatalf("filter %+v, want %+v", got, want)
			}
		})
	}
	if _, err := NewVisibility(Caller{Workdir: "relative"}, nil); err == nil {
		t.Fatal("a relative caller workdir is refused")
	}
	if _, err := NewVisibility(Caller{Agent: "../etc"}, nil); err == nil {
		t.Fatal("an agent name that is a path is refused")
	}
}

func TestVisibilityAllows(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	mems := map[string]*memory.Memory{
		"global":  {Scope: memory.ScopeGlobal},
		"proj-a":  {Scope: memory.ScopeProject, Workdir: a},
		"proj-b":  {Scope: memory.ScopeProject, Workdir: b},
		"claude":  {Scope: memory.ScopeAgent, Agent: "claude"},
		"codex":   {Scope: memory.ScopeAgent, Agent: "codex"},
		"unknown": {Scope: "weird"},
	}
	cases := []struct {
		caller Caller
		scope  memory.Scope
		want   string
	}{
		{Caller{}, "", "global"},
		{Caller{Workdir: a}, "", "global proj-a"},
		{Caller{Agent: "claude"}, "", "claude global"},
		{Caller{Workdir: a, Agent: "claude"}, "", "claude global proj-a"},
		{Caller{Workdir: a, Agent: "claude"}, memory.ScopeGlobal, "global"},
		{Caller{Workdir: a, Agent: "claude"}, memory.ScopeAgent, "claude"},
	}
	for _, tc := range cases {
		v, _ := NewVisibility(tc.caller, nil)
		v, err := v.Narrow(tc.scope, "", "")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, name := range []string{"claude", "codex", "global", "proj-a", "proj-b", "unknown"} {
			if v.Allows(mems[name]) {
				got = append(got, name)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%+v/%s sees %v, want %s", tc.caller, tc.scope, got, tc.want)
		}
	}
}

// isoEnv holds memories in two projects, two agents and global, each with a distinctive word.
type isoEnv struct {
	*env
	a, b string
	ids  map[string]string // slug → id
}

func newIsoEnv(t *testing.T) *isoEnv {
	e := &isoEnv{env: newEnv(t), a: filepath.Join(t.TempDir(), "alpha"), b: filepath.Join(t.TempDir(), "bravo"), ids: map[string]string{}}
	res := e.write(
		mem{slug: "global-note", title: "Shared kiwi note", body: "Everyone may read about the kiwi."},
		mem{slug: "alpha-plan", scope: memory.ScopeProject, workdir: e.a, typ: memory.TypeProject, title: "Alpha kiwi plan", body: "Project alpha ships the kiwi release."},
		mem{slug: "bravo-plan", scope: memory.ScopeProject, workdir: e.b, typ: memory.TypeProject, title: "Bravo kiwi plan", body: "Project bravo keeps the kiwi secret roadmap."},
		mem{slug: "claude-private", scope: memory.ScopeAgent, agent: "claude", title: "Claude kiwi diary", body: "Claude's private kiwi diary."},
		mem{slug: "codex-private", scope: memory.ScopeAgent, agent: "codex", title: "Codex kiwi diary", body: "Codex's private kiwi diary."},
	)
	for _, r := range res {
		e.ids[r.Slug] = r.ID
	}
	return e
}

// seen lists the slugs a tool result shows (hits, items, candidates), sorted by name.
func seen(r ToolResult) []string {
	var out []string
	if r.Error != nil {
		for _, c := range r.Error.Candidates {
			out = append(out, c.Slug)
		}
	}
	if m, ok := r.Result.(map[string]any); ok {
		for _, k := range []string{"hits", "items"} {
			if hs, ok := m[k].([]ToolHit); ok {
				for _, h := range hs {
					out = append(out, h.Slug)
				}
			}
		}
	}
	if en, ok := r.Result.(ToolEntry); ok {
		out = append(out, en.Slug)
	}
	return out
}

// The MemoryManager shows a model global memories, its caller's project and its caller's agent,
// nothing else: not with no agent named, not with an empty caller, not through not-found
// candidates, whichever action and scope the model asks for.
func TestToolSeesOnlyTheCallersScopes(t *testing.T) {
	e := newIsoEnv(t)
	callers := []struct {
		name    string
		env     ToolEnv
		visible []string
	}{
		{"empty caller", ToolEnv{}, []string{"global-note"}},
		{"project alpha, no agent", ToolEnv{Workdir: e.a}, []string{"global-note", "alpha-plan"}},
		{"agent claude, no project", ToolEnv{Agent: "claude"}, []string{"global-note", "claude-private"}},
		{"project alpha as claude", ToolEnv{Workdir: e.a, Agent: "claude", ReadWrite: true}, []string{"global-note", "alpha-plan", "claude-private"}},
	}
	all := []string{"global-note", "alpha-plan", "bravo-plan", "claude-private", "codex-private"}
	for _, cl := range callers {
		t.Run(cl.name, func(t *testing.T) {
			vis := map[string]bool{}
			for _, s := range cl.visible {
				vis[s] = true
			}
			check := func(what string, r ToolResult) {
				t.Helper()
				for _, s := range seen(r) {
					if !vis[s] {
						t.Errorf("%s shows %s: %+v", what, s, r)
					}
				}
			}
			for _, sc := range []string{"", "global", "project", "agent"} {
				arg := ""
				if sc != "" {
					arg = `,"scope":"` + sc + `"`
				}
				l := call(t, e.env, cl.env, `{"action":"list"`+arg+`}`)
				check("list "+sc, l)
				s := call(t, e.env, cl.env, `{"action":"search","query":"kiwi diary roadmap plan"`+arg+`}`)
				check("search "+sc, s)
				if sc == "" && (!l.OK || len(seen(l)) != len(cl.visible) || l.Result.(map[string]any)["total"].(int) != len(cl.visible)) {
					t.Errorf("list shows %v, want %v", seen(l), cl.visible)
				}
			}
			for _, slug := range all {
				byID := call(t, e.env, cl.env, `{"action":"read","id":"`+e.ids[slug]+`"}`)
				bySlug := call(t, e.env, cl.env, `{"action":"read","slug":"`+slug+`"}`)
				check("read id "+slug, byID)
				check("read slug "+slug, bySlug)
				if vis[slug] != byID.OK || vis[slug] != bySlug.OK {
					t.Errorf("read %s: visible %v, by id ok %v, by slug ok %v", slug, vis[slug], byID.OK, bySlug.OK)
				}
				if !vis[slug] && (byID.Error.Code != memory.CodeNotFound || bySlug.Error.Code != memory.CodeNotFound) {
					t.Errorf("read %s: %+v %+v", slug, byID.Error, bySlug.Error)
				}
				// A near miss offers candidates, and only visible ones.
				near := call(t, e.env, cl.env, `{"action":"read","slug":"`+slug+`-x"}`)
				check("near miss "+slug, near)
				if near.Error != nil {
					if next, _ := near.Error.SuggestedNextCall["slug"].(string); next != "" && !vis[next] {
						t.Errorf("near miss %s suggests %s", slug, next)
					}
				}
				if cl.env.ReadWrite && !vis[slug] {
					for _, act := range []string{`"update","body":"overwritten"`, `"delete"`} {
						r := call(t, e.env, cl.env, `{"action":`+act+`,"id":"`+e.ids[slug]+`"}`)
						if r.OK {
							t.Errorf("%s on %s went through", act, slug)
						}
					}
				}
			}
		})
	}
	// Nothing outside was changed by the read-write caller.
	for _, slug := range []string{"bravo-plan", "codex-private"} {
		m, err := e.store.Get(e.ctx, e.ids[slug])
		if err != nil || m.Archived || strings.Contains(m.Body, "overwritten") {
			t.Fatalf("%s was touched: %+v %v", slug, m, err)
		}
	}
}

// The caller's context decides the project and the agent: a model naming another project in
// args.workdir (or a scope its caller has none of) is refused with a structured error and a
// next call inside what it sees, and nothing is read or written there.
func TestToolRefusesWidening(t *testing.T) {
	e := newIsoEnv(t)
	rw := ToolEnv{ReadWrite: true, Workdir: e.a}
	cases := []struct{ name, env, args, code string }{
		{"list another project", "a", `{"action":"list","scope":"project","workdir":"` + e.b + `"}`, ""},
		{"list another project, no scope", "a", `{"action":"list","workdir":"` + e.b + `"}`, ""},
		{"search another project", "a", `{"action":"search","query":"roadmap","workdir":"` + e.b + `"}`, ""},
		{"read in another project", "a", `{"action":"read","slug":"bravo-plan","scope":"project","workdir":"` + e.b + `"}`, ""},
		{"write in another project", "a", `{"action":"write","slug":"planted","scope":"project","type":"project","title":"x","body":"y","workdir":"` + e.b + `"}`, ""},
		{"update in another project", "a", `{"action":"update","slug":"bravo-plan","body":"overwritten","workdir":"` + e.b + `"}`, ""},
		{"delete in another project", "a", `{"action":"delete","slug":"bravo-plan","scope":"project","workdir":"` + e.b + `"}`, ""},
		{"agent scope without an agent", "a", `{"action":"list","scope":"agent"}`, CodeNoAgentHere},
		{"write agent scope without an agent", "a", `{"action":"write","slug":"planted","scope":"agent","type":"user","title":"x","body":"y"}`, CodeNoAgentHere},
		{"empty caller names a project", "", `{"action":"write","slug":"planted","scope":"project","type":"project","title":"x","body":"y","workdir":"` + e.b + `"}`, ""},
		{"empty caller, project scope", "", `{"action":"list","scope":"project"}`, CodeNoProjectHere},
		{"relative workdir", "a", `{"action":"list","workdir":"../bravo"}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := rw
			if tc.env == "" {
				env = ToolEnv{ReadWrite: true}
			}
			r := call(t, e.env, env, tc.args)
			code := tc.code
			if code == "" {
				code = CodeScopeNotVisible
			}
			if r.OK || r.Error.Code != code || r.Error.SuggestedNextCall == nil || len(r.Error.Candidates) != 0 {
				t.Fatalf("%+v", r)
			}
			want := memory.ScopeGlobal
			if env.Workdir != "" {
				want = memory.ScopeProject
			}
			if r.Error.SuggestedNextCall["scope"] != want {
				t.Fatalf("next call %v", r.Error.SuggestedNextCall)
			}
		})
	}
	items, total, err := e.store.List(e.ctx, memory.Filter{Scope: memory.ScopeProject, Workdir: e.b})
	if err != nil || total != 1 || items[0].Slug != "bravo-plan" || strings.Contains(items[0].Body, "overwritten") {
		t.Fatalf("project bravo changed: %d %v", total, err)
	}
	if _, _, err := e.store.List(e.ctx, memory.Filter{Scope: memory.ScopeAgent}); err != nil {
		t.Fatal(err)
	}
	if n, _, _ := e.store.List(e.ctx, memory.Filter{}); len(n) != 5 {
		t.Fatalf("a widening call wrote something: %d memories", len(n))
	}
	// Naming the caller's own project (however spelt) only narrows, and works.
	own := call(t, e.env, rw, `{"action":"write","slug":"alpha-notes","scope":"project","type":"project","title":"Notes","body":"Alpha notes.","workdir":"`+e.a+`/."}`)
	if !own.OK {
		t.Fatalf("%+v", own.Error)
	}
	m, err := e.store.Get(e.ctx, own.Result.(ToolMutation).ID)
	if err != nil || m.ScopeKey() != memory.ProjectKey(mustCanon(t, e.a)) {
		t.Fatalf("%+v %v", m, err)
	}
	narrowed := call(t, e.env, rw, `{"action":"list","scope":"global"}`)
	if got := seen(narrowed); len(got) != 1 || got[0] != "global-note" {
		t.Fatalf("scope global narrows: %v", got)
	}
}

func mustCanon(t *testing.T, wd string) string {
	t.Helper()
	c, err := memory.CanonicalWorkdir(wd)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// build_context hands a model only what its caller sees; an empty caller gets global only.
func TestBuildContextUsesVisibility(t *testing.T) {
	e := newIsoEnv(t)
	cases := []struct {
		name    string
		p       ContextParams
		visible []string
	}{
		{"empty caller", ContextParams{}, []string{"global-note"}},
		{"agent claude", ContextParams{Agent: "claude"}, []string{"global-note", "claude-private"}},
		{"project alpha", ContextParams{Workdir: e.a}, []string{"global-note", "alpha-plan"}},
		{"project alpha as codex, agent scope", ContextParams{Workdir: e.a, Agent: "codex", Scope: memory.ScopeAgent}, []string{"codex-private"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			p.Query, p.MaxTokens = "kiwi diary roadmap plan", MaxContextTokens
			res, err := e.svc.BuildContext(e.ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			vis := map[string]bool{}
			for _, s := range tc.visible {
				vis[s] = true
			}
			got := map[string]bool{}
			for _, en := range res.Entries {
				got[en.Slug] = true
				if !vis[en.Slug] {
					t.Errorf("build_context hands over %s", en.Slug)
				}
			}
			if len(got) != len(vis) {
				t.Errorf("entries %v, want %v", res.Entries, tc.visible)
			}
			for slug, body := range map[string]string{"alpha-plan": "alpha ships", "bravo-plan": "bravo keeps",
				"claude-private": "Claude&#39;s", "codex-private": "Codex"} {
				if !vis[slug] && strings.Contains(res.Text, body) {
					t.Errorf("the text holds %s: %s", slug, res.Text)
				}
			}
		})
	}
	_, err := e.svc.BuildContext(e.ctx, ContextParams{Query: "kiwi", Scope: memory.ScopeProject})
	var re *Error
	if !errors.As(err, &re) || re.Code != CodeNoProjectHere {
		t.Fatalf("project scope without a project: %v", err)
	}
}

// The Memory Index shows each caller its own scopes only.
func TestOverviewUsesVisibility(t *testing.T) {
	e := newIsoEnv(t)
	cases := []struct {
		p             OverviewParams
		shown, hidden []string
	}{
		{OverviewParams{}, []string{"global-note"}, []string{"alpha-plan", "bravo-plan", "claude-private", "codex-private"}},
		{OverviewParams{Agent: "claude"}, []string{"global-note", "claude-private"}, []string{"alpha-plan", "bravo-plan", "codex-private"}},
		{OverviewParams{Workdir: e.a, Agent: "codex"}, []string{"global-note", "alpha-plan", "codex-private"}, []string{"bravo-plan", "claude-private"}},
	}
	for _, tc := range cases {
		res, err := e.svc.Overview(e.ctx, tc.p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tc.shown {
			if !strings.Contains(res.Index, "["+s+"]") {
				t.Errorf("%+v: %s missing", tc.p, s)
			}
		}
		for _, s := range tc.hidden {
			if strings.Contains(res.Index, s) {
				t.Errorf("%+v: %s shown", tc.p, s)
			}
		}
	}
	if _, err := e.svc.Overview(e.ctx, OverviewParams{Agent: "../codex"}); err == nil {
		t.Fatal("an agent name that is a path is refused")
	}
}
