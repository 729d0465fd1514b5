package memory

import (
	"context"
	"database/sql"
	"time"
)

// OtherProcessPoll is how often a watching process checks whether another Engram process
// (the CLI, engram mcp, the desktop app) committed to the shared index. PRAGMA data_version
// on a held connection is nearly free, and an agent should see a person's edit (or another
// agent's write) well within a second.
const OtherProcessPoll = 250 * time.Millisecond

// noteSeq moves the poll's cursor to the newest audit row; called once when watching starts.
func (s *Store) noteSeq(ctx context.Context) {
	var seq int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM memory_audit_log`).Scan(&seq); err == nil {
		s.seenSeq.Store(seq)
	}
}

// announcedRecently drops the kv event ids this process itself announced in the last few
// seconds: the watcher sees our own kv.json writes too, and should not repeat them.
func (s *Store) announcedRecently(ids []string) []string {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	now := time.Now()
	out := ids[:0:0]
	for _, id := range ids {
		if t, ok := s.recent[id]; ok && now.Sub(t) < 5*time.Second {
			continue
		}
		out = append(out, id)
	}
	return out
}

// remember notes kv event ids this process announced (see announcedRecently).
func (s *Store) remember(ids []string) {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	now := time.Now()
	if s.recent == nil || len(s.recent) > 4096 {
		fresh := map[string]time.Time{}
		for id, t := range s.recent {
			if now.Sub(t) < 5*time.Second {
				fresh[id] = t
			}
		}
		s.recent = fresh
	}
	for _, id := range ids {
		s.recent[id] = now
	}
}

// watchOtherProcesses announces changes committed by other processes. Their writes update the
// shared index, so this process's reconcile sees nothing new; the audit log says what moved.
// PRAGMA data_version on one held connection makes the idle check nearly free.
func (s *Store) watchOtherProcesses(ctx context.Context) {
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	var last int64 = -1
	var gen int64
	tick := time.NewTicker(OtherProcessPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		// The index file was replaced (reopenIfIndexReplacedLocked waits for this): let go of
		// the connection to the old one, keeping its write-ahead log's name alone.
		if g := s.indexGen.Load(); conn != nil && g != gen {
			keepWAL(conn)
			conn.Close()
			conn, last = nil, -1
		}
		if conn == nil {
			if s.indexMoving.Load() {
				continue
			}
			gen = s.indexGen.Load()
			c, err := s.db.Conn(ctx)
			if err != nil {
				continue
			}
			conn = c
		}
		var v int64
		if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
			continue
		}
		if v == last {
			continue
		}
		last = v
		ids, top, err := auditedSince(ctx, conn, s.seenSeq.Load(), s.passOwn)
		if err != nil || top == 0 {
			continue
		}
		s.seenSeq.Store(top)
		if len(ids) > 0 {
			s.changed(ctx, ids)
		}
	}
}

// maxOwnAudit bounds the own-seq set of a process that writes without watching (a long CLI
// import): past it the oldest seqs go, which only a poll that already passed them would need.
const maxOwnAudit = 1 << 16

// ownAudit notes the audit row an insert of this process wrote (see Store.own).
func (s *Store) ownAudit(res sql.Result) {
	seq, err := res.LastInsertId()
	if err != nil || seq <= 0 {
		return
	}
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	if s.own == nil {
		s.own = map[int64]bool{}
	}
	if len(s.own) >= maxOwnAudit {
		floor := seq - maxOwnAudit/2
		for q := range s.own {
			if q < floor {
				delete(s.own, q)
			}
		}
	}
	s.own[seq] = true
}

// passOwn reports whether seq is one of this process's own audit rows, forgetting it: the
// poll passes each seq once.
func (s *Store) passOwn(seq int64) bool {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	if s.own[seq] {
		delete(s.own, seq)
		return true
	}
	return false
}

// auditedSince lists the memory ids of audit rows after seq that other processes wrote
// (mine says which are this process's own), and the newest seq read.
func auditedSince(ctx context.Context, conn *sql.Conn, after int64, mine func(int64) bool) (ids []string, top int64, err error) {
	rows, err := conn.QueryContext(ctx, `SELECT seq, memory_id FROM memory_audit_log WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var seq int64
		var id string
		if err := rows.Scan(&seq, &id); err != nil {
			return nil, 0, err
		}
		top = seq
		if mine(seq) {
			continue
		}
		if id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, top, rows.Err()
}
