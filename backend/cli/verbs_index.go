package cli

import (
	"flag"
	"fmt"
	"io"

	"engram/backend/api"
)

var printQuota = printJSONOr(func(r *runner, w io.Writer, q api.QuotaSummary) {
	fmt.Fprintln(w, r.t("cli.quota_header", nil))
	for _, s := range q.Scopes {
		name := string(s.Scope)
		if s.Key != "" {
			name += ":" + s.Key
		}
		fmt.Fprintf(w, "%-16s %5d  %5d  %8d  %-10s %d\n", name, s.Used, s.Limit, s.Headroom,
			r.t("quota.level."+s.Level, nil), s.Unreviewed)
	}
})

func importParams(r *runner, args []string) (api.ImportParams, error) {
	var keepReview bool
	pos, err := r.flags("import", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&keepReview, "keep-review", false, "keep reviewed and source as in the file (restoring your own Engram export)")
	})
	if err != nil {
		return api.ImportParams{}, err
	}
	if err := r.need("import", "FILE.jsonl", pos, 1); err != nil {
		return api.ImportParams{}, err
	}
	data, err := r.env.ReadFile(pos[0])
	if err != nil {
		return api.ImportParams{}, fmt.Errorf("%s", r.t("cli.read_file_failed", map[string]any{"Path": pos[0], "Detail": err.Error()}))
	}
	return api.ImportParams{JSONL: string(data), KeepReview: keepReview}, nil
}

func printImport(r *runner, res api.ImportResult) error {
	r.out(res, func(w io.Writer) {
		for _, le := range res.Errors {
			fmt.Fprintln(r.env.Stderr, r.t("cli.import_line_error", map[string]any{"Line": le.Line, "Message": le.Message}))
		}
		fmt.Fprintln(w, r.t("cli.import_done", map[string]any{"Imported": res.Imported, "Daily": res.Daily, "Lines": res.Lines, "Errors": len(res.Errors)}))
		if res.KV+res.KVUnchanged+res.KVConflicts > 0 {
			fmt.Fprintln(w, r.t("cli.kv.import_done", map[string]any{"Added": res.KV, "Unchanged": res.KVUnchanged, "Conflicts": res.KVConflicts}))
		}
	})
	if len(res.Errors) > 0 {
		return errSilent // good lines are kept; the exit code still tells scripts something failed
	}
	return nil
}

func exportParams(r *runner, args []string) (api.ExportParams, error) {
	var sc scopeFlags
	if _, err := r.flags("export", args, sc.define); err != nil {
		return api.ExportParams{}, err
	}
	return api.ExportParams{Scope: api.Scope(sc.scope), Workdir: sc.workdir, Agent: sc.agent}, nil
}

// printExport writes the JSONL on stdout either way; the count goes to stderr for people.
func printExport(r *runner, res api.ExportResult) error {
	io.WriteString(r.env.Stdout, res.JSONL)
	if !r.json {
		fmt.Fprintln(r.env.Stderr, r.t("cli.export_done", map[string]any{"Count": res.Count}))
		if res.KV > 0 {
			fmt.Fprintln(r.env.Stderr, r.t("cli.kv.export_done", map[string]any{"Count": res.KV}))
		}
	}
	return nil
}

var printReindex = printJSONOr(func(r *runner, w io.Writer, rep api.ReconcileReport) {
	fmt.Fprintln(w, r.t("cli.reindex_done", map[string]any{"Added": rep.Added, "Scanned": rep.Scanned, "Problems": rep.Problems}))
})

// printDoctor prints the index check; a failed check exits 1 after saying why.
func printDoctor(r *runner, rep api.DoctorReport) error {
	r.out(rep, func(w io.Writer) {
		fmt.Fprintln(w, r.t("cli.doctor_integrity", map[string]any{"Result": rep.Integrity}))
		if rep.ReadOnly {
			fmt.Fprintln(w, r.t("notice.home_read_only", nil))
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
			fmt.Fprintln(w, r.t("cli.doctor_checksum", map[string]any{"Checked": rep.Checksum.Checked, "Mismatched": len(rep.Checksum.Mismatched)}))
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
				fmt.Fprintln(w, r.t("cli.doctor_problem", map[string]any{"Path": p.Path, "Detail": p.Detail}))
			}
		} else if rep.OK {
			fmt.Fprintln(w, r.t("cli.doctor_ok", map[string]any{"Memories": rep.Memories}))
		}
	})
	if !rep.OK {
		return errSilent
	}
	return nil
}
