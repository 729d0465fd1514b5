package history

import "time"

// waitABit yields between polls of a state the watcher changes (never a timing assertion).
func waitABit() { time.Sleep(5 * time.Millisecond) }
