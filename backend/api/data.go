package api

import (
	"engram/backend/coded"
	"os/exec"
	"strings"
	"sync"

	"engram/backend/memory"
)

// Settings → Storage and Settings → Data (issue 12): the store's size over time, an import
// preview, the home folder opened in the file manager, and progress events of reindex/doctor.

// Error codes of the data section.
const (
	// CodeOpenFolderDesktopOnly refuses to open a folder for a remote caller: the folder would
	// open on this computer's screen, not theirs (the UI shows the path to copy instead).
	CodeOpenFolderDesktopOnly = "open_folder_desktop_only"
	CodeOpenFolderFailed      = "open_folder_failed"
)

// EventIndexProgress carries IndexProgress while index.reindex or index.doctor runs.
const EventIndexProgress = "index.progress"

// IndexProgress is one index.progress event: op is "reindex" or "doctor", phase the step
// (walk, index, commit, integrity, checksum, done), done of total its items (0 when unknown).
type IndexProgress struct {
	Op    string `json:"op"`
	Phase string `json:"phase"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
}

// StorageHistoryParams ask for the last days days (default 90, at most 400).
type StorageHistoryParams struct {
	Days int `json:"days,omitempty"`
}

// StorageHistoryResult is one sample per day the store was used, oldest first.
type StorageHistoryResult struct {
	Samples []memory.StorageSample `json:"samples"`
}

// History returns the store's daily size samples (quota.history).
func (s *QuotaService) History(p StorageHistoryParams) (StorageHistoryResult, error) {
	if err := s.a.Wait(); err != nil {
		return StorageHistoryResult{}, err
	}
	if p.Days < 0 || p.Days > memory.MaxStorageHistoryDays {
		return StorageHistoryResult{}, s.a.newError(CodeInvalidParams, map[string]any{"Method": "quota.history",
			"Detail": "days must be between 1 and 400", DetailKey: "detail.days_range", "Max": memory.MaxStorageHistoryDays})
	}
	smp, err := s.a.deps.Store.StorageHistory(s.a.ctx, p.Days)
	if err != nil {
		return StorageHistoryResult{}, s.a.fail(err)
	}
	return StorageHistoryResult{Samples: smp}, nil
}

// ImportPreviewParams carry the JSONL an import would read, or another tool's memories to
// convert (ImportSource).
type ImportPreviewParams struct {
	JSONL string `json:"jsonl"`
	ImportSource
}

// ImportPreviewResult counts what memory.import would do with the same JSONL; nothing is
// applied. Errors are translated like ImportResult's.
type ImportPreviewResult struct {
	memory.ImportPreview
	Errors []ImportLineError `json:"errors"`
}

// ImportPreview parses and classifies an import without applying it (memory.importPreview).
func (s *MemoryService) ImportPreview(p ImportPreviewParams) (ImportPreviewResult, error) {
	if err := s.a.Wait(); err != nil {
		return ImportPreviewResult{}, err
	}
	jsonl, skipped, err := s.a.importJSONL(p.JSONL, p.ImportSource)
	if err != nil {
		return ImportPreviewResult{}, err
	}
	pv, err := s.a.deps.Store.PreviewImport(s.a.ctx, strings.NewReader(jsonl), memory.ImportOptions{Workdir: s.a.jsonlWorkdir(p.ImportSource)})
	if err != nil {
		return ImportPreviewResult{}, s.a.fail(err)
	}
	out := ImportPreviewResult{ImportPreview: pv, Errors: append([]ImportLineError{}, skipped...)}
	for _, le := range pv.Errors {
		e := s.a.newError(le.Code, le.Args)
		out.Errors = append(out.Errors, ImportLineError{Line: le.Line, Code: le.Code, I18nKey: e.I18nKey, Args: e.Args, Message: e.Message})
	}
	out.ImportPreview.Errors = nil
	return out, nil
}

// OpenFolderResult names the folder opened.
type OpenFolderResult struct {
	Path string `json:"path"`
}

// OpenFolder shows the home folder in the system's file manager (app.openFolder). Only the
// desktop window and the CLI (the person at this computer) may ask.
func (s *AppService) OpenFolder(_ Empty) (OpenFolderResult, error) {
	if err := s.a.Wait(); err != nil {
		return OpenFolderResult{}, err
	}
	if !s.a.personCaller() {
		return OpenFolderResult{}, s.a.newError(CodeOpenFolderDesktopOnly, nil)
	}
	home := s.a.deps.Store.Home()
	open := s.a.deps.OpenPath
	if open == nil {
		open = xdgOpen
	}
	if err := open(home); err != nil {
		return OpenFolderResult{}, s.a.newError(CodeOpenFolderFailed, coded.Reason(map[string]any{"Path": home}, err))
	}
	return OpenFolderResult{Path: home}, nil
}

// xdgOpen asks the desktop to open path; it does not wait for the file manager.
func xdgOpen(path string) error {
	cmd := exec.Command("xdg-open", path)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() //nolint:errcheck // the file manager's exit status says nothing about us
	return nil
}

// indexProgress publishes index.progress events for op while a reindex, doctor, backup or
// restore runs: the first and last step of every phase always, the steps between throttled.
func (a *API) indexProgress(op string) memory.ProgressFunc {
	var mu sync.Mutex
	lastPhase := ""
	return func(phase string, done, total int) {
		if a.deps.Events == nil {
			return
		}
		mu.Lock()
		edge := phase != lastPhase || done <= 0 || (total > 0 && done >= total)
		lastPhase = phase
		mu.Unlock()
		a.deps.Events.PublishProgress(EventIndexProgress, IndexProgress{Op: op, Phase: phase, Done: done, Total: total}, edge)
	}
}
