package memory

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// swapJournal, in the home (beside the memory folder, not in it), says an in-place restore's
// swap of the memory files is under way: where the old files go (Aside), where the new ones
// come from (Staged), and how far it got (Phase). A restore killed between its renames (the
// window closed, a SIGKILL, a power cut) left the memory folder half old, half new, the rest
// of the old memories in a hidden folder of the home that nothing named or read again: the
// home looked as if they were lost. The next open finishes the swap from the journal
// (finishSwapLocked): back to the old files when it stopped while moving them aside, on to
// the new ones when it stopped while moving those in.
const swapJournal = ".restore-swap.json"

const (
	swapPhaseAside = "aside" // old entries are being moved from the memory folder to Aside
	swapPhaseIn    = "in"    // every old entry is in Aside; new entries are moving in from Staged
)

type swapState struct {
	Staged string `json:"staged"`
	Aside  string `json:"aside"`
	Phase  string `json:"phase"`
}

// swapKilled, set by tests, stops ReplaceFiles after the rename it names (a step: "aside N"
// or "in N", counted from 1) as a killed process would: no rollback, no journal removed.
var swapKilled func(step string) bool

var errSwapKilled = errors.New("memory: swap stopped (test)")

func (s *Store) swapPath() string { return filepath.Join(s.home, swapJournal) }

func (s *Store) writeSwap(st swapState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return writeFileAtomic(s.swapPath(), b, nil, nil, false)
}

func (s *Store) clearSwap() {
	_ = os.Remove(s.swapPath())
	syncDir(s.home)
}

// finishSwapLocked completes an in-place restore's swap a killed process left (see
// swapJournal), holding the store's lock. Nothing is removed that the swap's state does not
// account for: an entry is moved only where its name is free. The old files a finished swap
// set aside go (the restore wrote a backup of them before it started); those a rolled-back
// swap brought back stay.
func (s *Store) finishSwapLocked() {
	b, err := os.ReadFile(s.swapPath())
	if err != nil {
		return
	}
	var st swapState
	if json.Unmarshal(b, &st) != nil || st.Aside == "" || st.Staged == "" {
		s.log.Warn("memory: an interrupted restore's journal cannot be read; its files are left as they are", "journal", s.swapPath())
		return
	}
	move := func(from, to string) bool {
		entries, err := os.ReadDir(from)
		if err != nil {
			return errors.Is(err, os.ErrNotExist)
		}
		ok := true
		for _, e := range entries {
			if keptInPlace(e.Name()) {
				continue
			}
			// Open makes .trash, .snapshots and .archive before this runs: an empty folder
			// gives way; any other entry is never replaced (it is left, and the journal kept).
			if fi, err := os.Lstat(filepath.Join(to, e.Name())); err == nil && (!fi.IsDir() || os.Remove(filepath.Join(to, e.Name())) != nil) {
				ok = false
				continue
			}
			if err := os.Rename(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
				ok = false
			}
		}
		return ok
	}
	switch st.Phase {
	case swapPhaseAside:
		if !move(st.Aside, s.root) {
			s.log.Warn("memory: an interrupted restore could not move every old file back", "aside", st.Aside)
			return
		}
		_ = os.Remove(st.Aside)
	case swapPhaseIn:
		if !move(st.Staged, s.root) {
			s.log.Warn("memory: an interrupted restore could not move every restored file in", "staged", st.Staged)
			return
		}
		_ = os.RemoveAll(st.Aside)
		for _, d := range CleanupFolders {
			_ = os.MkdirAll(filepath.Join(s.root, d), 0o700)
		}
	default:
		return
	}
	syncDir(s.root)
	// The restore's staging folder in the home (backup.Unpack's .restore-*) is of no more use.
	if work := filepath.Dir(st.Staged); filepath.Dir(work) == s.home && strings.HasPrefix(filepath.Base(work), ".restore-") {
		_ = os.RemoveAll(work)
	}
	s.clearSwap()
}
