package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/wire"
)

// graph rename onto a name another entity has is refused (exit 1, the translated message
// pointing at graph merge) and rewrites nothing; merge is the verb that makes two one.
func TestGraphRenameOntoAnExistingEntity(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "user", "--slug", "alice-job", "--title", "Alice job", "--body", "- [[Alice]] knows [[Bob]]")
	h.ok("write", "--type", "reference", "--slug", "bob-tools", "--title", "Bob tools", "--body", "- [[Bob]] uses [[Postgres]]")
	for _, name := range []string{"Alice", "alice", " ALICE  "} {
		code, out, errs := h.run("", "graph", "rename", "Bob", name)
		if code != 1 || !strings.Contains(errs, "already names the entity “Alice”") ||
			!strings.Contains(errs, `engram graph merge "Alice" "Bob"`) {
			t.Fatalf("rename Bob %q: exit %d\nstdout: %s\nstderr: %s", name, code, out, errs)
		}
	}
	if out := h.ok("show", "alice-job"); !strings.Contains(out, "- [[Alice]] knows [[Bob]]") {
		t.Fatalf("a refused rename rewrote alice-job:\n%s", out)
	}
	code, _, errs := h.run("", "graph", "rename", "Bob", "Alice", "--json")
	var e struct {
		Error struct{ Code, Message string }
	}
	if code != 1 || json.Unmarshal([]byte(errs), &e) != nil || e.Error.Code != "graph_name_taken" {
		t.Fatalf("rename --json: exit %d %s", code, errs)
	}
	// In Chinese too.
	var out, errb bytes.Buffer
	env := h.env(&out, &errb)
	env.Lang = "zh-CN"
	env.Open = func(ctx context.Context) (*api.API, func() error, error) {
		svc, err := wire.Open(ctx, wire.Options{Home: h.dir, Lang: "zh-CN", Catalog: h.cat, Passive: true})
		if err != nil {
			return nil, nil, err
		}
		return svc.API(ctx, api.ActorUser), svc.Close, nil
	}
	if code := Run(context.Background(), []string{"graph", "rename", "Bob", "Alice"}, env); code != 1 ||
		!strings.Contains(errb.String(), "已是实体“Alice”的名称") {
		t.Fatalf("zh rename: exit %d %s", code, errb.String())
	}
	// The way that works: merge keeps the old name as the link's text.
	h.ok("graph", "merge", "Alice", "Bob")
	if out := h.ok("show", "alice-job"); !strings.Contains(out, "[[Alice|Bob]]") {
		t.Fatalf("merge:\n%s", out)
	}
}

// graph relate takes SLUG|ID like every verb on one memory; a reference that finds nothing
// says it was tried as an id and as a slug, and where.
func TestGraphRelateBySlugOrID(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "user", "--slug", "alice-job", "--title", "Alice job", "--body", "- [[Alice]] knows [[Bob]]")
	wd := t.TempDir()
	h.ok("write", "--scope", "project", "--workdir", wd, "--type", "project", "--slug", "proj-notes",
		"--title", "Project notes", "--body", "The build uses [[Go]].")

	if out := h.ok("graph", "relate", "alice-job", "--from", "Alice", "knows", "Carol"); !strings.Contains(out, "alice-job") {
		t.Fatalf("relate by slug: %s", out)
	}
	if out := h.ok("show", "alice-job"); !strings.Contains(out, "- [[Alice]] knows [[Carol]]") {
		t.Fatalf("relate by slug wrote:\n%s", out)
	}
	var m struct {
		Memory struct{ ID string }
	}
	if err := json.Unmarshal([]byte(h.ok("show", "alice-job", "--json")), &m); err != nil || m.Memory.ID == "" {
		t.Fatalf("show --json: %v", err)
	}
	h.ok("graph", "relate", m.Memory.ID, "--from", "Alice", "knows", "Dave")
	if out := h.ok("show", "alice-job"); !strings.Contains(out, "- [[Alice]] knows [[Dave]]") {
		t.Fatalf("relate by id wrote:\n%s", out)
	}
	// Scope flags still narrow what an id may name.
	if code, _, errs := h.run("", "graph", "relate", m.Memory.ID, "--scope", "project", "--workdir", wd, "--from", "Alice", "knows", "Erin"); code != 1 ||
		!strings.Contains(errs, "No memory") {
		t.Fatalf("relate to a global id inside a project's view: exit %d %s", code, errs)
	}
	// A project memory's slug, with the scope flags that name its project.
	h.ok("graph", "relate", "proj-notes", "--scope", "project", "--workdir", wd, "--from", "Go", "used_by", "Builder")
	if code, _, errs := h.run("", "graph", "relate", "proj-notes", "--from", "Go", "used_by", "Builder"); code != 1 ||
		!strings.Contains(errs, "No memory “proj-notes” was found: no memory has that id, and no global memory has that slug") ||
		!strings.Contains(errs, "--scope") {
		t.Fatalf("relate to a project slug without its scope: exit %d %s", code, errs)
	}
	code, _, errs := h.run("", "graph", "relate", "nosuch", "--scope", "agent", "--agent", "codex", "knows", "Carol", "--json")
	var e struct {
		Error struct {
			Code, Message string
			I18nKey       string `json:"i18n_key"`
		}
	}
	if code != 1 || json.Unmarshal([]byte(errs), &e) != nil || e.Error.Code != "not_found" ||
		e.Error.I18nKey != "error.graph_memory_not_found" || !strings.Contains(e.Error.Message, "no agent codex memory has that slug") {
		t.Fatalf("relate nosuch --json: exit %d %s", code, errs)
	}
	// The usage names SLUG|ID.
	if code, _, errs := h.run("", "graph", "relate", "alice-job"); code != 2 || !strings.Contains(errs, "SLUG|ID TYPE TO") {
		t.Fatalf("relate without enough arguments: exit %d %s", code, errs)
	}
	if code, _, errs := h.run("", "graph", "frobnicate"); code != 2 || !strings.Contains(errs, "relate SLUG|ID [--from A] TYPE TO") {
		t.Fatalf("graph usage: exit %d %s", code, errs)
	}
}

// graph path prints each hop with the direction its memory states: a path walks relations
// either way, and "Bob -manages- Alice" read as Bob managing Alice when Alice manages Bob.
func TestGraphPathSaysEachHopsDirection(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "reference", "--slug", "team-notes", "--title", "Team notes",
		"--body", "- [[Alice]] manages [[Bob]]\n- [[Alice]] works_at [[Acme]]\n- [[张三]] 认识 [[Bob]]")
	for _, tc := range []struct {
		from, to string
		want     []string
	}{
		{"Bob", "Acme", []string{"Bob <-manages- Alice\tteam-notes", "Alice -works_at-> Acme\tteam-notes"}},
		{"Acme", "Bob", []string{"Acme <-works_at- Alice\tteam-notes", "Alice -manages-> Bob\tteam-notes"}},
		{"张三", "Alice", []string{"张三 -认识-> Bob\tteam-notes", "Bob <-manages- Alice\tteam-notes"}},
		{"Alice", " alice ", []string{"Alice and alice are one entity, Alice: a path of no hops."}},
	} {
		out := h.ok("graph", "path", tc.from, tc.to)
		if got := strings.Split(strings.TrimSpace(out), "\n"); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("path %s → %s:\n%s\nwant:\n%s", tc.from, tc.to, out, strings.Join(tc.want, "\n"))
		}
	}
}

// graph entities counts relations in words that agree with the number ("1 relations" before).
func TestGraphEntitiesCountRelationsInWords(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "reference", "--slug", "team-notes", "--title", "Team notes",
		"--body", "- [[Alice]] manages [[Bob]]\n- [[Alice]] works_at [[Acme]]")
	out := h.ok("graph", "entities")
	wd := t.TempDir()
	h.ok("write", "--scope", "project", "--workdir", wd, "--type", "project", "--slug", "proj-notes", "--title", "Project notes",
		"--body", "- [[Alice]] reviews [[Carol]]")
	out = h.ok("graph", "entities")
	for _, want := range []string{"\tglobal\tAlice\t1 memory, 2 relations", "\tglobal\tBob\t1 memory, 1 relation\n", "\tproject " + wd + "\tAlice\t"} {
		if !strings.Contains(out, want) {
			t.Errorf("graph entities lacks %q:\n%s", want, out)
		}
	}
}

// A limit cut the text output of graph entities, neighbors and subgraph without a word (the
// first 50 of 5,000 entities read as all of them; only --json said "truncated"): stderr now
// says so and how to ask for more. Each relation line carries its id, which unrelate takes
// and only --json showed.
func TestGraphTextSaysWhatALimitLeftOut(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "reference", "--slug", "hub-notes", "--title", "Hub notes",
		"--body", "About the hub.\n\n- [[Hub]] knows [[Ann]]\n- [[Hub]] knows [[Bo]]\n- [[Hub]] knows [[Cy]]")
	more := "Only the first 2 are listed: ask for more with --limit N"
	for _, args := range [][]string{
		{"graph", "entities", "--limit", "2"},
		{"graph", "neighbors", "Hub", "--limit", "2"},
		{"graph", "subgraph", "--limit", "2"},
	} {
		code, out, errs := h.run("", args...)
		if code != 0 || !strings.Contains(errs, more) || strings.Contains(out, more) {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errs)
		}
	}
	for _, args := range [][]string{{"graph", "entities"}, {"graph", "neighbors", "Hub"}} {
		if code, _, errs := h.run("", args...); code != 0 || errs != "" {
			t.Errorf("%v, nothing left out: exit %d, stderr %q", args, code, errs)
		}
	}
	out := h.ok("graph", "neighbors", "Hub")
	var id string
	for _, l := range strings.Split(out, "\n") {
		if name, edge, ok := strings.Cut(l, "\t"); ok && name == "Hub -knows-> Bo" {
			id = edge
		}
	}
	if !strings.HasPrefix(id, "r") {
		t.Fatalf("no relation id on the line of Hub -knows-> Bo:\n%s", out)
	}
	h.ok("graph", "unrelate", id)
	if out := h.ok("show", "hub-notes"); strings.Contains(out, "[[Bo]]") || !strings.Contains(out, "[[Cy]]") {
		t.Fatalf("unrelate by the printed id:\n%s", out)
	}
}

// graph path said "No path between A and F." when A and F are five hops apart (the default
// walks four), as it says for two entities nothing joins: it now says how far the shortest is
// and how to walk further.
func TestGraphPathSaysWhenItIsOnlyTooFar(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "reference", "--slug", "chain", "--title", "Chain",
		"--body", "- [[A]] knows [[B]]\n- [[B]] knows [[C]]\n- [[C]] knows [[D]]\n- [[D]] knows [[E]]\n- [[E]] knows [[F]]\n- [[X]] knows [[Y]]")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"graph", "path", "A", "F"}, "No path of at most 4 hops between A and F: the shortest has 5. Walk further with --max-hops N (at most 6)"},
		{[]string{"graph", "path", "A", "F", "--max-hops", "3"}, "No path of at most 3 hops between A and F: the shortest has 5."},
		{[]string{"graph", "path", "A", "Y"}, "No path between A and Y."},
		{[]string{"graph", "path", "A", "F", "--max-hops", "5"}, "E -knows-> F\tchain"},
	} {
		if out := h.ok(tc.args...); !strings.Contains(out, tc.want) {
			t.Errorf("%v:\n%s\nwant %q", tc.args, out, tc.want)
		}
	}
}
