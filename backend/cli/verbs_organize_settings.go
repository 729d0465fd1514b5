package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"engram/backend/api"
)

// intPatch is an int flag that, once given, sets *v: a settings patch changes only the
// fields named on the command line.
type intPatch struct{ v **int }

func (o intPatch) String() string {
	if o.v == nil || *o.v == nil {
		return ""
	}
	return strconv.Itoa(**o.v)
}

func (o intPatch) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	*o.v = &n
	return nil
}

// organizeSettings shows the organizer settings (organizer.settings) or, given any flag,
// changes those it names (organizer.updateSettings) and shows the result.
func (r *runner) organizeSettings(ctx context.Context, args []string) error {
	var p api.OrganizerSettingsPatch
	var mode, schedule string
	pos, err := r.flags("organize settings", args, func(fs *flag.FlagSet) {
		fs.StringVar(&schedule, "schedule", "", "on | off: scheduled runs")
		fs.Var(intPatch{&p.FrequencyHours}, "every", "hours between scheduled runs (1–720)")
		fs.StringVar(&mode, "mode", "", "conservative | standard | aggressive: what scheduled runs apply on their own")
		fs.Var(intPatch{&p.MinHoursBetweenRuns}, "min-hours", "skip a scheduled run sooner than this many hours after the last one (0–720)")
		fs.Var(intPatch{&p.MinNewMemories}, "min-new", "skip a scheduled run unless this many memories were written since the last one (0–100000)")
		fs.Var(intPatch{&p.ReviewAfterDays}, "review-after", "propose reviewing a low-confidence unreviewed memory after this many days (1–3650)")
	})
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "organize settings", "What": r.t("cli.organize.settings_usage", nil)}))
	}
	switch schedule {
	case "":
	case "on", "off":
		on := schedule == "on"
		p.Enabled = &on
	default:
		return usageError(r.t("cli.flag_bad_value", map[string]any{"Value": schedule, "Flag": "-schedule"}))
	}
	if mode != "" {
		m := api.OrganizerMode(mode)
		p.Mode = &m
	}
	closeFn, err := r.openOrganizer(ctx, false)
	if err != nil {
		return err
	}
	defer closeFn()
	var st api.OrganizerSettings
	if p == (api.OrganizerSettingsPatch{}) {
		st, err = r.api.Organizer.Settings(api.Empty{})
	} else {
		st, err = r.api.Organizer.UpdateSettings(p)
	}
	if err != nil {
		return err
	}
	r.out(st, func(w io.Writer) {
		if p != (api.OrganizerSettingsPatch{}) {
			fmt.Fprintln(w, r.t("cli.organize.settings_saved", nil))
		}
		r.printOrganizerSettings(w, st)
	})
	return nil
}

func (r *runner) printOrganizerSettings(w io.Writer, st api.OrganizerSettings) {
	key := "cli.organize.settings_off"
	if st.Enabled {
		key = "cli.organize.settings_on"
	}
	fmt.Fprintln(w, r.t(key, map[string]any{"Hours": st.FrequencyHours}))
	fmt.Fprintln(w, r.t("cli.organize.settings_mode", map[string]any{"Mode": r.word("organizer.mode", string(st.Mode)),
		"Hint": r.word("organizer.mode_hint", string(st.Mode))}))
	fmt.Fprintln(w, r.t("cli.organize.settings_gates", map[string]any{"Hours": st.MinHoursBetweenRuns, "New": st.MinNewMemories}))
	fmt.Fprintln(w, r.t("cli.organize.settings_review", map[string]any{"Days": st.ReviewAfterDays}))
}

// organizeStatus is the organizer at a glance (organizer.status): its settings, the next
// scheduled run, the run under way, the queue and the newest finished run.
func (r *runner) organizeStatus(ctx context.Context, args []string) error {
	pos, err := r.flags("organize status", args, nil)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return r.organizeUsage()
	}
	closeFn, err := r.openOrganizer(ctx, false)
	if err != nil {
		return err
	}
	defer closeFn()
	st, err := r.api.Organizer.Status(api.Empty{})
	if err != nil {
		return err
	}
	r.out(st, func(w io.Writer) {
		r.printOrganizerSettings(w, st.Settings)
		if st.Settings.Enabled && st.NextRunAt != nil {
			fmt.Fprintln(w, r.t("cli.organize.status_next", map[string]any{"At": st.NextRunAt.Local().Format(time.DateTime)}))
		}
		if st.LastSkip != "" {
			fmt.Fprintln(w, r.t("cli.organize.status_skip", map[string]any{"Skip": r.word("organizer.skip", st.LastSkip)}))
		}
		if st.Active != nil {
			fmt.Fprintln(w, r.t("cli.organize.status_active", nil))
			r.organizerRunHead(w, *st.Active)
		}
		if st.Queued > 0 {
			fmt.Fprintln(w, r.t("cli.organize.status_queued", map[string]any{"Count": st.Queued}))
		}
		if st.LastRun != nil {
			fmt.Fprintln(w, r.t("cli.organize.status_last", nil))
			r.organizerRunHead(w, *st.LastRun)
		} else {
			fmt.Fprintln(w, r.t("cli.organize.runs_none", nil))
		}
	})
	return nil
}
