package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"engram/backend/api"
)

// history shows a memory's versions (git history on) or its audit log, and manages git
// history (issue 15):
//
//	engram history [SLUG|ID] [--limit N] [--audit]   versions with diffs, or the audit log
//	engram history enable | disable | status
//	engram history restore SLUG|ID COMMIT [scope flags]
//	engram history deleted [--limit N]                deleted (and purged) memories git keeps
//	engram history restore PATH COMMIT                 bring one of those back
func (r *runner) history(_ context.Context, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "enable", "disable", "status":
			if _, err := r.flags("history "+args[0], args[1:], nil); err != nil {
				return err
			}
			call := map[string]func(api.Empty) (api.HistoryStatus, error){
				"enable": r.api.History.Enable, "disable": r.api.History.Disable, "status": r.api.History.Status}[args[0]]
			st, err := call(api.Empty{})
			if err != nil {
				return err
			}
			r.out(st, func(w io.Writer) { r.printHistoryStatus(w, st) })
			return nil
		case "deleted":
			limit := 0
			if _, err := r.flags("history deleted", args[1:], func(fs *flag.FlagSet) { fs.IntVar(&limit, "limit", 0, "") }); err != nil {
				return err
			}
			res, err := r.api.History.Deleted(api.DeletedParams{Limit: limit})
			if err != nil {
				return err
			}
			r.out(res, func(w io.Writer) { r.printDeleted(w, res) })
			return nil
		case "restore":
			if len(args) < 3 || strings.HasPrefix(args[1], "-") || strings.HasPrefix(args[2], "-") {
				return usageError(r.t("cli.missing_arg", map[string]any{"Command": "history restore", "What": "SLUG|ID COMMIT"}))
			}
			if strings.HasSuffix(args[1], ".md") && strings.Contains(args[1], "/") {
				// A path from "history deleted": a memory deleted, maybe purged from the trash.
				res, err := r.api.History.Restore(api.RestoreVersionParams{Path: args[1], Commit: args[2]})
				if err != nil {
					return err
				}
				r.out(res, func(w io.Writer) {
					fmt.Fprintln(w, r.t("cli.history.restored_deleted", map[string]any{"Slug": res.Slug, "Commit": args[2]}))
				})
				return nil
			}
			ref, err := r.ref("history restore", append([]string{args[1]}, args[3:]...), nil)
			if err != nil {
				return err
			}
			m, err := r.api.Memory.Read(ref)
			if err != nil {
				return err
			}
			res, err := r.api.History.Restore(api.RestoreVersionParams{ID: m.Memory.ID, Commit: args[2]})
			if err != nil {
				return err
			}
			r.out(res, func(w io.Writer) {
				fmt.Fprintln(w, r.t("cli.history.restored", map[string]any{"Slug": m.Memory.Slug, "Commit": args[2]}))
			})
			return nil
		}
	}
	audit := false
	rest := args[:0:0]
	for _, a := range args {
		if a == "--audit" {
			audit = true
			continue
		}
		rest = append(rest, a)
	}
	if len(rest) > 0 && strings.HasSuffix(rest[0], ".md") && strings.Contains(rest[0], "/") && !audit {
		// A file's path in the memory folder: the versions of one Engram cannot read as a
		// memory (doctor names it), which no slug or id reaches.
		var limit int
		if _, err := r.flags("history", rest[1:], func(fs *flag.FlagSet) { fs.IntVar(&limit, "limit", 50, "at most this many") }); err != nil {
			return err
		}
		vs, err := r.api.History.Versions(api.VersionsParams{Path: rest[0], Limit: limit})
		if err != nil {
			return err
		}
		r.out(vs, func(w io.Writer) {
			if !vs.Enabled && len(vs.Versions) == 0 {
				fmt.Fprintln(w, r.t("cli.history.off", nil))
				return
			}
			r.printVersions(w, vs)
		})
		return nil
	}
	p, err := historyParams(r, rest)
	if err != nil {
		return err
	}
	if p.ID != "" && !audit {
		vs, err := r.api.History.Versions(api.VersionsParams{ID: p.ID, Limit: p.Limit})
		if err != nil {
			return err
		}
		if vs.Enabled || len(vs.Versions) > 0 {
			r.out(vs, func(w io.Writer) { r.printVersions(w, vs) })
			return nil
		}
	}
	res, err := r.api.Memory.History(p)
	if err != nil {
		return err
	}
	return printHistory(r, res)
}

func (r *runner) printHistoryStatus(w io.Writer, st api.HistoryStatus) {
	args := map[string]any{"Commits": st.Commits, "Head": short(st.Head), "At": st.LastCommit}
	switch {
	case st.Enabled:
		fmt.Fprintln(w, r.t("cli.history.on", args))
	case st.Exists:
		fmt.Fprintln(w, r.t("cli.history.paused", args))
	default:
		fmt.Fprintln(w, r.t("cli.history.off", nil))
	}
	switch {
	case st.Remote != "" && st.SyncMinutes > 0:
		fmt.Fprintln(w, r.t("cli.history.remote", map[string]any{"Remote": st.Remote, "Minutes": st.SyncMinutes}))
	case st.Remote != "":
		fmt.Fprintln(w, r.t("cli.history.remote_idle", map[string]any{"Remote": st.Remote}))
	}
}

func (r *runner) printDeleted(w io.Writer, res api.DeletedResult) {
	if !res.Enabled && len(res.Memories) == 0 {
		fmt.Fprintln(w, r.t("cli.history.off", nil))
		return
	}
	if len(res.Memories) == 0 {
		fmt.Fprintln(w, r.t("cli.history.deleted_none", nil))
		return
	}
	for _, d := range res.Memories {
		fmt.Fprintln(w, r.t("cli.history.deleted_row", map[string]any{"Slug": d.Slug, "Title": d.Title, "At": d.DeletedAt,
			"By": d.DeletedBy, "Commit": d.Short, "Path": d.Path}))
	}
}

func (r *runner) printVersions(w io.Writer, vs api.VersionsResult) {
	if len(vs.Versions) == 0 {
		fmt.Fprintln(w, r.t("cli.history.no_versions", map[string]any{"Path": vs.Path}))
		return
	}
	for _, v := range vs.Versions {
		fmt.Fprintln(w, r.t("cli.history.version", map[string]any{"Commit": v.Short, "Time": v.Time, "Actor": v.Actor,
			"Added": v.Added, "Removed": v.Removed}))
		fmt.Fprintf(w, "  %s\n", strings.SplitN(v.Message, "\n", 2)[0])
		for _, l := range strings.Split(strings.TrimRight(v.Diff, "\n"), "\n") {
			if l != "" {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
		fmt.Fprintln(w)
	}
}

func short(h string) string {
	if len(h) > 8 {
		return h[:8]
	}
	return h
}

// sync fetches, merges and pushes the memory folder's git history:
//
//	engram sync [--remote URL]
func (r *runner) sync(_ context.Context, args []string) error {
	var remote string
	if _, err := r.flags("sync", args, func(fs *flag.FlagSet) {
		fs.StringVar(&remote, "remote", "", "sync with this remote (a folder path, or an SSH/HTTPS URL); it is remembered")
	}); err != nil {
		return err
	}
	// A folder named from here (engram sync --remote ../memories.git) is remembered by its
	// full path: the remote is used later from any directory, and a relative one is refused.
	// Whether it exists or not: one that does not is then named as no repository, not told
	// to be a full path.
	if remote != "" && !strings.Contains(remote, ":") && !filepath.IsAbs(remote) {
		if abs, err := filepath.Abs(remote); err == nil {
			remote = abs
		}
	}
	res, err := r.api.History.Sync(api.HistorySyncParams{Remote: remote})
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) { r.printSync(w, res) })
	return nil
}

// printSync tells what a sync did: the files it changed here by kind (the count its merge
// commit's subject gives too), each conflict it decided (this machine's version kept; for a
// delete against a change, the change), and each one a sync on another machine decided
// against this machine that arrived now.
func (r *runner) printSync(w io.Writer, res api.SyncResult) {
	args := map[string]any{"Remote": res.Remote, "Changed": res.Changed, "Head": short(res.Head), "Memories": res.Memories,
		"Days": res.Days, "KV": res.KVFiles, "Copies": res.Copies, "Conflicts": len(res.Conflicts)}
	key := "cli.sync.up_to_date"
	switch {
	case res.Merged:
		key = "cli.sync.merged_counts"
	case res.FastForward:
		key = "cli.sync.pulled_counts"
	case res.Pushed:
		key = "cli.sync.pushed"
	}
	fmt.Fprintln(w, r.t(key, args))
	if res.Pushed && (res.Merged || res.FastForward) {
		// A merge this machine then sent said only what it changed here: the push went unsaid.
		fmt.Fprintln(w, r.t("cli.sync.sent_too", args))
	}
	for _, c := range res.Conflicts {
		a := r.syncArgs(c)
		switch {
		case c.Deleted != "":
			fmt.Fprintln(w, r.t(deletedKey(c), a))
		case c.Day != "":
			fmt.Fprintln(w, r.t("cli.sync.daily_conflict", a))
		case c.Key != "" && c.Key != "*" && c.Agent != "":
			fmt.Fprintln(w, r.t("cli.sync.kv_kept", a))
		case c.Key != "":
			fmt.Fprintln(w, r.t("cli.sync.kv_conflict", a))
		case c.CopyError != "":
			fmt.Fprintln(w, r.t("cli.sync.conflict_failed", a))
		default:
			fmt.Fprintln(w, r.t("cli.sync.conflict", a))
		}
	}
	for _, c := range res.Replaced {
		a := r.syncArgs(c)
		switch {
		case c.Deleted != "":
			fmt.Fprintln(w, r.t(deletedKey(c), a))
		case c.Day != "":
			fmt.Fprintln(w, r.t("cli.sync.day_replaced", a))
		case c.Key == "*":
			fmt.Fprintln(w, r.t("cli.sync.kv_file_replaced", a))
		case c.Key != "":
			fmt.Fprintln(w, r.t("cli.sync.kv_replaced", a))
		case c.Copy != "":
			fmt.Fprintln(w, r.t("cli.sync.memory_replaced", a))
		default:
			fmt.Fprintln(w, r.t("cli.sync.memory_replaced_commit", a))
		}
	}
}

// deletedKey is the message of a delete against a change, which the change wins: this
// machine's delete undone (deleted_here_*, in the conflicts of a merge or the replaced of a
// fast-forward) or the other machine's (deleted_there_*): a memory, a kv key, or a file (a
// journal day, a kv.json that did not read).
func deletedKey(c api.SyncConflict) string {
	here := c.Deleted == "here" // history.DeletedHere, as the API gives it
	switch {
	case c.Key != "" && c.Key != "*" && c.Agent != "":
		return pick(here, "cli.sync.deleted_here_key", "cli.sync.deleted_there_key")
	case c.Slug != "" && c.Day == "" && c.Key == "":
		return pick(here, "cli.sync.deleted_here_memory", "cli.sync.deleted_there_memory")
	}
	return pick(here, "cli.sync.deleted_here_file", "cli.sync.deleted_there_file")
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// syncArgs are one conflict's message arguments (a kv value comes cut to a line already).
func (r *runner) syncArgs(c api.SyncConflict) map[string]any {
	value := func(v string) string {
		if v == "" {
			return r.t("cli.sync.unset", nil)
		}
		return v
	}
	return map[string]any{"Path": c.Path, "Slug": c.Slug, "Copy": c.Copy, "Error": c.CopyError, "Day": c.Day,
		"Key": c.Key, "Agent": c.Agent, "Value": value(c.Value), "Other": value(c.Other), "Commit": short(c.Theirs)}
}
