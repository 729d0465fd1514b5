package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"engram/backend/api"
)

// organizeUndo takes an applied run back (organizer.undo, as the person): the memories it
// merged away or deleted come back, the ones it rewrote get their earlier text, aliases and
// supersedes. --dry-run says what would come back and changes nothing. A change left because
// one of its memories moved after the run is named with why, and the exit status is 1.
func (r *runner) organizeUndo(ctx context.Context, args []string) error {
	var dry bool
	pos, err := r.flags("organize undo", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&dry, "dry-run", false, "say what the undo would bring back, change nothing")
	})
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "organize undo", "What": "ID [--dry-run]"}))
	}
	closeFn, err := r.openOrganizer(ctx, false)
	if err != nil {
		return err
	}
	defer closeFn()
	res, err := r.api.Organizer.Undo(api.OrganizerUndoParams{RunID: pos[0], DryRun: dry})
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) { r.printUndo(w, res) })
	if res.Conflicts > 0 {
		return errSilent
	}
	return nil
}

// printUndo is one line per change of the run (what comes back, what is put back, or why it
// is left as it is), then the summary.
func (r *runner) printUndo(w io.Writer, res api.OrganizerUndoResult) {
	names := func(refs []api.OrganizerEntryRef) string {
		var out []string
		for _, e := range refs {
			out = append(out, entryLabel(e))
		}
		return strings.Join(out, ", ")
	}
	for _, it := range res.Items {
		args := map[string]any{"Decision": it.Decision, "Action": r.word("organizer.action", string(it.Action))}
		switch it.Status {
		case api.OrganizerUndoReady, api.OrganizerUndoDone:
			fmt.Fprintln(w, r.t("cli.organize.undo_item", args))
			if len(it.Restore) > 0 {
				fmt.Fprintln(w, r.t("cli.organize.undo_restore", map[string]any{"Names": names(it.Restore)}))
			}
			if len(it.Revert) > 0 {
				fmt.Fprintln(w, r.t("cli.organize.undo_revert", map[string]any{"Names": names(it.Revert)}))
			}
			if len(it.AlreadyBack) > 0 {
				fmt.Fprintln(w, r.t("cli.organize.undo_already", map[string]any{"Names": names(it.AlreadyBack)}))
			}
		default:
			fmt.Fprintln(w, r.t("cli.organize.undo_left", args))
			for _, p := range it.Problems {
				fmt.Fprintln(w, "      "+p.Message)
			}
		}
	}
	key := "cli.organize.undo_summary"
	if res.DryRun {
		key = "cli.organize.undo_preview"
	}
	fmt.Fprintln(w, r.t(key, map[string]any{"ID": res.RunID, "Undone": res.Undone, "Restored": res.Restored,
		"Reverted": res.Reverted, "Left": res.Conflicts}))
}
