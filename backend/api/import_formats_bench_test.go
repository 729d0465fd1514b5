package api

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

// BenchmarkImportMem0 imports a 6,000-memory mem0 export (spread over 20 agents so no scope
// fills up) into a fresh home: conversion, preview-free import, all through the api.
// go test -run '^$' -bench ImportMem0 -benchtime 1x ./backend/api/
func BenchmarkImportMem0(b *testing.B) {
	const n = 6000
	list := make([]map[string]any, n)
	for i := range list {
		list[i] = map[string]any{"id": fmt.Sprintf("id-%d", i), "memory": fmt.Sprintf("Fact number %d about the person: likes topic %d", i, i*7),
			"agent_id": fmt.Sprintf("agent-%d", i%20), "created_at": "2024-07-20T01:48:04Z"}
	}
	data, _ := json.Marshal(list)
	src := filepath.Join(b.TempDir(), "mem0.json")
	os.WriteFile(src, data, 0o644)
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		b.Fatal(err)
	}
	var spent time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ctx := context.Background()
		st, err := memory.Open(ctx, b.TempDir(), memory.Options{})
		if err != nil {
			b.Fatal(err)
		}
		set := settings.New(st, "en")
		a := New(ctx, Deps{Store: st, Catalog: cat, Settings: set, Events: NewHub(st, set), Recall: recall.New(st, recall.Options{}), Version: "test"}, memory.ActorUser)
		b.StartTimer()
		start := time.Now()
		pv, err := a.Memory.ImportPreview(ImportPreviewParams{ImportSource: ImportSource{Format: "mem0", Path: src}})
		if err != nil || pv.New != n {
			b.Fatalf("preview: %d new, %v", pv.New, err)
		}
		res, err := a.Memory.Import(ImportParams{ImportSource: ImportSource{Format: "mem0", Path: src}})
		if err != nil || res.Imported != n {
			b.Fatalf("import: %d, %v", res.Imported, err)
		}
		spent += time.Since(start)
		b.StopTimer()
		st.Close()
	}
	b.ReportMetric(float64(n*b.N)/spent.Seconds(), "memories/s")
}
