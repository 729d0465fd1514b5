//go:build !unix

package history

import "os"

// tryFlock: no flock here; a branch lock is then judged by its mark and age alone.
func tryFlock(*os.File) flockState { return flockNone }
