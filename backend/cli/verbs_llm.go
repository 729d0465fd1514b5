package cli

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"engram/backend/api"
)

// usageParams reads `engram usage [--days N] [--csv] [--json]`. --csv is kept on the runner
// for printUsage, which the table calls with the result only.
func usageParams(r *runner, args []string) (api.UsageParams, error) {
	var p api.UsageParams
	pos, err := r.flags("usage", args, func(fs *flag.FlagSet) {
		fs.IntVar(&p.Days, "days", 30, "how many days, today included (1–366)")
		fs.BoolVar(&r.csv, "csv", false, "print CSV for spreadsheets")
	})
	if err == nil && len(pos) > 0 {
		err = usageError(r.t("cli.missing_arg", map[string]any{"Command": "usage", "What": "[--days N] [--csv] [--json]"}))
	}
	if p.Days == 0 {
		// The API reads 0 as "not given" (30 days): --days 0 printed thirty days without a
		// word. Sent as out of range, it is refused with the range.
		p.Days = -1
	}
	return p, err
}

// printUsage prints the summary as aligned tables (total, by purpose, model and day), as CSV
// rows (one per group and key) or as JSON.
func printUsage(r *runner, sum api.UsageSummaryResult) error {
	if r.csv && !r.json {
		return r.usageCSV(r.env.Stdout, sum)
	}
	r.out(sum, func(w io.Writer) {
		fmt.Fprintln(w, r.t("cli.usage_range", map[string]any{
			"From": sum.From.Format("2006-01-02"), "To": sum.To.AddDate(0, 0, -1).Format("2006-01-02"),
			"Calls": sum.Total.Calls, "Cost": money(sum.Total.CostUSD),
		}))
		for _, sec := range r.usageSections(sum) {
			if sec.group == "day" {
				// Thirty rows of zeros said nothing: the days with calls are the table (the
				// CSV and JSON keep every day, for charts).
				var used []api.UsageGroup
				for _, g := range sec.rows {
					if g.Calls > 0 {
						used = append(used, g)
					}
				}
				if sec.rows = used; len(used) == 0 {
					continue
				}
			}
			fmt.Fprintln(w)
			fmt.Fprintln(w, sec.title)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", sec.head, r.t("cli.usage_calls", nil), r.t("cli.usage_input", nil),
				r.t("cli.usage_output", nil), r.t("cli.usage_cost", nil))
			for _, g := range sec.rows {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t\n", sec.label(g.Key), g.Calls, g.InputTokens, g.OutputTokens, money(g.CostUSD))
			}
			_ = tw.Flush()
		}
		if sum.Total.Calls > 0 {
			fmt.Fprintln(w)
			fmt.Fprintln(w, r.t("cli.usage_note", nil))
		}
	})
	return nil
}

type usageSection struct {
	group, title, head string
	rows               []api.UsageGroup
	label              func(string) string
}

func (r *runner) usageSections(sum api.UsageSummaryResult) []usageSection {
	same := func(s string) string { return s }
	return []usageSection{
		{"purpose", r.t("cli.usage_by_purpose", nil), r.t("cli.usage_purpose", nil), sum.ByPurpose, r.purposeLabel},
		{"model", r.t("cli.usage_by_model", nil), r.t("cli.usage_model", nil), sum.ByModel, same},
		{"day", r.t("cli.usage_by_day", nil), r.t("cli.usage_day", nil), sum.ByDay, same},
	}
}

// purposeLabel names a purpose in the person's language; a purpose this build does not know
// shows as recorded.
func (r *runner) purposeLabel(p string) string {
	key := "ui.usage.purpose." + p
	if r.env.Catalog != nil && r.env.Catalog.Has(key) {
		return r.t(key, nil)
	}
	return p
}

func (r *runner) usageCSV(w io.Writer, sum api.UsageSummaryResult) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{r.t("cli.usage_group", nil), r.t("cli.usage_key", nil), r.t("cli.usage_calls", nil),
		r.t("cli.usage_input", nil), r.t("cli.usage_output", nil), r.t("cli.usage_cost", nil)})
	for _, sec := range r.usageSections(sum) {
		for _, g := range sec.rows {
			_ = cw.Write([]string{sec.group, g.Key, strconv.Itoa(g.Calls), strconv.Itoa(g.InputTokens),
				strconv.Itoa(g.OutputTokens), strconv.FormatFloat(g.CostUSD, 'f', 6, 64)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// money is a cost in dollars to four places; a cost under a hundredth of a cent reads
// "<$0.0001" — cheap calls read "$0.0000", as if they cost nothing.
func money(usd float64) string {
	if usd > 0 && usd < 0.00005 {
		return "<$0.0001"
	}
	return "$" + strconv.FormatFloat(usd, 'f', 4, 64)
}

// llm runs `engram llm status`, `engram llm test`, `engram llm set` (provider, base URL,
// model, streaming: verbs_llm_set.go), `engram llm key set` (the key is read from stdin, never
// from the command line, where the shell history and ps would see it) and `engram llm key
// clear`.
func (r *runner) llm(_ context.Context, args []string) error {
	var set llmSetFlags
	pos, err := r.flags("llm", args, set.define)
	if err != nil {
		return err
	}
	what := "status | test | set --provider P --base-url URL --model M [--key-stdin] | key set | key clear"
	sub := strings.Join(pos, " ")
	if len(pos) == 0 || (set.given() && sub != "set") {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "llm", "What": what}))
	}
	switch sub {
	case "set":
		return r.llmSet(set)
	case "status":
		st, err := r.api.LLM.Status(api.Empty{})
		if err != nil {
			return err
		}
		r.printLLMStatus(st)
	case "test":
		res, err := r.api.LLM.Test(api.Empty{})
		if err != nil {
			return err
		}
		return r.testResult(res, res.OK, res.Error, r.t("cli.llm_test_ok",
			map[string]any{"Provider": res.Provider, "Model": res.Model, "Ms": res.LatencyMS}))
	case "key set", "key clear":
		return r.keyVerb(pos[1] == "set", func(key string, clear bool) (any, error) {
			return r.api.LLM.SetKey(api.SetKeyParams{Key: key, Clear: clear})
		})
	default:
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "llm", "What": what}))
	}
	return nil
}

// testResult prints a connection test (llm test, embeddings test): okLine when it passed, the
// translated failure on stderr (and a non-zero exit) when not; --json prints the result as is.
func (r *runner) testResult(res any, ok bool, failure *api.Error, okLine string) error {
	if r.json {
		r.emitJSON(r.env.Stdout, res)
	} else if ok {
		fmt.Fprintln(r.env.Stdout, okLine)
	}
	if ok {
		return nil
	}
	if !r.json && failure != nil {
		fmt.Fprintln(r.env.Stderr, r.t("cli.error", map[string]any{"Message": failure.Message}))
	}
	return errSilent
}

// keyVerb runs `… key set` (the key read from stdin, never from the command line, where the
// shell history and ps would see it) and `… key clear` through save.
func (r *runner) keyVerb(set bool, save func(key string, clear bool) (any, error)) error {
	key := ""
	if set {
		var err error
		if key, err = r.readKey(); err != nil {
			return err
		}
	}
	st, err := save(key, !set)
	if err != nil {
		return err
	}
	done := "cli.llm_key_cleared"
	if set {
		done = "cli.llm_key_saved"
	}
	r.out(st, func(w io.Writer) { fmt.Fprintln(w, r.t(done, nil)) })
	return nil
}

func (r *runner) printLLMStatus(st api.LLMStatus) {
	r.out(st, func(w io.Writer) {
		if st.Provider == "" {
			fmt.Fprintln(w, r.t("cli.llm_none", nil))
			return
		}
		key := r.t("cli.llm_key_missing", nil)
		if st.KeySet {
			key = r.t("cli.llm_key_set", nil)
		} else if st.Local {
			key = r.t("cli.llm_key_local", nil)
		}
		base := st.BaseURL
		if base == "" {
			base = r.t("cli.llm_default_url", nil)
		}
		fmt.Fprintln(w, r.t("cli.llm_status", map[string]any{"Provider": st.Provider, "Model": st.Model, "URL": base, "Key": key}))
		if st.Error != nil {
			fmt.Fprintln(w, st.Error.Message)
		}
	})
}
