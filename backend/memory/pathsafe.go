package memory

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// CodePathEscapesHome refuses a write, move or delete whose folder is a symbolic link (or not
// a folder): a hand-placed link as a type folder or as .trash would carry the file out of the
// home.
const CodePathEscapesHome = "path_escapes_home"

// Problem codes for hand-placed files (reported, never rewritten).
const (
	ProblemSymlink       = "symlink_skipped"
	ProblemInvalidID     = "invalid_id"
	ProblemInvalidAgent  = "invalid_agent_folder"
	ProblemHandSecret    = "hand_secret"
	ProblemHandBodyLarge = "hand_body_too_large"
	ProblemDuplicateID   = "duplicate_id"
	ProblemUnrecognized  = "unrecognized_path"
	// ProblemLostID is a memory file that no longer names the id it was indexed under (its
	// header or id line was lost): reported until the id is back, never indexed anew.
	ProblemLostID = "lost_id"
	// ProblemHandControl is a hand-placed file with a control character in a field (Detail).
	ProblemHandControl = "hand_control_character"
)

// fileStamp is what a file's metadata says about its content without reading it.
type fileStamp struct {
	mtime, size, ctime, ino int64
}

// newDirMode is the mode of folders the store creates below the home.
const newDirMode = 0o700

// safeDir verifies that every folder between the memory root and rel's file is a real folder,
// never a symbolic link, creating missing ones when create is set. Lstat per component, right
// before the operation: nothing Engram writes, moves or trashes may follow a link out of the
// home. The memory root itself is the home's business and is not checked.
func (s *Store) safeDir(rel string, create bool) error {
	dir := path.Dir(rel)
	if dir == "." {
		return nil
	}
	cur := s.root
	for _, part := range strings.Split(dir, "/") {
		if part == "" || part == "." || part == ".." {
			return escapes(rel)
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			if !create {
				return nil // nothing below exists: the operation fails on its own
			}
			if err := os.Mkdir(cur, newDirMode); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("memory: unable to create %s: %w", cur, err)
			}
			if fi, err = os.Lstat(cur); err != nil {
				return fmt.Errorf("memory: unable to check %s: %w", cur, err)
			}
		} else if err != nil {
			return fmt.Errorf("memory: unable to check %s: %w", cur, err)
		}
		if !fi.IsDir() { // a symbolic link is never IsDir under Lstat
			return escapes(rel)
		}
	}
	return nil
}

func escapes(rel string) error {
	return codeErr(CodePathEscapesHome, map[string]any{"Path": rel},
		"refused: %s goes through a symbolic link or a file, which could lead out of the home", rel)
}

// linkedPrefix returns the first component of rel (a prefix of it, or rel itself) that is a
// symbolic link, or "" when there is none; missing components end the search.
func (s *Store) linkedPrefix(rel string) (string, os.FileInfo) {
	parts := strings.Split(rel, "/")
	cur := s.root
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return "", nil
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return strings.Join(parts[:i+1], "/"), fi
		}
	}
	return "", nil
}

// readNoFollow reads a file below the root without following a link in its last component;
// its folders were checked by the walk (or by linkedPrefix) just before.
func readNoFollow(abs string) ([]byte, error) {
	f, err := openNoFollow(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// writeFile writes a memory file atomically at rel after checking its folders; check and
// create are writeFileAtomic's (the re-check right before the rename, and "must not exist").
func (s *Store) writeFile(rel string, data []byte, dirs map[string]bool, check func() error, create bool) error {
	if err := s.safeDir(rel, true); err != nil {
		return err
	}
	s.notePath(rel)
	if s.opts.WriteFault != nil {
		if err := s.opts.WriteFault(rel); err != nil {
			return fmt.Errorf("memory: unable to write %s: %w", rel, err)
		}
	}
	return writeFileAtomic(s.abs(rel), data, dirs, check, create)
}

// move renames a memory file from one relative path to another; both sides' folders must be
// real folders below the root (a linked type folder or .trash is refused).
func (s *Store) move(from, to string, dirs map[string]bool) error {
	if err := s.safeDir(from, false); err != nil {
		return err
	}
	if err := s.safeDir(to, true); err != nil {
		return err
	}
	s.notePath(from)
	s.notePath(to)
	return moveFile(s.abs(from), s.abs(to), dirs)
}

// moveAside moves a memory into the trash or the archive and dates the file to the move:
// cleanup --older-than judges those folders by the files' modification times, and a rename
// keeps the old one, so a memory last edited two months ago and deleted a minute ago was
// purged for good by the next "older than 30 days".
func (s *Store) moveAside(from, to string, dirs map[string]bool) error {
	if err := s.move(from, to, dirs); err != nil {
		return err
	}
	// The move is done whatever the dating does (a file another user owns refuses it): a
	// failure here must not report the delete failed while the file sits in the trash.
	now := s.opts.Now()
	if err := os.Chtimes(s.abs(to), now, now); err != nil {
		s.log.Warn("memory: unable to date a file moved aside; cleanup will judge it by its last edit", "path", to, "err", err)
	}
	return nil
}

// removeOld deletes the old file of a renamed memory at rel, which held version when the new
// file went in. A hand edit that landed on it since (after persistFrom's check) is not
// deleted with it: the file goes to the trash instead, where the person finds the edit.
func (s *Store) removeOld(rel, version string) error {
	if err := s.safeDir(rel, false); err != nil {
		return err
	}
	s.notePath(rel)
	if s.beforeRemove != nil {
		s.beforeRemove(rel)
	}
	if cur, err := s.fileState(rel); err == nil && cur != "" && cur != version {
		s.log.Warn("memory: the old file of a renamed memory was edited meanwhile; it is moved to the trash, not deleted", "path", rel)
		return s.moveAside(rel, trashName(rel, s.opts.Now()), s.batchDirs)
	}
	if err := os.Remove(s.abs(rel)); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("memory: unable to remove old file %s: %w", rel, err)
	}
	return nil
}
