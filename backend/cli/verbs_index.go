package cli

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"engram/backend/api"
)

// printQuota shows one line per scope instance: a project by its folder (the key is a hash
// nobody recognises; it is shown only when the folder is unknown), an agent by its name.
var printQuota = printJSONOr(func(r *runner, w io.Writer, q api.QuotaSummary) {
	rows := [][]string{{r.t("cli.quota_col.scope", nil), r.t("cli.quota_col.used", nil), r.t("cli.quota_col.limit", nil),
		r.t("cli.quota_col.headroom", nil), r.t("cli.quota_col.level", nil), r.t("cli.quota_col.unreviewed", nil),
		r.t("cli.quota_col.archived", nil)}}
	for _, s := range q.Scopes {
		rows = append(rows, []string{quotaScopeName(r, s), fmt.Sprint(s.Used), fmt.Sprint(s.Limit), fmt.Sprint(s.Headroom),
			r.t("quota.level."+s.Level, nil), fmt.Sprint(s.Unreviewed), fmt.Sprint(s.Archived)})
	}
	printColumns(w, rows, map[int]bool{1: true, 2: true, 3: true, 5: true, 6: true})
})

// quotaScopeName names a scope instance for people.
func quotaScopeName(r *runner, s api.ScopeQuota) string {
	return scopeName(r, string(s.Scope), s.Workdir, s.Key, s.Agent)
}

// scopeName names the scope instance of a quota, an import's preview or an organizer run's
// report alike: the global scope, a project by its folder (by its key when no folder is
// known) or an agent.
func scopeName(r *runner, scope, workdir, key, agent string) string {
	switch {
	case scope == "project" && workdir != "":
		return r.t("cli.quota_scope.project", map[string]any{"Workdir": workdir})
	case scope == "project":
		return r.t("cli.quota_scope.project", map[string]any{"Workdir": key})
	case scope == "agent":
		return r.t("cli.quota_scope.agent", map[string]any{"Agent": agent})
	}
	return r.t("cli.quota_scope.global", nil)
}

func exportParams(r *runner, args []string) (api.ExportParams, error) {
	var sc scopeFlags
	var folder string
	if _, err := r.flags("export", args, func(fs *flag.FlagSet) {
		sc.define(fs)
		fs.StringVar(&folder, "markdown", "", "write Markdown files into this new or empty folder instead of JSONL")
	}); err != nil {
		return api.ExportParams{}, err
	}
	if folder != "" {
		abs, err := filepath.Abs(folder)
		if err != nil {
			return api.ExportParams{}, err
		}
		folder = abs
	}
	return api.ExportParams{Scope: api.Scope(sc.scope), Workdir: sc.workdir, Agent: sc.agent, Markdown: folder}, nil
}

// printExport writes the JSONL on stdout either way; the count goes to stderr for people.
func printExport(r *runner, res api.ExportResult) error {
	if f := res.Folder; f != nil {
		r.out(res, func(w io.Writer) {
			fmt.Fprintln(w, r.t("cli.export_folder_done", map[string]any{"Memories": f.Memories, "Daily": f.Daily, "Dir": f.Dir}))
			if f.Gone > 0 {
				fmt.Fprintln(w, r.t("cli.export_folder_gone", map[string]any{"Count": f.Gone}))
			}
		})
		return nil
	}
	// A short write (a full disk, a closed pipe) is an error, not "Exported N memories": the
	// person would keep a cut file as their copy.
	if _, err := io.WriteString(r.env.Stdout, res.JSONL); err != nil {
		return fmt.Errorf("%s", r.t("cli.export_write_failed", map[string]any{"Error": err.Error()}))
	}
	if !r.json {
		// Journal days were counted as memories ("Exported 12 memories" for 9 and 3 days).
		if res.Daily > 0 {
			fmt.Fprintln(r.env.Stderr, r.t("cli.export_done_daily", map[string]any{"Memories": res.Count - res.Daily, "Daily": res.Daily}))
		} else {
			fmt.Fprintln(r.env.Stderr, r.t("cli.export_done", map[string]any{"Count": res.Count}))
		}
		if res.KV > 0 {
			fmt.Fprintln(r.env.Stderr, r.t("cli.kv.export_done", map[string]any{"Count": res.KV}))
		}
	}
	// An agent's key file that cannot be read is left out, not the whole export (it used to
	// write nothing at all): each is named with its reason, and the exit code says the export
	// is not whole.
	for _, p := range res.Problems {
		fmt.Fprintln(r.env.Stderr, r.t("cli.export_left_out", map[string]any{"Message": p.Message}))
	}
	if len(res.Problems) > 0 {
		return errSilent
	}
	return nil
}

var printReindex = printJSONOr(func(r *runner, w io.Writer, rep api.ReconcileReport) {
	fmt.Fprintln(w, r.t("cli.reindex_done", map[string]any{"Added": rep.Added, "Scanned": rep.Scanned, "Problems": rep.Problems}))
	if rep.Problems > 0 {
		// "3 problems" alone named none of them, nor where to look.
		fmt.Fprintln(w, r.t("cli.reindex_problems_hint", nil))
	}
})

// printDoctor prints the index check. Its line after the checks (the report's Headline) says
// "all good" only when doctor found nothing, otherwise how many findings are left to act on.
// It exits 1 when the index or a file is at fault (rep.OK false: integrity, full-text tables,
// files it cannot read, files changed behind the index's back, orphan rows, stuck runs), and
// then the headline says a fault was found even when doctor fixed it while checking (files
// changed behind the index's back are indexed again: "fixed_fault"); findings that are notes
// (a scope's quota above normal, a header that disagrees with its place, a project not moved,
// the git history's) leave it 0, as things fixed while checking that were no fault do.
func printDoctor(r *runner, rep api.DoctorReport) error {
	r.out(rep, func(w io.Writer) {
		if rep.Integrity == "ok" {
			// SQLite's own word; anything else is its message, shown as it is.
			fmt.Fprintln(w, r.t("cli.doctor_integrity_ok", nil))
		} else {
			fmt.Fprintln(w, r.t("cli.doctor_integrity", map[string]any{"Result": rep.Integrity}))
		}
		if rep.ReadOnly {
			if rep.ReadOnlyIndex != "" {
				fmt.Fprintln(w, r.t("notice.index_read_only", map[string]any{"Index": rep.ReadOnlyIndex}))
			} else {
				fmt.Fprintln(w, r.t("notice.home_read_only", nil))
			}
		}
		if rep.Recovery != nil {
			fmt.Fprintln(w, rep.Recovery.Message)
			for _, st := range rep.Recovery.Tables {
				if st.Salvaged > 0 || st.Lost != 0 { // empty tables say nothing
					fmt.Fprintln(w, st.Message)
				}
			}
		}
		if !rep.ReadOnly {
			key := "cli.doctor_checksum"
			if len(rep.Checksum.Mismatched) == 0 {
				key = "cli.doctor_checksum_clean" // "0 differed (indexed again)" said a reindex happened
			}
			fmt.Fprintln(w, r.t(key, map[string]any{"Checked": rep.Checksum.Checked, "Mismatched": len(rep.Checksum.Mismatched)}))
			for _, p := range rep.Checksum.Mismatched {
				fmt.Fprintln(w, r.t("cli.doctor_checksum_file", map[string]any{"Path": p}))
			}
		}
		if rep.TempFiles.Count > 0 {
			fmt.Fprintln(w, r.t("cli.doctor_temp_files", map[string]any{"Count": rep.TempFiles.Count}))
			for _, p := range rep.TempFiles.Paths {
				fmt.Fprintln(w, r.t("cli.doctor_temp_file", map[string]any{"Path": p}))
			}
		}
		if len(rep.Problems) > 0 {
			fmt.Fprintln(w, r.t("cli.doctor_problems", map[string]any{"Count": len(rep.Problems)}))
			for _, p := range rep.Problems {
				fmt.Fprintln(w, r.t("cli.doctor_problem", map[string]any{"Path": p.Path, "Detail": r.problemText(p)}))
			}
		}
		// The headline api said from every finding, as the app shows it.
		fmt.Fprintln(w, rep.Headline.Message)
		printFindings(r, w, rep.Findings)
	})
	if !rep.OK {
		return errSilent
	}
	return nil
}

// printFindings lists doctor's findings, each with the command that fixes it (or that doctor
// fixed it already while checking).
func printFindings(r *runner, w io.Writer, fs []api.DoctorFinding) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintln(w, r.t("cli.maint.findings", map[string]any{"Count": len(fs)}))
	for _, f := range fs {
		fmt.Fprintln(w, "  • "+f.Message)
		switch {
		case f.Fixed && f.Fix == "":
			fmt.Fprintln(w, "    "+r.t("cli.maint.fixed_once", nil))
		case f.Fixed:
			fmt.Fprintln(w, "    "+r.t("cli.maint.fixed", map[string]any{"Fix": f.Fix}))
		case f.Fix != "":
			fmt.Fprintln(w, "    "+r.t("cli.maint.fix", map[string]any{"Fix": f.Fix}))
		}
	}
}

// problemText says what is wrong with a file in the person's language: the problem's own
// message around its detail, as the app's problems list shows it. The bare detail read
// "global/user/x.md: title" for a control character in the title.
func (r *runner) problemText(p api.Problem) string {
	key := "error." + p.Code
	if r.env.Catalog == nil || !r.env.Catalog.Has(key) {
		return p.Detail
	}
	detail := p.Detail
	if p.DetailKey != "" && r.env.Catalog.Has(p.DetailKey) {
		// The reason by its key, its field named in the person's language ("标题", not "title").
		detail = api.CodedText(r.env.Catalog, r.lang, p.DetailKey, p.DetailArgs)
	}
	return api.CodedText(r.env.Catalog, r.lang, key, map[string]any{"Detail": detail})
}
