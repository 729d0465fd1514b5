//go:build !linux

package memory

// scan is walk where getdents and fstatat are not at hand.
func (s *Store) scan() ([]diskFile, []string, error) { return s.walk() }
