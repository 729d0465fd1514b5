package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/backup"
	"engram/backend/memory"
	"engram/backend/organizer"
)

func round() string { return "r" + os.Getenv("ENGRAM_FAULTS_ROUND") }

// writeLoop writes memories and journal entries through the api until n are acknowledged (n <
// 0: until killed); every third write also rewrites the previous memory, its body growing so
// that each marker acknowledged for it stays in every later version.
func (c *child) writeLoop(prefix string, n int) error {
	var prevID, prevBody string
	for i := 0; n < 0 || i < n; i++ {
		slug := fmt.Sprintf("%s-%s-%04d", prefix, round(), i)
		marker := "mk-" + slug
		body := fmt.Sprintf("payload %s %s", marker, strings.Repeat("x", c.rng.IntN(3000)))
		items := []memory.Item{write(slug, body), {Op: memory.OpAppendDaily, Text: "day-" + marker}}
		var upd string
		if prevID != "" && i%3 == 0 {
			upd = prevBody + " upd-" + marker
			items = append(items, memory.Item{Op: memory.OpUpdate, ID: prevID, Body: sp(upd), Mode: "replace"})
		}
		res, err := c.api.Memory.ApplyBatch(api.BatchParams{Items: items, Session: prefix})
		if err != nil {
			return err
		}
		if r := res.Results[0]; r.OK {
			c.ack(ack{Kind: "mem", ID: r.ID, Marker: marker})
		} else {
			return fmt.Errorf("write %s: %s %s", slug, r.Code, r.Message)
		}
		if res.Results[1].OK {
			c.ack(ack{Kind: "day", Marker: "day-" + marker})
		}
		if upd != "" && res.Results[2].OK {
			c.ack(ack{Kind: "mem", ID: prevID, Marker: "upd-" + marker})
			prevBody = upd
		}
		if upd == "" || i%3 != 0 {
			prevID, prevBody = res.Results[0].ID, body
		}
	}
	return nil
}

func workWrite(c *child) error { return c.writeLoop("w", -1) }

// writeBeside writes until killed while main does the row's work: a reindex or a backup
// must never lose what is acknowledged around it.
func (c *child) writeBeside(main func() error) error {
	errs := make(chan error, 1)
	go func() { errs <- c.writeLoop("b", -1) }()
	for {
		select {
		case err := <-errs:
			return err
		default:
		}
		if err := main(); err != nil {
			return err
		}
	}
}

// baseCount memories make reindex and backup take a moment.
const baseCount = 80

// setupMany gives a home enough memories that reindex and backup take a moment.
func setupMany(t *testing.T, h *home) {
	s, err := memory.Open(context.Background(), h.dir, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var items []memory.Item
	for i := 0; i < baseCount; i++ {
		items = append(items, write(fmt.Sprintf("base-%04d", i), fmt.Sprintf("base memory mk-base-%04d %s", i, strings.Repeat("y ", 200))))
	}
	res, err := s.ApplyBatch(context.Background(), memory.Batch{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res.Results {
		if !r.OK {
			t.Fatalf("setup write %d: %s", i, r.Code)
		}
		h.l.acks = append(h.l.acks, ack{Kind: "mem", ID: r.ID, Marker: fmt.Sprintf("mk-base-%04d", i)})
	}
}

func workReindex(c *child) error {
	return c.writeBeside(func() error {
		rep, err := c.api.Index.Reindex(api.Empty{})
		if err == nil {
			c.ack(ack{Kind: "reindex", N: rep.Added})
		}
		return err
	})
}

func workBackup(c *child) error {
	n := 0
	return c.writeBeside(func() error {
		n++
		dest := filepath.Join(c.home, backup.Folder, fmt.Sprintf("faults-%s-%03d%s", round(), n, backup.Ext))
		r, err := c.api.Backup.Create(api.BackupCreateParams{To: dest})
		if err != nil {
			return err
		}
		c.ack(ack{Kind: "backup", Path: r.Path, N: r.Manifest.FileCount})
		return nil
	})
}

// afterBackup: every archive under its final name is whole (a restore accepts it), and the
// last acknowledged one restores to a new home that opens with a consistent index.
func afterBackup(t *testing.T, h *home) {
	ctx := context.Background()
	archives, _ := filepath.Glob(filepath.Join(h.dir, backup.Folder, "*"+backup.Ext))
	if len(archives) == 0 || h.l.count("backup") == 0 {
		t.Fatalf("no backup was acknowledged (%d archives)", len(archives))
	}
	for _, a := range archives {
		if _, err := backup.Preview(ctx, a, t.TempDir(), nil); err != nil {
			t.Errorf("archive %s under its final name is not whole: %v", filepath.Base(a), err)
		}
	}
	sweptLeftovers(t, h)
	var last string
	for _, a := range h.l.acks {
		if a.Kind == "backup" {
			last = a.Path
		}
	}
	dst := filepath.Join(t.TempDir(), "restored")
	if _, err := backup.RestoreNewHome(ctx, last, dst, nil); err != nil {
		t.Fatalf("restore of %s: %v", last, err)
	}
	s, err := memory.Open(ctx, dst, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkIndex(t, s, readTree(t, filepath.Join(dst, "memory")))
	// The memories written before any backup are in every archive.
	for _, a := range h.l.acks[:baseCount] {
		if _, err := s.Get(ctx, a.ID); err != nil {
			t.Errorf("restored home lacks %s: %v", a.Marker, err)
		}
	}
}

// ---------------------------------------------------------------- import

const importCount = 200

// setupImport writes a mem0 export (the format of backend/importer/testdata/mem0/list.json)
// beside the home.
func setupImport(t *testing.T, h *home) {
	var recs []map[string]any
	for i := 0; i < importCount; i++ {
		recs = append(recs, map[string]any{"id": fmt.Sprintf("00000000-0000-4000-8000-%012d", i),
			"memory":  fmt.Sprintf("Imported fact number %d: mk-imp-%04d likes item %d", i, i, i*7),
			"user_id": "alex", "metadata": map[string]any{}, "created_at": "2024-06-01T12:00:00Z",
			"updated_at": "2024-06-02T12:00:00Z"})
	}
	data, _ := json.Marshal(recs)
	if err := os.MkdirAll(h.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "mem0.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func workImport(c *child) error {
	c.phase("import")
	res, err := c.api.Memory.Import(api.ImportParams{ImportSource: api.ImportSource{Format: "mem0", Path: filepath.Join(c.home, "mem0.json")}})
	if err != nil {
		return err
	}
	c.ack(ack{Kind: "import", N: res.Imported})
	return nil
}

// afterImport: importing again after the kills completes the import, and every record is in
// the home exactly once, whatever the kills left half done.
func afterImport(t *testing.T, h *home) {
	runToEnd(t, "kill-import", h.dir, h.l)
	tr := h.verifyFiles(t, false)
	seen := map[string]int{}
	for _, m := range tr.live {
		if i := strings.Index(m.Body, "mk-imp-"); i >= 0 {
			seen[m.Body[i:i+11]]++
		}
	}
	for i := 0; i < importCount; i++ {
		if k := fmt.Sprintf("mk-imp-%04d", i); seen[k] != 1 {
			t.Errorf("imported record %s is in the home %d times", k, seen[k])
		}
	}
	h.verifyIndex(t, false)
}

// ---------------------------------------------------------------- organizer

// setupOrganize writes pairs of near-duplicates (one contains the other) that the offline
// planner proposes to merge; each carries its own marker.
func setupOrganize(t *testing.T, h *home) {
	s, err := memory.Open(context.Background(), h.dir, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var items []memory.Item
	var markers []string
	for i := 0; i < 30; i++ {
		base := fmt.Sprintf("Deploys of service %d go out on Fridays after the release review mk-org-a-%02d.", i, i)
		items = append(items, write(fmt.Sprintf("deploy-%02d", i), base),
			write(fmt.Sprintf("deploy-%02d-long", i), base+fmt.Sprintf(" Hotfixes may ship any day mk-org-b-%02d.", i)))
		markers = append(markers, fmt.Sprintf("mk-org-a-%02d", i), fmt.Sprintf("mk-org-b-%02d", i))
	}
	res, err := s.ApplyBatch(context.Background(), memory.Batch{Items: items, Actor: memory.ActorExtractor})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res.Results {
		if !r.OK {
			t.Fatalf("setup write %d: %s", i, r.Code)
		}
		h.l.acks = append(h.l.acks, ack{Kind: "mem", ID: r.ID, Marker: markers[i]})
	}
}

// workOrganize runs the organizer by hand and applies every decision of its report.
func workOrganize(c *child) error {
	org := c.svc.Organizer
	ref, err := org.RunNow(c.ctx, organizer.TriggerManual)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.ctx, time.Minute)
	defer cancel()
	if err := org.WaitIdle(ctx); err != nil {
		return err
	}
	det, err := org.Run(c.ctx, ref.ID)
	if err != nil {
		return err
	}
	if det.Report == nil {
		return fmt.Errorf("run %s: %s without a report (%+v)", ref.ID, det.Status, det.Error)
	}
	var ids []string
	for _, d := range det.Report.Decisions {
		if d.Status == organizer.DecisionPending {
			ids = append(ids, d.ID)
		}
	}
	fmt.Fprintf(os.Stderr, "organizer: %d decisions pending of %d\n", len(ids), len(det.Report.Decisions))
	if len(ids) == 0 {
		c.phase("apply") // nothing left to merge: the parent kills an idle child
		time.Sleep(time.Hour)
	}
	c.phase("apply")
	res, err := org.ApplyReport(c.ctx, ref.ID, ids)
	if err != nil {
		return err
	}
	c.ack(ack{Kind: "org", N: res.Applied})
	time.Sleep(time.Hour) // stay until killed, like a running app
	return nil
}

// afterOrganize: the next start marks an interrupted run failed (none stays running), and a
// last run applies whatever merges remain without losing any text.
func afterOrganize(t *testing.T, h *home) {
	ctx := context.Background()
	s, err := memory.Open(ctx, h.dir, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	org, err := organizer.New(organizer.Options{Store: s, Logger: quiet, DisableScheduler: true})
	if err == nil {
		err = org.Start(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	runs, err := org.Runs(ctx, organizer.RunsParams{Limit: 100})
	org.Stop()
	s.Close()
	if err != nil || len(runs.Runs) == 0 {
		t.Fatalf("runs: %v %+v", err, runs)
	}
	for _, r := range runs.Runs {
		if r.Status == organizer.StatusRunning {
			t.Errorf("run %s still running after the kills", r.ID)
		}
	}
	t.Logf("%d of 60 memories left live after the kills during apply", len(readTree(t, h.root()).live))
	h.verifyIndex(t, true)
}

// sweptLeftovers: a backup killed mid-write leaves its work folder (a partial archive); the
// next backup removes such folders once nothing wrote to them for a while, and leaves alone
// one being written now (another process's backup).
func sweptLeftovers(t *testing.T, h *home) {
	dir := filepath.Join(h.dir, backup.Folder)
	left, _ := filepath.Glob(filepath.Join(dir, ".backup-*"))
	t.Logf("%d work folders left by the kills", len(left))
	old := time.Now().Add(-time.Hour)
	for _, d := range left {
		filepath.Walk(d, func(p string, _ os.FileInfo, err error) error {
			if err == nil {
				os.Chtimes(p, old, old)
			}
			return nil
		})
	}
	busy := filepath.Join(dir, ".backup-busy")
	if err := os.MkdirAll(busy, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(busy, "archive.tar.gz"), []byte("being written"), 0o600)
	s, err := memory.Open(context.Background(), h.dir, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	_, err = backup.Create(context.Background(), s, backup.Options{Dest: filepath.Join(dir, "after-the-kills"+backup.Ext)})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range left {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("the partial backup %s outlived the next backup", filepath.Base(d))
		}
	}
	if _, err := os.Stat(busy); err != nil {
		t.Errorf("a backup being written was swept: %v", err)
	}
	os.RemoveAll(busy)
}
