package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"engram/backend/api"
)

// backup writes, checks and restores whole-home archives (issue 15); `engram restore` stays
// the trash/archive verb.
//
//	engram backup [--to FILE]
//	engram backup restore FILE [--home DIR]
//	engram backup preview FILE
//	engram backup list
//	engram backup schedule [--every HOURS] [--keep N]
func (r *runner) backup(_ context.Context, args []string) error {
	var to, home string
	// optInt tells a flag not given from a negative one given, which the schedule refuses
	// (before, --every -3 was taken for "not given" and changed nothing without a word).
	var every, keep optInt
	pos, err := r.flags("backup", args, func(fs *flag.FlagSet) {
		fs.StringVar(&to, "to", "", "write the archive here (default: the home's backups folder)")
		fs.StringVar(&home, "home", "", "restore into this new home instead of in place")
		fs.Var(&every, "every", "schedule: `hours` between backups (0 turns scheduled backups off)")
		fs.Var(&keep, "keep", "schedule: keep the newest `N` scheduled backups")
	})
	if err != nil {
		return err
	}
	sub := ""
	if len(pos) > 0 {
		sub = pos[0]
	}
	switch sub {
	case "":
		res, err := r.api.Backup.Create(api.BackupCreateParams{To: to})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			m := res.Manifest
			fmt.Fprintln(w, r.t("cli.backup.written", map[string]any{"Path": res.Path, "Memories": m.Memories, "Daily": m.Daily,
				"KV": m.KVFiles, "Files": m.FileCount, "Size": humanBytes(res.Size)}))
			if m.Other > 0 {
				fmt.Fprintln(w, r.t("cli.backup.other_files", map[string]any{"Count": m.Other}))
			}
			r.printLeftOut(w, "cli.backup.left_out", m.LeftOut, m.LeftOutCount)
		})
	case "restore":
		if err := r.need("backup restore", "FILE", pos, 2); err != nil {
			return err
		}
		res, err := r.api.Backup.Restore(api.BackupRestoreParams{Path: pos[1], Home: home})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			if res.PreBackup != "" {
				fmt.Fprintln(w, r.t("cli.backup.pre_backup", map[string]any{"Path": res.PreBackup}))
			}
			fmt.Fprintln(w, r.t("cli.backup.restored", map[string]any{"Home": res.Home, "Memories": res.Manifest.Memories,
				"Daily": res.Manifest.Daily, "KV": res.Manifest.KVFiles, "Created": res.Manifest.Created}))
			if res.BackupHistory != "" {
				fmt.Fprintln(w, r.t("cli.backup.grafted_history", map[string]any{"Ref": res.BackupHistory}))
			} else if res.KeptHistory {
				fmt.Fprintln(w, r.t("cli.backup.kept_history", nil))
			}
			if len(res.GitConfigDropped) > 0 {
				fmt.Fprintln(w, r.t("cli.backup.git_config_dropped", map[string]any{"Keys": strings.Join(res.GitConfigDropped, ", ")}))
			}
			if res.IndexRebuilt != "" {
				fmt.Fprintln(w, r.t("cli.backup.index_rebuilt_"+res.IndexRebuilt, map[string]any{"Version": res.Manifest.AppVersion}))
			}
			if n := res.Reindex.Problems; n > 0 {
				fmt.Fprintln(w, r.t("cli.backup.restored_problems", map[string]any{"Count": n}))
			}
			if res.InPlace {
				// What the replaced state held that its backup could not (the archive's own
				// left-out entries were shown by preview).
				r.printLeftOut(w, "cli.backup.pre_left_out", res.PreLeftOut, res.PreLeftOutCount)
			} else {
				r.printLeftOut(w, "cli.backup.preview_left_out", res.Manifest.LeftOut, res.Manifest.LeftOutCount)
			}
		})
	case "preview":
		if err := r.need("backup preview", "FILE", pos, 2); err != nil {
			return err
		}
		m, err := r.api.Backup.Preview(api.BackupPathParams{Path: pos[1]})
		if err != nil {
			return err
		}
		r.out(m, func(w io.Writer) {
			fmt.Fprintln(w, r.t("cli.backup.preview", map[string]any{"Created": m.Created, "Version": m.AppVersion,
				"Memories": m.Memories, "Daily": m.Daily, "Archived": m.Archived, "Trash": m.Trash, "KV": m.KVFiles,
				"Files": m.FileCount, "Size": humanBytes(m.Bytes)}))
			if m.Other > 0 {
				fmt.Fprintln(w, r.t("cli.backup.other_files", map[string]any{"Count": m.Other}))
			}
			r.printLeftOut(w, "cli.backup.preview_left_out", m.LeftOut, m.LeftOutCount)
			r.printHomeDiff(w, m.HomeDiff)
		})
	case "list":
		res, err := r.api.Backup.List(api.Empty{})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			fmt.Fprintln(w, r.t("cli.backup.folder", map[string]any{"Dir": res.Dir}))
			for _, b := range res.Backups {
				fmt.Fprintf(w, "  %s  %s  %s\n", b.Modified, humanBytes(b.Size), b.Name)
			}
			r.printSchedule(w, res.Schedule, res.NextDue)
		})
	case "schedule":
		sc, err := r.api.Backup.Schedule(api.Empty{})
		if err != nil {
			return err
		}
		if every.set || keep.set {
			if every.set {
				sc.IntervalHours = every.n
			}
			if keep.set {
				sc.Keep = keep.n
			}
			if sc, err = r.api.Backup.UpdateSchedule(sc); err != nil {
				return err
			}
		}
		r.out(sc, func(w io.Writer) { r.printSchedule(w, sc, "") })
	default:
		return usageError(r.t("cli.backup.usage", nil))
	}
	return nil
}

// printSchedule says whether scheduled backups run, how often, how many are kept and when the
// next is due.
func (r *runner) printSchedule(w io.Writer, sc api.BackupSchedule, next string) {
	if sc.IntervalHours == 0 {
		fmt.Fprintln(w, r.t("cli.backup.schedule_off", map[string]any{"Keep": sc.Keep}))
		return
	}
	fmt.Fprintln(w, r.t("cli.backup.schedule_on", map[string]any{"Hours": sc.IntervalHours, "Keep": sc.Keep}))
	if next != "" {
		fmt.Fprintln(w, r.t("cli.backup.next_due", map[string]any{"At": next}))
	}
}

// printLeftOut names what a backup left out of its archive (links, pipes), each with its reason
// in the person's language, under the heading key; past the listed ones a line counts the rest.
// printHomeDiff says, under a preview, which of this home's memory files a restore in place
// would put the backup's version back over and which it would remove.
func (r *runner) printHomeDiff(w io.Writer, d api.BackupHomeDiff) {
	if !d.Conflicts() {
		fmt.Fprintln(w, r.t("cli.backup.preview_same", nil))
		return
	}
	for _, part := range []struct {
		key   string
		list  []string
		count int
	}{{"cli.backup.preview_changed", d.Changed, d.ChangedCount}, {"cli.backup.preview_only_here", d.OnlyHere, d.OnlyHereCount}} {
		if part.count == 0 {
			continue
		}
		fmt.Fprintln(w, r.t(part.key, map[string]any{"Count": part.count}))
		for _, p := range part.list {
			fmt.Fprintln(w, r.t("cli.backup.preview_item", map[string]any{"Path": p}))
		}
		if rest := part.count - len(part.list); rest > 0 {
			fmt.Fprintln(w, r.t("cli.backup.preview_more", map[string]any{"Count": rest}))
		}
	}
}

func (r *runner) printLeftOut(w io.Writer, key string, list []api.BackupLeftOut, count int) {
	if count == 0 {
		return
	}
	fmt.Fprintln(w, r.t(key, map[string]any{"Count": count}))
	for _, l := range list {
		detail := l.Detail
		if r.env.Catalog != nil && r.env.Catalog.Has(l.DetailKey) {
			detail = r.t(l.DetailKey, l.DetailArgs)
		}
		fmt.Fprintln(w, r.t("cli.backup.left_out_item", map[string]any{"Path": l.Path, "Detail": detail}))
	}
	if rest := count - len(list); rest > 0 {
		fmt.Fprintln(w, r.t("cli.backup.left_out_more", map[string]any{"Count": rest}))
	}
}

// vacuum compacts the index: `engram vacuum`.
func (r *runner) vacuum(_ context.Context, args []string) error {
	if _, err := r.flags("vacuum", args, nil); err != nil {
		return err
	}
	res, err := r.api.Maintenance.Vacuum(api.Empty{})
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		fmt.Fprintln(w, r.t("cli.vacuum.done", map[string]any{"Before": humanBytes(res.BytesBefore), "After": humanBytes(res.BytesAfter),
			"Orphans": res.OrphansRemoved.Total(), "Stuck": res.StuckClosed.Organizer + res.StuckClosed.Extraction}))
	})
	return nil
}

// cleanup removes old trash, snapshots and archives: `engram cleanup --older-than D [--dry-run]`.
func (r *runner) cleanup(_ context.Context, args []string) error {
	var older string
	var dry bool
	if _, err := r.flags("cleanup", args, func(fs *flag.FlagSet) {
		fs.StringVar(&older, "older-than", "", "age of the files to remove, like 30d, 12h or 90m (required)")
		fs.BoolVar(&dry, "dry-run", false, "list what would be removed and remove nothing")
	}); err != nil {
		return err
	}
	if older == "" {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "cleanup", "What": "--older-than D"}))
	}
	res, err := r.api.Maintenance.Cleanup(api.CleanupParams{OlderThan: older, DryRun: dry})
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		for _, it := range res.Items {
			fmt.Fprintf(w, "  %s  %s\n", humanBytes(it.Size), it.Path)
		}
		key := "cli.cleanup.done"
		if res.DryRun {
			key = "cli.cleanup.would"
		}
		fmt.Fprintln(w, r.t(key, map[string]any{"Count": len(res.Items), "Size": humanBytes(res.Bytes)}))
	})
	return nil
}

// humanBytes writes a size for people (KiB, MiB, GiB).
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// optInt is an integer flag that knows whether it was given.
type optInt struct {
	n   int
	set bool
}

func (o *optInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optInt) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return err
	}
	o.n, o.set = n, true
	return nil
}
