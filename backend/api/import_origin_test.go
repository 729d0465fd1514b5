package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/importer"
	"engram/backend/memory"
)

// D8: a memory of another tool's source that the store refuses is named by that source's
// entry or file, in the preview and the import alike — mem0's entry 5 was "line 3" (the
// converted JSONL's), Obsidian's big.md a bare "line 1".
func TestRefusalsNameTheSourceEntryOrFile(t *testing.T) {
	dir := t.TempDir()
	mem0 := filepath.Join(dir, "mem0.json")
	os.WriteFile(mem0, []byte(`[{"memory":"one"},{"memory":""},{"memory":"three"},{"id":"x"},{"memory":"`+strings.Repeat("x", 9000)+`"}]`), 0o644)
	vault := filepath.Join(dir, "vault")
	os.MkdirAll(vault, 0o755)
	os.WriteFile(filepath.Join(vault, "big.md"), []byte(strings.Repeat("y", 9000)+"\n"), 0o644)
	os.WriteFile(filepath.Join(vault, "small.md"), []byte("A small note.\n"), 0o644)
	for _, tc := range []struct {
		src   ImportSource
		path  string
		entry int
	}{
		{ImportSource{Format: importer.FormatMem0, Path: mem0}, mem0, 5},
		{ImportSource{Format: importer.FormatObsidian, Path: vault}, filepath.Join(vault, "big.md"), 0},
	} {
		t.Run(tc.src.Format, func(t *testing.T) {
			a := newAPI(t, memory.ActorUser)
			pv, err := a.Memory.ImportPreview(ImportPreviewParams{ImportSource: tc.src})
			if err != nil {
				t.Fatal(err)
			}
			res, err := a.Memory.Import(ImportParams{ImportSource: tc.src})
			if err != nil {
				t.Fatal(err)
			}
			for _, errs := range [][]ImportLineError{pv.Errors, res.Errors} {
				var refused []ImportLineError
				for _, e := range errs {
					if e.Line > 0 {
						refused = append(refused, e)
					}
				}
				if len(refused) != 1 || refused[0].Code != memory.CodeBodyTooLarge || refused[0].Args["FromPath"] != tc.path ||
					(tc.entry > 0) != (refused[0].Args["FromEntry"] == tc.entry) {
					t.Fatalf("refused %+v", refused)
				}
			}
		})
	}
}

// D11 through the api: the export carries everything it could read and names, translated,
// the agent key file it left out (it failed with nothing written).
func TestExportNamesTheKeyFileItLeftOut(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	mustCall(t, a, "memory.write", `{"scope":"global","type":"user","slug":"tea-pref","title":"Tea","body":"Drinks green tea."}`)
	mustCall(t, a, "kv.set", `{"agent":"ok","key":"a","value":1}`)
	mustCall(t, a, "kv.set", `{"agent":"bot","key":"b","value":2}`)
	if err := os.WriteFile(filepath.Join(a.deps.Store.Root(), "agents", "bot", "kv.json"), []byte(`{"a":"1","a":"dup"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	exp := mustCall(t, a, "memory.export", `{}`).(ExportResult)
	if exp.Count != 1 || exp.KV != 1 || !strings.Contains(exp.JSONL, `"agent":"ok"`) || len(exp.Problems) != 1 {
		t.Fatalf("export %+v", exp)
	}
	if p := exp.Problems[0]; p.I18nKey != "error.kv_file_invalid" || !strings.Contains(p.Message, "agents/bot/kv.json") || strings.Contains(p.Message, "{{") {
		t.Fatalf("problem %+v", p)
	}
}

// D9: an id that is no ULID says what an id looks like, in English and Chinese (both said
// "The file could not be read: id").
func TestBadIDIsExplained(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	jsonl := `{"id":"not-a-ulid","slug":"odd-id","title":"Odd","scope":"global","type":"user","body":"b"}` + "\n"
	raw, _ := json.Marshal(ImportParams{JSONL: jsonl})
	res := mustCall(t, a, "memory.import", string(raw)).(ImportResult)
	if len(res.Errors) != 1 || res.Errors[0].Code != memory.CodeImportBadID || !strings.Contains(res.Errors[0].Message, "not-a-ulid") ||
		!strings.Contains(res.Errors[0].Message, "ULID") {
		t.Fatalf("import %+v", res)
	}
	mustCall(t, a, "settings.update", `{"language":"zh-CN"}`)
	res = mustCall(t, a, "memory.import", string(raw)).(ImportResult)
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "不是有效的 Engram id") {
		t.Fatalf("import in Chinese %+v", res)
	}
}
