package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// TestPlaceNewNeverReplaces: whatever the file system offers (hard links, an exclusive rename,
// or neither), a file created in place never replaces one that is there, and of writers racing
// for one name exactly one wins, with its own content.
func TestPlaceNewNeverReplaces(t *testing.T) {
	noLink := func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EPERM} }
	noRename := func(string, string) error { return syscall.EINVAL }
	tests := []struct {
		name             string
		link, renameExcl func(string, string) error
	}{
		{"hard link", os.Link, renameNoReplace},
		{"no hard links: exclusive rename", noLink, renameNoReplace},
		{"neither: the name claimed first", noLink, noRename},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(content string) string {
				f, err := os.CreateTemp(dir, ".tmp-*")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteString(content); err != nil {
					t.Fatal(err)
				}
				f.Close()
				return f.Name()
			}
			path := filepath.Join(dir, "a.owner")
			tmp := write("first\n")
			if err := placeNew(tmp, path, tt.link, tt.renameExcl); err != nil {
				t.Fatalf("a new file: %v", err)
			}
			if got, _ := os.ReadFile(path); string(got) != "first\n" {
				t.Fatalf("content %q", got)
			}
			if _, err := os.Stat(tmp); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the temp file is left: %v", err)
			}

			tmp = write("second\n")
			if err := placeNew(tmp, path, tt.link, tt.renameExcl); !errors.Is(err, fs.ErrExist) {
				t.Fatalf("over an existing file: %v, want fs.ErrExist", err)
			}
			if got, _ := os.ReadFile(path); string(got) != "first\n" {
				t.Fatalf("the existing file was replaced: %q", got)
			}

			race := filepath.Join(dir, "b.owner")
			const writers = 8
			var wg sync.WaitGroup
			won := make(chan string, writers)
			tmps := make([]string, writers)
			for i := range tmps {
				tmps[i] = write(fmt.Sprintf("writer %d\n", i))
			}
			for i := 0; i < writers; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					switch err := placeNew(tmps[i], race, tt.link, tt.renameExcl); {
					case err == nil:
						won <- fmt.Sprintf("writer %d\n", i)
					case !errors.Is(err, fs.ErrExist):
						t.Errorf("writer %d: %v", i, err)
					}
				}(i)
			}
			wg.Wait()
			close(won)
			var winners []string
			for w := range won {
				winners = append(winners, w)
			}
			if len(winners) != 1 {
				t.Fatalf("%d writers won, want 1: %v", len(winners), winners)
			}
			if got, _ := os.ReadFile(race); string(got) != winners[0] {
				t.Fatalf("the file holds %q, the winner wrote %q", got, winners[0])
			}
		})
	}
}
