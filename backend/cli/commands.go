package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"engram/backend/api"
)

// exitCode ends a command with this exit code, having said everything already.
type exitCode int

func (e exitCode) Error() string { return "exit " + strconv.Itoa(int(e)) }

func (r *runner) version(_ context.Context, _ []string) error {
	fmt.Fprintln(r.env.Stdout, r.env.Version)
	return nil
}

// serve runs the headless web UI and bridge (Env.Serve); it opens the home itself.
func (r *runner) serve(ctx context.Context, args []string) error {
	if r.env.Serve == nil {
		fmt.Fprintln(r.env.Stderr, r.t("cli.serve_unavailable", nil))
		return exitCode(1)
	}
	return exitCode(r.env.Serve(ctx, args))
}

// mcp runs the MCP server over stdio (Env.MCP); it opens the home itself and owns stdout.
func (r *runner) mcp(ctx context.Context, args []string) error {
	if r.env.MCP == nil {
		fmt.Fprintln(r.env.Stderr, r.t("cli.mcp_unavailable", nil))
		return exitCode(1)
	}
	return exitCode(r.env.MCP(ctx, args))
}

// BenchRequest is one `engram bench` command line, read and checked.
type BenchRequest struct {
	What  string // store | recall | corpus | cli | extraction | bridge | mcp | hook | graph | locomo
	Sizes []int  // store sizes, for store, recall, corpus, cli, extraction and backup
	File  string // the LoCoMo file, for locomo
	JSON  bool
	// Stdout gets the figures, Stderr the progress.
	Stdout, Stderr io.Writer
}

// bench runs the harness (Env.Bench, in its own temporary homes, never the user's). A
// shipped binary has none and answers with a translated hint. Every failure, usage included,
// exits 1.
func (r *runner) bench(ctx context.Context, args []string) error {
	if err := r.benchRun(ctx, args); err != nil {
		r.printErr(err)
		return exitCode(1)
	}
	return nil
}

func (r *runner) benchRun(ctx context.Context, args []string) error {
	if r.env.Bench == nil {
		return errors.New(r.t("cli.bench.unavailable", nil))
	}
	var sizes string
	pos, err := r.flags("bench", args, func(fs *flag.FlagSet) {
		fs.StringVar(&sizes, "sizes", "10000,100000", "comma-separated store sizes")
	})
	if err != nil {
		return err
	}
	if err := r.need("bench", "store | recall | corpus | cli | extraction | backup | history | bridge | mcp | hook | graph | locomo FILE", pos, 1); err != nil {
		return err
	}
	req := BenchRequest{What: pos[0], JSON: r.json, Stdout: r.env.Stdout, Stderr: r.env.Stderr}
	switch req.What {
	case "store", "recall", "corpus", "cli", "extraction", "backup", "history":
		for _, s := range strings.Split(sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n <= 0 {
				return usageError("bench " + req.What + " --sizes: " + s)
			}
			req.Sizes = append(req.Sizes, n)
		}
	case "bridge", "mcp", "hook", "graph":
	case "locomo":
		if err := r.need("bench locomo", "FILE", pos, 2); err != nil {
			return err
		}
		req.File = pos[1]
	default:
		return usageError(fmt.Sprintf("bench %s: use store, recall, corpus, cli, extraction, backup, history, bridge, mcp, hook, graph or locomo", pos[0]))
	}
	return r.env.Bench(ctx, req)
}

// maxDailyStdin bounds a journal entry read from stdin: a day holds at most 32 KiB, so a
// little more lets the api refuse it with its real size.
const maxDailyStdin = 1 << 20

// noStdinLimit reads stdin to its end (extract: a conversation's size is the api's to judge).
const noStdinLimit = math.MaxInt64

// stdinText reads stdin ("-" on the command line), at most limit bytes: each verb's bound
// lets the api refuse an oversized text with its real size (a body, a journal entry, a kv
// value). No stdin reads as empty; a read that fails says so (cli.read_file_failed, "-").
func (r *runner) stdinText(limit int64) (string, error) {
	if r.env.Stdin == nil {
		return "", nil
	}
	b, err := io.ReadAll(io.LimitReader(r.env.Stdin, limit))
	if err != nil {
		return "", fmt.Errorf("%s", r.t("cli.read_file_failed", r.reason(map[string]any{"Path": "-"}, err)))
	}
	return string(b), nil
}

// daily appends to, shows or lists the journal: one method per sub-verb.
func (r *runner) daily(_ context.Context, args []string) error {
	var agent string
	pos, err := r.flags("daily", args, func(fs *flag.FlagSet) {
		fs.StringVar(&agent, "agent", "", "who is writing")
	})
	if err != nil {
		return err
	}
	if err := r.need("daily", "append TEXT | show [DATE] | list | search QUERY", pos, 1); err != nil {
		return err
	}
	switch pos[0] {
	case "append":
		if err := r.need("daily append", "TEXT|-", pos, 2); err != nil {
			return err
		}
		text := strings.Join(pos[1:], " ")
		if len(pos) == 2 && pos[1] == "-" {
			// "-" alone reads the entry from stdin, as write --body - and kv set KEY - do; an
			// empty one is refused by the api (empty_daily_body), not written as "-".
			if text, err = r.stdinText(maxDailyStdin); err != nil {
				return err
			}
		}
		res, err := r.api.Daily.Append(api.AppendParams{Text: text, Agent: agent})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			r.warnings(res.Warnings)
			fmt.Fprintln(w, r.t("cli.daily_appended", map[string]any{"Day": res.Slug}))
		})
	case "show":
		p := api.DayParams{}
		if len(pos) > 1 {
			p.Date = strings.Join(pos[1:], " ")
			// A date as the journal's search reads it ("yesterday", "7 Dec", 12月7日, 12/7):
			// show took only YYYY-MM-DD, where the window's search box takes them all.
			if !isoDay(p.Date) {
				found, err := r.api.Daily.Search(api.DaySearchParams{Query: p.Date, Limit: 1})
				if err != nil {
					return err
				}
				if found.Date == "" || len(found.Days) == 0 || !found.Days[0].ByDate {
					return usageError(r.t("cli.daily_no_date", map[string]any{"Date": p.Date}))
				}
				p.Date, p.Archived = found.Days[0].Date, found.Days[0].Archived
			}
		}
		res, err := r.api.Daily.Read(p)
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			fmt.Fprintf(w, "# %s\n\n", res.Date)
			if res.Memory != nil {
				fmt.Fprintln(w, res.Memory.Body)
			}
			if res.Problem != nil {
				fmt.Fprintln(w, r.t("cli.daily_unreadable", map[string]any{"Path": res.Problem.Path, "Detail": r.problemText(*res.Problem)}))
			}
		})
	case "list":
		res, err := r.api.Daily.List(api.DayListParams{})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			for _, d := range res.Days {
				mark := ""
				if d.Archived {
					mark = "  " + r.t("cli.daily_archived", nil)
				}
				fmt.Fprintf(w, "%s  %d%s\n", d.Date, d.Bytes, mark)
			}
		})
	case "search":
		if err := r.need("daily search", "QUERY", pos, 2); err != nil {
			return err
		}
		res, err := r.api.Daily.Search(api.DaySearchParams{Query: strings.Join(pos[1:], " ")})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			if len(res.Days) == 0 {
				fmt.Fprintln(w, r.t("cli.daily_none_found", nil))
			}
			for _, d := range res.Days {
				mark := ""
				if d.Archived {
					mark = "  " + r.t("cli.daily_archived", nil)
				}
				fmt.Fprintf(w, "%s%s\n", d.Date, mark)
				if !d.ByDate && d.Snippet != "" {
					fmt.Fprintf(w, "    %s %s: %s\n", d.Time, d.Author, d.Snippet)
				}
			}
		})
	default:
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "daily", "What": "append TEXT | show [DATE] | list | search QUERY"}))
	}
	return nil
}

// isoDay reports whether s is written YYYY-MM-DD (the api checks that it is a real date).
func isoDay(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range s {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// bridgeToken prints the bridge token (remote.status) or replaces it (remote.regenerateToken).
func (r *runner) bridgeToken(_ context.Context, args []string) error {
	var regen bool
	pos, err := r.flags("bridge", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&regen, "regenerate", false, "replace the token")
	})
	if err != nil {
		return err
	}
	if len(pos) == 0 || pos[0] != "token" {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "bridge", "What": "token"}))
	}
	var st api.RemoteStatus
	if regen {
		st, err = r.api.Remote.RegenerateToken(api.Empty{})
	} else {
		st, err = r.api.Remote.Status(api.Empty{})
	}
	if err != nil {
		return err
	}
	r.out(map[string]any{"token": st.Token}, func(w io.Writer) {
		key := "cli.bridge_token"
		if regen {
			key = "cli.bridge_token_regenerated"
		}
		fmt.Fprintln(w, r.t(key, map[string]any{"Token": st.Token}))
	})
	return nil
}
