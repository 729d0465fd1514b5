//go:build !unix

package memory

// othersHoldIndex cannot tell on this platform; Windows refuses to move an open file anyway.
func othersHoldIndex(string) bool { return false }
