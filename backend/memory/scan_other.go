//go:build !linux

package memory

// scan is walk where getdents and fstatat are not at hand.
func (s *Store) scan() ([]diskFile, []string, error) {
	if l, ok := s.takeListed(); ok {
		return l.disk, l.temps, nil
	}
	return s.walk()
}

// scanFolders is scan (the statx choice is Linux's).
func (s *Store) scanFolders(bool) ([]diskFile, []string, error) { return s.walk() }
