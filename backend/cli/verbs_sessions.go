package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"engram/backend/api"
)

// sessions lists the conversations agents fed extraction, shows one, or deletes one:
// sessions.list, sessions.read, sessions.delete.
func (r *runner) sessions(_ context.Context, args []string) error {
	var agent, workdir string
	var limit int
	pos, err := r.flags("sessions", args, func(fs *flag.FlagSet) {
		fs.StringVar(&agent, "agent", "", "only this agent's sessions (or: the agent of ID)")
		fs.StringVar(&workdir, "workdir", "", "only sessions in this project folder")
		fs.IntVar(&limit, "limit", 0, "at most this many sessions")
	})
	if err != nil {
		return err
	}
	if len(pos) == 0 || pos[0] == "list" {
		res, err := r.api.Sessions.List(api.SessionListParams{Agent: agent, Workdir: workdir, Limit: limit})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) { r.printSessions(w, res) })
		return nil
	}
	switch pos[0] {
	case "show":
		if err := r.need("sessions show", "ID", pos, 2); err != nil {
			return err
		}
		res, err := r.api.Sessions.Read(api.SessionRef{ID: pos[1], Agent: agent})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) { r.printSession(w, res) })
	case "delete":
		if err := r.need("sessions delete", "ID", pos, 2); err != nil {
			return err
		}
		res, err := r.api.Sessions.Delete(api.SessionRef{ID: pos[1], Agent: agent})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			fmt.Fprintln(w, r.t("cli.sessions.deleted", map[string]any{"ID": res.ID, "Agent": res.Agent}))
		})
	default:
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "sessions", "What": "list | show ID | delete ID"}))
	}
	return nil
}

func (r *runner) printSessions(w io.Writer, res api.SessionList) {
	if len(res.Sessions) == 0 {
		fmt.Fprintln(w, r.t("cli.sessions.none", nil))
		return
	}
	for _, s := range res.Sessions {
		fmt.Fprintln(w, r.t("cli.sessions.row", map[string]any{"ID": s.ID, "Agent": s.Agent, "Turns": s.TurnsReceived,
			"Last": s.LastActivity.Local().Format(time.DateTime), "Workdir": s.Workdir}))
	}
}

func (r *runner) printSession(w io.Writer, res api.SessionDetail) {
	s := res.Session
	header := "cli.sessions.header"
	if s.Workdir == "" { // "in :" said nothing; a session may have no project folder
		header = "cli.sessions.header_none"
	}
	fmt.Fprintln(w, r.t(header, map[string]any{"ID": s.ID, "Agent": s.Agent, "Turns": s.TurnsReceived,
		"Kept": s.TurnsKept, "Workdir": s.Workdir, "First": s.FirstSeen.Local().Format(time.DateTime),
		"Last": s.LastActivity.Local().Format(time.DateTime)}))
	if s.Summary != "" {
		fmt.Fprintln(w, r.t("cli.sessions.summary", map[string]any{"Count": s.Summarized}))
		fmt.Fprintln(w, s.Summary)
	}
	// The messages recorded in another project were folded into that project's summary.
	for _, p := range s.ProjectSummaries {
		key := "cli.sessions.summary_elsewhere"
		if p.Workdir == "" {
			key = "cli.sessions.summary_elsewhere_none"
		}
		fmt.Fprintln(w, r.t(key, map[string]any{"Count": p.Summarized, "Workdir": p.Workdir}))
		fmt.Fprintln(w, p.Summary)
	}
	for _, t := range res.Turns {
		fmt.Fprintf(w, "\n#%d %s\n%s\n", t.Seq, t.Role, t.Content)
		// A message recorded in another project than the session's first one says where: it is
		// that project's, not the one in the header.
		if t.ProjectKey != s.ProjectKey {
			if t.Workdir != "" {
				fmt.Fprintln(w, r.t("cli.sessions.elsewhere", map[string]any{"Workdir": t.Workdir}))
			} else {
				fmt.Fprintln(w, r.t("cli.sessions.elsewhere_none", nil))
			}
		}
		if t.CutBytes > 0 {
			// A cut message is never shown as if it were whole.
			fmt.Fprintln(w, r.t("cli.sessions.cut", map[string]any{"Bytes": t.CutBytes}))
		}
	}
}
