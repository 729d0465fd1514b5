package importer

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"engram/backend/coded"
	"engram/backend/memory/format"
)

// want is what one converted record must hold (empty fields are not checked, except Workdir
// and Agent which must match exactly).
type want struct {
	slug, title, body string
	scope             format.Scope
	workdir, agent    string
	typ               format.Type
	tags              []string
	created           string // RFC 3339, "mtime" for the file's modification time, "" for none
}

// copyTree copies a fixture folder into a temp dir so mtimes and folder names are the test's.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

var mtime = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

// touchAll sets every file's modification time to mtime.
func touchAll(t *testing.T, root string) {
	t.Helper()
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if err := os.Chtimes(p, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
}

func check(t *testing.T, got []format.Record, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		for _, r := range got {
			t.Logf("got %s %s/%s %q", r.Scope, r.Type, r.Slug, r.Title)
		}
		t.Fatalf("%d records, want %d", len(got), len(wants))
	}
	for i, w := range wants {
		r := got[i]
		if w.slug != "" && r.Slug != w.slug {
			t.Errorf("%d: slug %q, want %q", i, r.Slug, w.slug)
		}
		if !format.ValidSlug(r.Slug) {
			t.Errorf("%d: slug %q is not valid", i, r.Slug)
		}
		if w.title != "" && r.Title != w.title {
			t.Errorf("%d: title %q, want %q", i, r.Title, w.title)
		}
		if w.body != "" && r.Body != w.body {
			t.Errorf("%d: body %q, want %q", i, r.Body, w.body)
		}
		if r.Scope != w.scope || r.Workdir != w.workdir || r.Agent != w.agent || r.Type != w.typ {
			t.Errorf("%d (%s): %s %q %q %s, want %s %q %q %s", i, r.Slug, r.Scope, r.Workdir, r.Agent, r.Type, w.scope, w.workdir, w.agent, w.typ)
		}
		if w.tags != nil && strings.Join(r.Tags, ",") != strings.Join(w.tags, ",") {
			t.Errorf("%d: tags %v, want %v", i, r.Tags, w.tags)
		}
		switch {
		case w.created == "" && r.Created != nil:
			t.Errorf("%d: created %v, want none", i, r.Created)
		case w.created == "mtime" && (r.Created == nil || !r.Created.Equal(mtime)):
			t.Errorf("%d: created %v, want the file's mtime %v", i, r.Created, mtime)
		case w.created != "" && w.created != "mtime":
			wt, _ := time.Parse(time.RFC3339Nano, w.created)
			if r.Created == nil || !r.Created.Equal(wt) {
				t.Errorf("%d: created %v, want %v", i, r.Created, wt)
			}
		}
	}
}

func TestClaudeCode(t *testing.T) {
	root := copyTree(t, "testdata/claude/home")
	touchAll(t, root)
	shop := filepath.Join(root, "code", "shop")
	got, err := Convert(FormatClaude, root, Options{UserHome: root})
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, []want{
		{slug: "answer-in-british-english-and-keep-answers-short", title: "Answer in British English and keep answers short.",
			scope: format.ScopeGlobal, typ: format.TypeFeedback, tags: []string{"claude-code", "my-preferences"}, created: "mtime"},
		{title: "I use fish, not bash: give shell snippets for fish.", scope: format.ScopeGlobal, typ: format.TypeFeedback, created: "mtime"},
		{title: "Never push to main directly; open a pull request.", scope: format.ScopeGlobal, typ: format.TypeFeedback,
			tags: []string{"claude-code", "my-preferences", "git"}, created: "mtime"},
		// .claude/CLAUDE.md belongs to the folder above it; a numbered item is a bullet too.
		{title: "Deploys happen from the release branch only.", scope: format.ScopeProject, workdir: shop, typ: format.TypeFeedback, created: "mtime"},
		{slug: "build-make-build", title: "Build: make build", body: "Build: `make build`", scope: format.ScopeProject, workdir: shop,
			typ: format.TypeFeedback, tags: []string{"claude-code", "commands"}, created: "mtime"},
		{title: "Run one test: go test ./internal/cart -run TestTotals", scope: format.ScopeProject, workdir: shop, typ: format.TypeFeedback, created: "mtime"},
		{title: "Use tabs for indentation in Go files", scope: format.ScopeProject, workdir: shop, typ: format.TypeFeedback, created: "mtime"},
		// sub-items stay with their item; the code block and the prose are not memories.
		{title: "Errors are wrapped with the package name:",
			body:  "Errors are wrapped with the package name:\n- `fmt.Errorf(\"cart: unable to load: %w\", err)`\n- never `errors.New` with a bare message",
			scope: format.ScopeProject, workdir: shop, typ: format.TypeFeedback, created: "mtime"},
		{title: "Money is always an integer number of cents", body: "**Money** is always an integer number of cents",
			scope: format.ScopeProject, workdir: shop, typ: format.TypeFeedback, created: "mtime"},
	})
	// One file on its own is read the same way.
	one, err := Convert(FormatClaude, filepath.Join(shop, "CLAUDE.md"), Options{UserHome: root})
	if err != nil || len(one) != 5 {
		t.Fatalf("single file: %d records, %v", len(one), err)
	}

	// CLAUDE.md as a link to AGENTS.md in the same folder (a common set-up): read through the
	// link, once (it was skipped as "its target is walked anyway", and nothing walked it).
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "AGENTS.md"), []byte("- Run make lint before every commit.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("AGENTS.md", filepath.Join(repo, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("AGENTS.md", filepath.Join(repo, "CLAUDE.local.md")); err != nil {
		t.Fatal(err)
	}
	linked, err := Convert(FormatClaude, repo, Options{UserHome: "/nonexistent"})
	if err != nil || len(linked) != 1 || linked[0].Title != "Run make lint before every commit." {
		t.Fatalf("CLAUDE.md linked to AGENTS.md: %+v %v", linked, err)
	}
}

func TestClaudeCodeAutoMemory(t *testing.T) {
	root := copyTree(t, "testdata/claude-auto")
	touchAll(t, root)
	// The folder name -home-ann-code-shop names no folder here: the person must say which.
	_, err := Convert(FormatClaude, root, Options{UserHome: "/nonexistent"})
	assertCode(t, err, CodeNoProject)

	got, err := Convert(FormatClaude, root, Options{UserHome: "/nonexistent", Workdir: "/work/shop"})
	if err != nil {
		t.Fatal(err)
	}
	shop := []want{
		// the index line linking feedback_testing.md is not a memory of its own
		{title: "The staging database is reset every Monday at 06:00 UTC.", scope: format.ScopeProject, workdir: "/work/shop",
			typ: format.TypeProject, created: "mtime"},
		{slug: "testing-approach", title: "Testing approach", scope: format.ScopeProject, workdir: "/work/shop", typ: format.TypeFeedback,
			body:    "Integration tests must hit a real database, not mocks.\n\n**Why:** a mocked test passed while the production migration failed.\n**How to apply:** use the docker-compose Postgres in `make test-integration`.",
			created: "mtime"},
	}
	check(t, got, shop)

	// The memory folder itself as the source: its topic files are at the top of the walk and
	// are still topic files (they were skipped, and so was the index line naming them).
	mem := filepath.Join(root, "projects", "-home-ann-code-shop", "memory")
	again, err := Convert(FormatClaude, mem, Options{UserHome: "/nonexistent", Workdir: "/work/shop"})
	if err != nil {
		t.Fatal(err)
	}
	check(t, again, shop)
	// MEMORY.md alone: the topic file is not part of the import, so its index line is kept
	// (it was dropped, and the topic with it).
	alone, err := Convert(FormatClaude, filepath.Join(mem, "MEMORY.md"), Options{UserHome: "/nonexistent", Workdir: "/work/shop"})
	if err != nil || len(alone) != 2 || !strings.Contains(alone[0].Body+alone[1].Body, "(feedback_testing.md)") {
		t.Fatalf("MEMORY.md alone: %+v %v", alone, err)
	}

	// A folder named memory without MEMORY.md is no auto memory: its other notes are not
	// topic files (a project checked out as …/memory).
	checkout := filepath.Join(t.TempDir(), "memory")
	if err := os.MkdirAll(checkout, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(checkout, "README.md"), []byte("# A project\n\nNot a memory.\n"), 0o644)
	os.WriteFile(filepath.Join(checkout, "CLAUDE.md"), []byte("- Run make lint first.\n"), 0o644)
	if got, err := Convert(FormatClaude, checkout, Options{UserHome: "/nonexistent"}); err != nil || len(got) != 1 {
		t.Fatalf("a checkout named memory: %+v %v", got, err)
	}

	// When the encoded folder exists, it is the project.
	proj := t.TempDir()
	enc := strings.ReplaceAll(proj, "/", "-")
	dir := filepath.Join(t.TempDir(), "projects", enc, "memory")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte("- Releases are cut on Thursdays.\n"), 0o644)
	got, err = Convert(FormatClaude, filepath.Join(dir, "MEMORY.md"), Options{UserHome: "/nonexistent"})
	if err != nil || len(got) != 1 || got[0].Workdir != proj || got[0].Scope != format.ScopeProject {
		t.Fatalf("decoded project: %+v %v", got, err)
	}
}

func TestMem0(t *testing.T) {
	got, err := Convert(FormatMem0, "testdata/mem0/get_all.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, []want{
		{slug: "is-a-vegetarian-and-allergic-to-nuts", title: "Is a vegetarian and allergic to nuts", body: "Is a vegetarian and allergic to nuts",
			scope: format.ScopeGlobal, typ: format.TypeUser, tags: []string{"mem0", "food", "health"}, created: "2024-07-20T08:48:04.123456Z"},
		{slug: "prefers-summaries-as-bullet-points", scope: format.ScopeAgent, agent: "travel-assistant", typ: format.TypeUser,
			tags: []string{"mem0", "user-preferences"}, created: "2024-08-01T09:30:00Z"},
		// a Chinese title keeps its words
		{slug: "喜欢在周末去爬山", title: "喜欢在周末去爬山", body: "喜欢在周末去爬山", scope: format.ScopeGlobal, typ: format.TypeUser, created: "2024-09-10T00:00:00Z"},
	})
	if !strings.Contains(got[0].Reasoning, "3c90c3cc-0d44-4b50-8888-8dd25736052a") {
		t.Fatalf("reasoning %q", got[0].Reasoning)
	}
	list, err := Convert(FormatMem0, "testdata/mem0/list.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, list, []want{{title: "Works at Acme as a data engineer", scope: format.ScopeGlobal, typ: format.TypeUser, created: "2024-06-01T12:00:00Z"}})
}

func TestObsidian(t *testing.T) {
	root := copyTree(t, "testdata/obsidian/vault")
	touchAll(t, root)
	got, err := Convert(FormatObsidian, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, []want{
		// the permalink's last part is the slug; the heading that repeats the title goes;
		// links and relation lines stay as written.
		{slug: "coffee-brewing-methods", title: "Coffee Brewing Methods",
			body:  "## Observations\n- [method] Pour over provides more flavor clarity than French press\n- [preference] Ethiopian beans work well with lighter roasts #brewing\n\n## Relations\n- relates_to [[Coffee Bean Origins]]\n- requires [[Proper Grinding Technique]]",
			scope: format.ScopeGlobal, typ: format.TypeReference, tags: []string{"coffee", "brewing"}, created: "2024-03-05T00:00:00Z"},
		{slug: "reading-list", title: "Reading list", body: "- Designing Data-Intensive Applications\n- [[The Pragmatic Programmer]]",
			scope: format.ScopeGlobal, typ: format.TypeReference, created: "mtime"},
		{slug: "maria", title: "Maria", body: "Maria leads the platform team and reviews my design docs. See [[Coffee Brewing Methods]].",
			scope: format.ScopeGlobal, typ: format.TypeUser, tags: []string{"people", "work"}, created: "2024-05-01T09:00:00Z"},
	})
	if strings.Join(got[2].Aliases, ",") != "Maria Lopez" {
		t.Fatalf("aliases %v", got[2].Aliases)
	}
	proj, err := Convert(FormatObsidian, root, Options{Workdir: "/work/notes"})
	if err != nil || proj[0].Scope != format.ScopeProject || proj[0].Workdir != "/work/notes" {
		t.Fatalf("with a project: %+v %v", proj, err)
	}
}

func TestChatGPT(t *testing.T) {
	got, err := Convert(FormatChatGPT, "testdata/chatgpt/memory.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, []want{ // the memory turned off (enabled: false) is not imported
		{slug: "user-s-name-is-alex-and-they-live-in-lisbon", title: "User's name is Alex and they live in Lisbon.", scope: format.ScopeGlobal,
			typ: format.TypeUser, tags: []string{"chatgpt"}, created: "2024-04-02T10:00:00Z"},
		{title: "Prefers Python examples over JavaScript.", scope: format.ScopeGlobal, typ: format.TypeUser, created: "2024-05-11T18:30:00Z"},
	})
	txt, err := Convert(FormatChatGPT, "testdata/chatgpt/memories.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, txt, []want{
		{slug: "user-s-name-is-alex-and-they-live-in-lisbon", scope: format.ScopeGlobal, typ: format.TypeUser},
		{title: "Prefers Python examples over JavaScript.", scope: format.ScopeGlobal, typ: format.TypeUser},
		{title: "Has two cats called Miso and Tofu.", scope: format.ScopeGlobal, typ: format.TypeUser},
	})
}

func assertCode(t *testing.T, err error, code string) {
	t.Helper()
	c, ok := coded.As(err)
	if !ok || c.ErrorCode() != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Hostile sources fail whole with a coded error (nothing converted, so nothing imported).
func TestHostileSources(t *testing.T) {
	dir := t.TempDir()
	bad := func(name, text string) string { p := filepath.Join(dir, name); write(t, p, text); return p }
	outside := bad("secret.md", "- the password is hunter2\n")
	vault := filepath.Join(dir, "vault")
	write(t, filepath.Join(vault, "ok.md"), "A note.\n")
	if err := os.Symlink(outside, filepath.Join(vault, "link.md")); err != nil {
		t.Fatal(err)
	}
	claudeDir := filepath.Join(dir, "proj")
	write(t, filepath.Join(claudeDir, "CLAUDE.md"), "- fine\n")
	os.Symlink(dir, filepath.Join(claudeDir, "up")) // a linked folder is not followed (it holds secret.md)
	os.Symlink(outside, filepath.Join(claudeDir, "MEMORY.md"))
	huge := filepath.Join(dir, "huge.json")
	f, _ := os.Create(huge)
	f.Truncate(MaxFileBytes + 1)
	f.Close()

	for _, tc := range []struct {
		name, source, path, code string
	}{
		{"malformed mem0", FormatMem0, bad("m.json", `[{"memory": "a", `), CodeSourceInvalid},
		{"mem0 not a list", FormatMem0, bad("m2.json", `{"page": 1}`), CodeSourceInvalid},
		{"mem0 entry without text", FormatMem0, bad("m3.json", `[{"id": "x"}]`), CodeSourceInvalid},
		{"mem0 hostile agent", FormatMem0, bad("m4.json", `[{"memory": "a b c", "agent_id": "../../etc"}]`), CodeSourceInvalid},
		{"mem0 not JSON", FormatMem0, bad("m5.txt", "hello"), CodeSourceInvalid},
		{"malformed chatgpt", FormatChatGPT, bad("c.json", `[{"content": "x"`), CodeSourceInvalid},
		{"not UTF-8", FormatChatGPT, bad("c.txt", "\xff\xfe\x00bad"), CodeSourceInvalid},
		{"too big", FormatMem0, huge, CodeSourceTooBig},
		{"missing", FormatMem0, filepath.Join(dir, "nope.json"), CodeSourceRead},
		{"unclosed frontmatter", FormatObsidian, bad("n.md", "---\ntitle: x\nbody\n"), CodeSourceInvalid},
		{"broken YAML", FormatObsidian, bad("y.md", "---\ntitle: [x\n---\nbody\n"), CodeSourceInvalid},
		{"symlink out of the vault", FormatObsidian, vault, CodeSymlinkOut},
		{"symlink out of a project", FormatClaude, claudeDir, CodeSymlinkOut},
		{"empty", FormatChatGPT, bad("e.txt", "\n\n"), CodeSourceEmpty},
		{"unknown format", "notion", dir, CodeUnknownFormat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := Convert(tc.source, tc.path, Options{UserHome: "/nonexistent"})
			if recs != nil {
				t.Fatalf("records returned with an error: %d", len(recs))
			}
			assertCode(t, err, tc.code)
			var ie *Error
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "importer: ") {
				t.Fatalf("error %v is not the importer's", err)
			}
		})
	}
}

// Names and permalinks never become paths: every slug is a valid slug.
func TestPathTricksBecomeSlugs(t *testing.T) {
	vault := t.TempDir()
	write(t, filepath.Join(vault, "evil...md"), "---\npermalink: ../../../etc/passwd\n---\nnot a path\n")
	write(t, filepath.Join(vault, "a", "b.md"), "---\npermalink: ..\\..\\windows\\system32\ntitle: \"../../x\"\n---\nbody\n")
	write(t, filepath.Join(vault, "same.md"), "---\ntitle: Same\n---\none\n")
	write(t, filepath.Join(vault, "same2.md"), "---\ntitle: Same\n---\ntwo\n")
	got, err := Convert(FormatObsidian, vault, Options{})
	if err != nil {
		t.Fatal(err)
	}
	slugs := map[string]bool{}
	for _, r := range got {
		if !format.ValidSlug(r.Slug) || strings.ContainsAny(r.Slug, `/\.`) {
			t.Fatalf("slug %q", r.Slug)
		}
		if slugs[r.Slug] {
			t.Fatalf("two notes share slug %q", r.Slug)
		}
		slugs[r.Slug] = true
	}
	if len(got) != 4 || !slugs["passwd"] || !slugs["system32"] {
		t.Fatalf("slugs %v", slugs)
	}
}

// A bullet far over the body limit is converted as it is: the store's preview refuses that one
// line (body too large) and says so; the importer never truncates text silently.
func TestHugeBulletIsKeptWhole(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("word ", 40000)
	write(t, filepath.Join(dir, "CLAUDE.md"), "- short one\n- "+long+"\n")
	got, err := Convert(FormatClaude, dir, Options{UserHome: "/nonexistent"})
	if err != nil || len(got) != 2 || got[1].Body != strings.TrimSpace(long) || len([]rune(got[1].Title)) > format.MaxTitleChars {
		t.Fatalf("%d records, %v", len(got), err)
	}
}

func TestJSONLRoundTripsRecords(t *testing.T) {
	got, err := Convert(FormatMem0, "testdata/mem0/get_all.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := JSONL(got)
	if n := strings.Count(out, "\n"); n != len(got) || !strings.Contains(out, `"agent":"travel-assistant"`) {
		t.Fatalf("JSONL:\n%s", out)
	}
}

// A vault's note that cannot be read (not UTF-8, frontmatter that is not YAML, as an Obsidian
// template's `date: {{date}}`) is left out and named, and the other notes are converted;
// Convert, which has no way to say so, still fails whole, and a vault of nothing but such
// notes fails with their reason.
func TestVaultLeavesOutUnreadableNotes(t *testing.T) {
	vault := t.TempDir()
	write(t, filepath.Join(vault, "good.md"), "A fine note about kayaks.\n")
	write(t, filepath.Join(vault, "also-good.md"), "---\ntitle: Second\n---\nAnother note.\n")
	write(t, filepath.Join(vault, "templates", "daily.md"), "---\ndate: {{date}}\n---\n# {{title}}\n")
	write(t, filepath.Join(vault, "latin1.md"), "caf\xe9\n")
	recs, skipped, err := ConvertAll(FormatObsidian, vault, Options{UserHome: "/nonexistent"})
	if err != nil || len(recs) != 2 || len(skipped) != 2 {
		t.Fatalf("ConvertAll: %d records, skipped %v, %v", len(recs), skipped, err)
	}
	for _, sk := range skipped {
		assertCode(t, sk.Err, CodeSourceInvalid)
		if !strings.HasSuffix(sk.Path, "daily.md") && !strings.HasSuffix(sk.Path, "latin1.md") {
			t.Fatalf("skipped %s", sk.Path)
		}
	}
	if _, err := Convert(FormatObsidian, vault, Options{UserHome: "/nonexistent"}); err == nil {
		t.Fatal("Convert ignored an unreadable note")
	}
	bad := t.TempDir()
	write(t, filepath.Join(bad, "only.md"), "---\ndate: {{date}}\n---\nx\n")
	if _, _, err := ConvertAll(FormatObsidian, bad, Options{UserHome: "/nonexistent"}); err == nil {
		t.Fatal("a vault of unreadable notes converted")
	} else {
		assertCode(t, err, CodeSourceInvalid)
	}
}

// An entry of a mem0 or ChatGPT list that cannot be used — no text, an agent name Engram
// cannot hold, not an object — is left out and named by its number, and the other entries
// are converted; Convert still fails whole, and a list of nothing but such entries fails.
func TestListLeavesOutUnusableEntries(t *testing.T) {
	dir := t.TempDir()
	mem0 := filepath.Join(dir, "mem0.json")
	write(t, mem0, `{"results": [
		{"id": "a", "memory": "Drinks oolong tea"},
		{"id": "b"},
		{"id": "c", "memory": "Keeps a sourdough starter", "agent_id": "../../etc"},
		42,
		{"id": "e", "memory": ["not", "text"]},
		{"id": "f", "memory": "Runs on Sundays"}]}`)
	chat := filepath.Join(dir, "chatgpt.json")
	write(t, chat, `[{"content": "Prefers short answers"}, {"enabled": true}, "Lives in Porto", {"content": "", "enabled": false}, null, {"content": "Has a cat"}]`)
	for _, tc := range []struct {
		source, path string
		texts        []string
		entries      []int
		keys         []string
	}{
		{FormatMem0, mem0, []string{"Drinks oolong tea", "Runs on Sundays"}, []int{2, 3, 4, 5},
			[]string{"detail.entry_no_text", "detail.entry_bad_agent", "detail.entry_not_object", "detail.entry_not_object"}},
		{FormatChatGPT, chat, []string{"Prefers short answers", "Lives in Porto", "Has a cat"}, []int{2, 5},
			[]string{"detail.entry_no_text", "detail.entry_not_object"}},
	} {
		recs, skipped, err := ConvertAll(tc.source, tc.path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.source, err)
		}
		var texts []string
		for _, r := range recs {
			texts = append(texts, r.Body)
		}
		if !slices.Equal(texts, tc.texts) {
			t.Fatalf("%s converted %q, want %q", tc.source, texts, tc.texts)
		}
		if len(skipped) != len(tc.entries) {
			t.Fatalf("%s skipped %+v, want entries %v", tc.source, skipped, tc.entries)
		}
		for i, sk := range skipped {
			var ie *Error
			if sk.Path != tc.path || sk.Entry != tc.entries[i] || !errors.As(sk.Err, &ie) || ie.Code != CodeSourceInvalid ||
				ie.Args["DetailKey"] != tc.keys[i] || ie.Args["Entry"] != tc.entries[i] {
				t.Fatalf("%s skipped[%d] = %+v (%v), want entry %d with %s", tc.source, i, sk, sk.Err, tc.entries[i], tc.keys[i])
			}
		}
		if _, err := Convert(tc.source, tc.path, Options{}); err == nil {
			t.Fatalf("%s: Convert ignored an unusable entry", tc.source)
		}
	}
	only := filepath.Join(dir, "only.json")
	write(t, only, `[{"id": "x"}, {"id": "y"}]`)
	if _, _, err := ConvertAll(FormatMem0, only, Options{}); err == nil {
		t.Fatal("a list of unusable entries converted")
	} else {
		assertCode(t, err, CodeSourceInvalid)
	}
}
