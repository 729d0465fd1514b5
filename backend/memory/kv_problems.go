package memory

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// kvProblems lists the agents' kv.json files that cannot be used (a hand edit that does not
// parse or breaks a rule, a link in their place): the index never holds them, so the problems
// list is built from the files each time it is asked for. They are reported and left as they are.
func (s *Store) kvProblems() []Problem {
	dirs, err := os.ReadDir(filepath.Join(s.root, "agents"))
	if err != nil {
		return nil
	}
	var out []Problem
	for _, d := range dirs {
		if !d.IsDir() || !ValidAgent(d.Name()) {
			continue // links and odd folders are the walk's to report
		}
		rel := kvRel(d.Name())
		fi, err := os.Lstat(s.abs(rel))
		if err != nil {
			continue
		}
		seen := indexTime(fi.ModTime())
		if fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(s.abs(rel))
			out = append(out, Problem{Path: rel, Code: ProblemSymlink, Detail: target, SeenAt: seen})
			continue
		}
		if _, err := s.loadKV(d.Name()); err != nil {
			// The fault as this one read found it: its words and, for the person's language,
			// its key and arguments.
			f := detailFault(err)
			out = append(out, Problem{Path: rel, Code: ProblemKVFile, Detail: f.text, DetailKey: f.key, DetailArgs: f.args, SeenAt: seen})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// kvAgentOf returns the agent whose kv.json rel is, or "".
func kvAgentOf(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) == 3 && parts[0] == "agents" && parts[2] == KVFileName && ValidAgent(parts[1]) {
		return parts[1]
	}
	return ""
}

// announceKV tells subscribers about kv.json files changed on disk by someone else (a hand
// edit, another process); this process's own writes were announced when they were made.
func (s *Store) announceKV(agents map[string]bool) {
	if len(agents) == 0 {
		return
	}
	ids := make([]string, 0, len(agents))
	for a := range agents {
		ids = append(ids, kvEventID(a))
	}
	sort.Strings(ids)
	ids = s.announcedRecently(ids)
	for _, id := range ids {
		s.emit(Event{Kind: EventKVChanged, Agent: strings.TrimPrefix(id, "kv:")})
	}
	if len(ids) > 0 {
		s.emit(Event{Kind: "memory.problems"})
	}
}
