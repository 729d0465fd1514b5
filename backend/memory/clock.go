package memory

import "time"

// Location is the time zone used for journal days.
func (s *Store) Location() *time.Location { return s.opts.Location }
