package memory

// WriteFileAtomic makes data appear at path whole or not at all (temp file, fsync, rename,
// fsync of the folder), creating the folder. It is the store's own writer, for packages that
// keep files beside the memories (the organizer's snapshots) so a crash never leaves half a
// file behind.
func WriteFileAtomic(path string, data []byte) error {
	return writeFileAtomic(path, data, nil, nil, false)
}
