package history

// RemoteName is the remote Engram syncs with.
const RemoteName = "origin"
