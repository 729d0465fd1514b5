package api

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/i18n"
	"engram/backend/importer"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

// copyFixture copies an importer fixture folder into a temp dir (the project folder of a
// CLAUDE.md is where the file is, so every run gets its own).
func copyFixture(t *testing.T, rel string) string {
	t.Helper()
	src := filepath.Join("..", "importer", "testdata", rel)
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, r), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, r), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func storeCount(t *testing.T, a *API) int {
	t.Helper()
	var buf bytes.Buffer
	c, err := a.deps.Store.ExportCounted(context.Background(), &buf, memory.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return c.Memories
}

// Another tool's memories go through the same preview and import as JSONL: the preview
// counts them, the import writes them unreviewed in their scopes, and a second import of the
// same source writes nothing again (every memory a duplicate). A memory changed in Engram
// since is a conflict: reported, and the store's version kept.
func TestImportFromClaudeCodeRoundTrip(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	root := copyFixture(t, "claude/home/code")
	shop := filepath.Join(root, "shop")
	src := ImportSource{Format: importer.FormatClaude, Path: root}

	pv, err := a.Memory.ImportPreview(ImportPreviewParams{ImportSource: src})
	if err != nil {
		t.Fatal(err)
	}
	if pv.New != 6 || pv.Duplicates != 0 || pv.Conflicts != 0 || pv.Invalid != 0 || len(pv.Scopes) != 1 || pv.Scopes[0].Workdir != shop || pv.Scopes[0].Adding != 6 {
		t.Fatalf("preview: %+v", pv)
	}
	if storeCount(t, a) != 0 {
		t.Fatal("the preview wrote")
	}
	res, err := a.Memory.Import(ImportParams{ImportSource: src})
	if err != nil || res.Imported != 6 || len(res.Errors) != 0 {
		t.Fatalf("import: %+v %v", res, err)
	}
	m, err := a.deps.Store.GetBySlug(context.Background(), memory.ScopeProject, shop, "", "build-make-build")
	if err != nil {
		t.Fatal(err)
	}
	if m.Body != "Build: `make build`" || m.Type != memory.TypeFeedback || m.Reviewed || m.Source.Kind != memory.ActorImport {
		t.Fatalf("memory: %+v", m)
	}

	// Changed in Engram since: the next import must not overwrite it.
	body := "Build: `make all` (changed by hand)"
	br, err := a.deps.Store.ApplyBatch(context.Background(), memory.Batch{Actor: memory.ActorUser,
		Items: []memory.Item{{Op: memory.OpUpdate, ID: m.ID, Body: &body, Mode: "replace"}}})
	if err != nil || !br.Results[0].OK {
		t.Fatalf("update: %+v %v", br, err)
	}
	pv, err = a.Memory.ImportPreview(ImportPreviewParams{ImportSource: src})
	if err != nil || pv.New != 0 || pv.Duplicates != 5 || pv.Conflicts != 1 || len(pv.ConflictLines) != 1 || pv.ConflictLines[0].Slug != "build-make-build" {
		t.Fatalf("second preview: %+v %v", pv, err)
	}
	// The import does what the preview said: nothing fails, the changed memory is a conflict
	// named by its file and line (it used to fail all six lines as already_exists).
	res, err = a.Memory.Import(ImportParams{ImportSource: src})
	if err != nil || res.Imported != 0 || res.Duplicates != 5 || res.Conflicts != 1 || len(res.Errors) != 0 ||
		len(res.ConflictLines) != 1 || res.ConflictLines[0].From == nil || res.ConflictLines[0].From.Path != filepath.Join(shop, "CLAUDE.md") ||
		res.ConflictLines[0].From.Line != 7 {
		t.Fatalf("second import: %+v %v", res, err)
	}
	if n := storeCount(t, a); n != 6 {
		t.Fatalf("%d memories after a second import, want 6", n)
	}
	if m, _ := a.deps.Store.Get(context.Background(), m.ID); m.Body != body {
		t.Fatalf("the import overwrote a changed memory: %q", m.Body)
	}
}

func TestImportFromEachFormat(t *testing.T) {
	for _, tc := range []struct {
		format, path string
		n            int
	}{
		{importer.FormatMem0, "mem0/get_all.json", 3},
		{importer.FormatObsidian, "obsidian/vault", 3},
		{importer.FormatChatGPT, "chatgpt/memory.json", 2},
	} {
		t.Run(tc.format, func(t *testing.T) {
			a := newAPI(t, memory.ActorUser)
			src := ImportSource{Format: tc.format, Path: filepath.Join("..", "importer", "testdata", tc.path)}
			res, err := a.Memory.Import(ImportParams{ImportSource: src})
			if err != nil || res.Imported != tc.n || len(res.Errors) != 0 {
				t.Fatalf("import: %+v %v", res, err)
			}
			pv, err := a.Memory.ImportPreview(ImportPreviewParams{ImportSource: src})
			if err != nil || pv.Duplicates != tc.n || pv.New != 0 {
				t.Fatalf("preview after import: %+v %v", pv, err)
			}
		})
	}
	// mem0's agent memories land in that agent's scope.
	a := newAPI(t, memory.ActorUser)
	if _, err := a.Memory.Import(ImportParams{ImportSource: ImportSource{Format: "mem0", Path: "../importer/testdata/mem0/get_all.json"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.deps.Store.GetBySlug(context.Background(), memory.ScopeAgent, "", "travel-assistant", "prefers-summaries-as-bullet-points"); err != nil {
		t.Fatal(err)
	}
}

// A source that cannot be read whole is a translated error and nothing is written; a remote
// caller cannot make this computer read a path; one bad memory in a good source is refused
// alone and reported.
func TestImportSourceErrors(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	dir := t.TempDir()
	vault := filepath.Join(dir, "vault")
	os.MkdirAll(vault, 0o755)
	os.WriteFile(filepath.Join(vault, "a.md"), []byte("A fine note.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.md"), []byte("outside\n"), 0o644)
	os.Symlink(filepath.Join(dir, "secret.md"), filepath.Join(vault, "b.md"))
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`[{"memory": "x"`), 0o644)

	for _, tc := range []struct {
		src  ImportSource
		code string
	}{
		{ImportSource{Format: "obsidian", Path: vault}, importer.CodeSymlinkOut},
		{ImportSource{Format: "mem0", Path: filepath.Join(dir, "bad.json")}, importer.CodeSourceInvalid},
		{ImportSource{Format: "evernote", Path: dir}, importer.CodeUnknownFormat},
		{ImportSource{Format: "mem0"}, CodeImportPathRequired},
	} {
		for _, call := range []func() error{
			func() error { _, err := a.Memory.Import(ImportParams{ImportSource: tc.src}); return err },
			func() error { _, err := a.Memory.ImportPreview(ImportPreviewParams{ImportSource: tc.src}); return err },
		} {
			err := call()
			e, ok := err.(*Error)
			if !ok || e.Code != tc.code || e.I18nKey != "error."+tc.code || e.Message == "" || strings.Contains(e.Message, "error.") {
				t.Fatalf("%+v: %v, want %s translated", tc.src, err, tc.code)
			}
		}
	}
	if n := storeCount(t, a); n != 0 {
		t.Fatalf("%d memories written by failed imports", n)
	}
	// Another tool's file cannot vouch for its review state.
	_, err := a.Memory.Import(ImportParams{ImportSource: ImportSource{Format: "mem0", Path: "../importer/testdata/mem0/list.json"}, KeepReview: true})
	if e, ok := err.(*Error); !ok || e.Code != CodeImportKeepReviewEngramOnly || storeCount(t, a) != 0 {
		t.Fatalf("keep-review: %v", err)
	}

	for _, actor := range []string{memory.ActorBridge, memory.ActorTool} {
		remote := newAPI(t, actor)
		_, err := remote.Memory.ImportPreview(ImportPreviewParams{ImportSource: ImportSource{Format: "mem0", Path: "../importer/testdata/mem0/list.json"}})
		if e, ok := err.(*Error); !ok || e.Code != CodeImportPathDesktopOnly {
			t.Fatalf("%s: %v", actor, err)
		}
	}

	// A bullet over the body limit: refused alone, reported with its line; the rest imported.
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("- Keep commits small.\n- "+strings.Repeat("long ", 4000)+"\n"), 0o644)
	src := ImportSource{Format: "claude", Path: proj}
	pv, err := a.Memory.ImportPreview(ImportPreviewParams{ImportSource: src})
	if err != nil || pv.New != 1 || pv.Invalid != 1 || len(pv.Errors) != 1 || pv.Errors[0].Line != 2 {
		t.Fatalf("preview: %+v %v", pv, err)
	}
	res, err := a.Memory.Import(ImportParams{ImportSource: src})
	if err != nil || res.Imported != 1 || len(res.Errors) != 1 || res.Errors[0].Message == "" {
		t.Fatalf("import: %+v %v", res, err)
	}
}

// A broken source is told in the person's language.
func TestImportSourceErrorInChinese(t *testing.T) {
	ctx := context.Background()
	st, err := memory.Open(ctx, t.TempDir(), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	set := settings.New(st, "zh-CN")
	a := New(ctx, Deps{Store: st, Catalog: cat, Settings: set, Events: NewHub(st, set), Recall: recall.New(st, recall.Options{}), Version: "test"}, memory.ActorUser)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`[{"memory": `), 0o644)
	_, err = a.Memory.ImportPreview(ImportPreviewParams{ImportSource: ImportSource{Format: "mem0", Path: bad}})
	if e, ok := err.(*Error); !ok || !strings.Contains(e.Message, "不是预期的格式") || !strings.Contains(e.Message, "没有导入任何内容") {
		t.Fatalf("%v", err)
	}
}

// A vault with an unreadable note imports the others and names the one left out (line 0,
// import_source_skipped), in the preview and the import, in the caller's language.
func TestImportVaultLeavesOutUnreadableNotes(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	vault := t.TempDir()
	os.WriteFile(filepath.Join(vault, "good.md"), []byte("A fine note about kayaks.\n"), 0o644)
	os.WriteFile(filepath.Join(vault, "tpl.md"), []byte("---\ndate: {{date}}\n---\n# {{title}}\n"), 0o644)
	src := ImportSource{Format: importer.FormatObsidian, Path: vault}
	pv, err := a.Memory.ImportPreview(ImportPreviewParams{ImportSource: src})
	if err != nil || pv.New != 1 || len(pv.Errors) != 1 || pv.Errors[0].Code != CodeImportSkipped || pv.Errors[0].Line != 0 {
		t.Fatalf("preview: %+v %v", pv, err)
	}
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
		t.Fatal(err)
	}
	res, err := a.Memory.Import(ImportParams{ImportSource: src})
	if err != nil || res.Imported != 1 || len(res.Errors) != 1 {
		t.Fatalf("import: %+v %v", res, err)
	}
	if msg := res.Errors[0].Message; !strings.Contains(msg, "tpl.md") || !strings.Contains(msg, "已跳过") || !strings.Contains(msg, "YAML") {
		t.Fatalf("skipped note said %q", msg)
	}
}

// A mem0 export with an entry that cannot be used imports the others and names the entry left
// out by its number (line 0, import_entry_skipped), in the caller's language.
func TestImportListLeavesOutUnusableEntries(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	path := filepath.Join(t.TempDir(), "mem0.json")
	os.WriteFile(path, []byte(`[{"memory": "Drinks oolong tea"}, {"memory": "Bakes bread", "agent_id": "../x"}, {"memory": "Runs on Sundays"}]`), 0o644)
	src := ImportSource{Format: importer.FormatMem0, Path: path}
	pv, err := a.Memory.ImportPreview(ImportPreviewParams{ImportSource: src})
	if err != nil || pv.New != 2 || len(pv.Errors) != 1 || pv.Errors[0].Code != CodeImportEntrySkipped || pv.Errors[0].Line != 0 {
		t.Fatalf("preview: %+v %v", pv, err)
	}
	if msg := pv.Errors[0].Message; !strings.Contains(msg, "entry 2") || !strings.Contains(msg, "../x") || !strings.Contains(msg, "the others were read") {
		t.Fatalf("skipped entry said %q", msg)
	}
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
		t.Fatal(err)
	}
	res, err := a.Memory.Import(ImportParams{ImportSource: src})
	if err != nil || res.Imported != 2 || len(res.Errors) != 1 {
		t.Fatalf("import: %+v %v", res, err)
	}
	if msg := res.Errors[0].Message; !strings.Contains(msg, "第 2 个条目") || !strings.Contains(msg, "已跳过该条目") {
		t.Fatalf("skipped entry said %q", msg)
	}
}
