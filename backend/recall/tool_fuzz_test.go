package recall

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"engram/backend/memory"
)

// FuzzToolCall feeds the MemoryManager tool — what MCP hands every agent and the extraction
// loop hands a model — hostile arguments from a read-write caller (agent "claude" in project
// A) and checks after every call what no argument may change:
//   - nothing of another agent or another project comes back, by search, list, read or error;
//   - those memories keep their text and version, and the person's reviewed one too (or loses
//     only its mark: a model may edit it but never vouches for text);
//   - every memory marked reviewed is one the person wrote, unchanged;
//   - nothing is created outside the home: slugs and workdirs are not paths.
//
// The seeds run in every `go test`; `make fuzz` runs it for longer.
func FuzzToolCall(f *testing.F) {
	seeds := []string{
		`{"action":"read","id":"{{other}}"}`,
		`{"action":"read","id":"{{p2}}"}`,
		`{"action":"read","slug":"other-secret","scope":"agent"}`,
		`{"action":"read","slug":"p2-plan","scope":"project","workdir":"{{dirB}}"}`,
		`{"action":"search","query":"zebra secret","scope":"project","workdir":"{{dirB}}"}`,
		`{"action":"search","query":"zebra secret"}`,
		`{"action":"list","workdir":"/"}`,
		`{"action":"list","scope":"agent","limit":1000,"offset":-5}`,
		`{"action":"list","scope":"project","workdir":"{{dirB}}/../{{baseB}}"}`,
		`{"action":"update","id":"{{p2}}","body":"pwned","mode":"replace"}`,
		`{"action":"update","id":"{{other}}","body":"pwned","mode":"replace"}`,
		`{"action":"update","slug":"person-rule","body":"pwned","mode":"replace","confidence":"high"}`,
		`{"action":"delete","id":"{{other}}"}`,
		`{"action":"delete","slug":"p2-plan","scope":"project","workdir":"{{dirB}}"}`,
		`{"action":"accept","id":"{{mine}}"}`,
		`{"action":"write","slug":"../../../escape","scope":"project","workdir":"{{dirB}}","type":"project","title":"x","body":"y"}`,
		`{"action":"write","slug":"ok-note","scope":"agent","type":"user","title":"t","body":"b","confidence":"high","source_quote":"b"}`,
		`{"action":"write","slug":"a/b","scope":"global","type":"user","title":"t\u0000","body":"` + strings.Repeat("x", 300) + `"}`,
		`{"action":"update","slug":"claude-note","tags":["../x"],"aliases":["other-secret"],"expected_version":"zz"}`,
		`{"action":"search","query":"\" OR 1=1 --","include_history":true}`,
		`{"action":"search","query":"NEAR(a b) * ^ \"","scope":"global"}`,
		`not json`,
		`{"action":"search","query":"x","frobnicate":true}`,
		`[]`,
		`{"action":["read"]}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	fx := newToolFixture(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		fx.check(t, raw)
	})
}

// toolFixture is a home with memories the caller must not reach, and the caller.
type toolFixture struct {
	e          *env
	root       string // holds the home and the two project folders, nothing else
	dirA, dirB string
	caller     ToolEnv
	ids        map[string]string // fixture name → memory id
	guarded    map[string]*memory.Memory
	person     *memory.Memory
	// reviewed holds the version of each memory the person reviewed before the calls.
	reviewed map[string]string
}

// secretMarker is in every memory the caller must not see.
const secretMarker = "zebrasecret"

func newToolFixture(tb testing.TB) *toolFixture {
	root := tb.TempDir()
	fx := &toolFixture{root: root, dirA: filepath.Join(root, "proj-a"), dirB: filepath.Join(root, "proj-b"),
		ids: map[string]string{}, guarded: map[string]*memory.Memory{}}
	for _, d := range []string{fx.dirA, fx.dirB} {
		if err := os.Mkdir(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	fx.e = newEnv(tb)
	res := fx.e.write(
		mem{slug: "other-secret", scope: memory.ScopeAgent, agent: "other", title: "Other's note", body: "zebra " + secretMarker + " other agent"},
		mem{slug: "p2-plan", scope: memory.ScopeProject, workdir: fx.dirB, title: "Plan B", body: "zebra " + secretMarker + " project b"},
		mem{slug: "other-in-b", scope: memory.ScopeAgent, agent: "other", workdir: fx.dirB, title: "B note", body: "zebra " + secretMarker},
		mem{slug: "claude-note", scope: memory.ScopeAgent, agent: "claude", title: "Claude's note", body: "zebra mine", unreviewed: true},
		mem{slug: "a-plan", scope: memory.ScopeProject, workdir: fx.dirA, title: "Plan A", body: "zebra project a"},
		mem{slug: "person-rule", title: "Person's rule", body: "Tabs, not spaces. zebra"},
	)
	fx.ids["other"], fx.ids["p2"], fx.ids["otherB"], fx.ids["mine"], fx.ids["person"] = res[0].ID, res[1].ID, res[2].ID, res[3].ID, res[5].ID
	for _, k := range []string{"other", "p2", "otherB"} {
		m, err := fx.e.store.Get(fx.e.ctx, fx.ids[k])
		if err != nil {
			tb.Fatal(err)
		}
		fx.guarded[k] = m
	}
	p, err := fx.e.store.Get(fx.e.ctx, fx.ids["person"])
	if err != nil || !p.Reviewed {
		tb.Fatalf("the person's memory: %+v %v", p, err)
	}
	fx.person = p
	all, _, err := fx.e.store.List(fx.e.ctx, memory.Filter{Limit: 10000})
	if err != nil {
		tb.Fatal(err)
	}
	fx.reviewed = map[string]string{}
	for _, m := range all {
		if m.Reviewed {
			fx.reviewed[m.ID] = m.Version
		}
	}
	fx.caller = ToolEnv{ReadWrite: true, Workdir: fx.dirA, Agent: "claude", Model: "fuzz"}
	return fx
}

// check runs one call and the invariants after it.
func (fx *toolFixture) check(t *testing.T, raw []byte) {
	args := string(raw)
	for k, id := range fx.ids {
		args = strings.ReplaceAll(args, "{{"+k+"}}", id)
	}
	args = strings.ReplaceAll(args, "{{dirB}}", fx.dirB)
	args = strings.ReplaceAll(args, "{{baseB}}", filepath.Base(fx.dirB))
	res := fx.e.svc.RunTool(fx.e.ctx, fx.caller, json.RawMessage(args))
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("%s: the result does not encode: %v", args, err)
	}
	if strings.Contains(strings.ToLower(string(out)), secretMarker) && !strings.Contains(strings.ToLower(args), secretMarker) {
		t.Fatalf("%s: another scope's text came back: %s", args, out)
	}
	for _, k := range []string{"other", "p2", "otherB"} {
		m, err := fx.e.store.Get(fx.e.ctx, fx.ids[k])
		g := fx.guarded[k]
		if err != nil || m.Body != g.Body || m.Version != g.Version || m.Title != g.Title {
			t.Fatalf("%s: %s changed: %+v %v", args, k, m, err)
		}
	}
	p, err := fx.e.store.Get(fx.e.ctx, fx.ids["person"])
	if err != nil {
		t.Fatalf("%s: the person's memory: %v", args, err)
	}
	if p.Reviewed && (p.Body != fx.person.Body || p.Version != fx.person.Version) {
		t.Fatalf("%s: the person's memory changed and kept its reviewed mark: %+v", args, p)
	}
	all, _, err := fx.e.store.List(fx.e.ctx, memory.Filter{Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if v, ok := fx.reviewed[m.ID]; m.Reviewed && (!ok || v != m.Version) {
			t.Fatalf("%s: %s (%s) is marked reviewed with text the person did not review", args, m.ID, m.Slug)
		}
	}
	entries, err := os.ReadDir(fx.root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		if n != "proj-a" && n != "proj-b" {
			t.Fatalf("%s: something was created beside the home: %v", args, names)
		}
	}
	for _, d := range []string{fx.dirA, fx.dirB} {
		if es, _ := os.ReadDir(d); len(es) != 0 {
			t.Fatalf("%s: something was written into a project folder %s", args, d)
		}
	}
}

// FuzzToolFields is FuzzToolCall with the arguments built from fuzzed fields, so the fuzzer
// spends its time on valid calls: every action, ids and slugs of guarded memories, scopes and
// workdirs inside and outside the caller's project, odd bodies, modes and pages.
func FuzzToolFields(f *testing.F) {
	f.Add("read", uint8(1), "", "agent", uint8(0), "", "", "", 0, 0)
	f.Add("update", uint8(2), "", "project", uint8(2), "", "pwned", "replace", 0, 0)
	f.Add("delete", uint8(0), "other-secret", "agent", uint8(1), "", "", "", 0, 0)
	f.Add("write", uint8(0), "../x", "project", uint8(2), "", "body", "", 0, 0)
	f.Add("update", uint8(5), "", "global", uint8(0), "", "pwned", "append", 0, 0)
	f.Add("search", uint8(0), "", "project", uint8(3), "/../proj-b", "zebra", "", 50, -1)
	f.Add("list", uint8(0), "", "", uint8(4), "/", "", "", 1<<30, 1<<30)
	fx := newToolFixture(f)
	refs := []string{"", "other", "p2", "otherB", "mine", "person"}
	f.Fuzz(func(t *testing.T, action string, ref uint8, slug, scope string, wdSel uint8, wd, body, mode string, limit, offset int) {
		args := map[string]any{"action": action, "scope": scope, "slug": slug, "query": body, "body": body, "title": body,
			"mode": mode, "limit": limit, "offset": offset, "type": "user", "confidence": "high", "source_quote": body,
			"tags": []string{slug}, "aliases": []string{slug}}
		if r := refs[int(ref)%len(refs)]; r != "" {
			args["id"] = "{{" + r + "}}"
		}
		switch wdSel % 5 {
		case 1:
			args["workdir"] = fx.dirA
		case 2:
			args["workdir"] = "{{dirB}}"
		case 3:
			args["workdir"] = fx.dirA + wd
		case 4:
			args["workdir"] = wd
		}
		for k, v := range args {
			if v == "" {
				delete(args, k)
			}
		}
		raw, err := json.Marshal(args)
		if err != nil {
			t.Skip()
		}
		fx.check(t, raw)
	})
}
