package memory

import (
	"context"
	"fmt"
)

// Finding is one thing doctor found, with the command that fixes it. Code names the kind
// (the UI and CLI translate "doctor.finding.<code>" with Args); Fix is an engram command line
// the person can run as it is ("" when doctor already fixed it while checking).
type Finding struct {
	Code  string         `json:"code"`
	Path  string         `json:"path,omitempty"`
	Count int            `json:"count,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
	Fix   string         `json:"fix"`
	Fixed bool           `json:"fixed"`
	// Message is the finding in the caller's language (filled by api).
	Message string `json:"message"`
}

// Fix commands doctor prints.
const (
	FixReindex = "engram reindex"
	FixVacuum  = "engram vacuum"
	FixRestore = "engram backup restore FILE"
)

// findings turns a finished report into the list doctor prints: one per fault, each with a fix.
func (s *Store) findings(ctx context.Context, rep *DoctorReport) error {
	out := []Finding{}
	var err error
	if rep.Integrity != "ok" {
		out = append(out, Finding{Code: "integrity", Args: map[string]any{"Result": rep.Integrity}, Fix: FixRestore})
	}
	if !rep.FTSConsistent {
		out = append(out, Finding{Code: "fts_inconsistent", Fix: FixReindex})
	}
	rc := rep.Reconcile
	if n := rc.Added + rc.Updated + rc.Removed; n > 0 {
		// The reconcile doctor ran already brought the index in line: said, and marked fixed.
		out = append(out, Finding{Code: "index_stale", Count: n, Fixed: true, Fix: FixReindex,
			Args: map[string]any{"Added": rc.Added, "Updated": rc.Updated, "Removed": rc.Removed}})
	}
	for _, d := range rep.Checksum.Disagreeing {
		out = append(out, Finding{Code: "header_disagrees", Path: d.Path,
			Args: map[string]any{"Field": d.Field, "Header": d.Header, "Place": d.Place},
			Fix:  "$EDITOR " + shellQuote(s.abs(d.Path)) + " && " + FixReindex})
	}
	for _, p := range rep.Checksum.Mismatched {
		out = append(out, Finding{Code: "checksum_mismatch", Path: p, Fixed: true, Fix: FixReindex})
	}
	for _, p := range rep.Problems {
		args := map[string]any{"Detail": p.Detail, "ProblemCode": p.Code}
		if p.DetailKey != "" {
			args["DetailKey"] = p.DetailKey
			for k, v := range p.DetailArgs {
				args[k] = v
			}
		}
		if agent := kvAgentOf(p.Path); agent != "" {
			// An agent's key-value file is no memory ("cannot be read as a memory" said it was),
			// and it is read afresh each time it is used: no reindex after the edit.
			args["Agent"] = agent
			out = append(out, Finding{Code: "kv_file_unusable", Path: p.Path, Args: args,
				Fix: "$EDITOR " + shellQuote(s.abs(p.Path))})
			continue
		}
		fix := "$EDITOR " + shellQuote(s.abs(p.Path)) + " && " + FixReindex
		if p.DetailKey == "detail.bad_slug" {
			// Its name is the fault: no edit of the text reads it.
			fix = s.badSlugFix(ctx, p.Path)
		}
		out = append(out, Finding{Code: "unparsable_file", Path: p.Path, Args: args, Fix: fix})
	}
	if rep.Orphans, err = s.CountOrphans(ctx); err != nil {
		return err
	}
	if n := rep.Orphans.Total(); n > 0 {
		out = append(out, Finding{Code: "orphan_rows", Count: n, Fix: FixVacuum,
			Args: map[string]any{"Vectors": rep.Orphans.Vectors, "Mentions": rep.Orphans.Mentions, "Relations": rep.Orphans.Relations}})
	}
	if rep.StuckRuns, err = s.CountStuckRuns(ctx); err != nil {
		return err
	}
	if n := rep.StuckRuns.Organizer + rep.StuckRuns.Extraction; n > 0 {
		out = append(out, Finding{Code: "stuck_runs", Count: n, Fix: FixVacuum,
			Args: map[string]any{"Organizer": rep.StuckRuns.Organizer, "Extraction": rep.StuckRuns.Extraction}})
	}
	for _, q := range rep.Quota.Scopes {
		if q.Level == "normal" || q.Level == "" {
			continue
		}
		name := string(q.Scope)
		switch {
		case q.Workdir != "":
			name += " " + q.Workdir
		case q.Agent != "":
			name += " " + q.Agent
		}
		fix := fmt.Sprintf("engram list --scope %s", q.Scope)
		if q.Workdir != "" {
			fix += " --workdir " + shellQuote(q.Workdir)
		} else if q.Agent != "" {
			fix += " --agent " + shellQuote(q.Agent)
		}
		out = append(out, Finding{Code: "quota_" + q.Level, Count: q.Used, Fix: fix + " && engram archive SLUG",
			Args: map[string]any{"Scope": name, "ScopeKind": string(q.Scope), "Workdir": q.Workdir, "Agent": q.Agent,
				"Used": q.Used, "Limit": q.Limit}})
	}
	shared, err := s.sharedSlugFindings(ctx)
	if err != nil {
		return err
	}
	out = append(out, shared...)
	out = append(out, s.mergeLeftFindings()...)
	if rep.TempFiles.Count > 0 {
		out = append(out, Finding{Code: "temp_files", Count: rep.TempFiles.Count, Fixed: true, Fix: ""})
	}
	unmoved, err := s.unmovedProjects(ctx)
	if err != nil {
		return err
	}
	rep.Findings = append(out, unmoved...)
	return nil
}

// DoctorHeadline is what doctor says first, the same in the CLI and the app: Code names the
// sentence (cli.doctor_headline.<code>), Args fill it (Memories, Daily for journal days,
// Count), and Message is it in the caller's language (filled by api).
type DoctorHeadline struct {
	Code    string         `json:"code"`
	Args    map[string]any `json:"args"`
	Message string         `json:"message"`
}

// Headline codes: "all_good" only when there is no finding at all; "fixed" when every finding
// was fixed while checking and none was a fault; "fixed_fault" when every finding was fixed
// while checking but one was a fault (a file changed behind the index's back): the report is
// not OK and engram doctor exits 1, so the sentence says a fault was found, not only that
// things were fixed; "attention" (index intact) or "attention_index" when Count findings are
// left to act on. "All good: 495 memories" above "global uses 495 of 500 entries: new writes
// are refused" told the person there was nothing to do.
const (
	HeadlineAllGood        = "all_good"
	HeadlineFixed          = "fixed"
	HeadlineFixedFault     = "fixed_fault"
	HeadlineAttention      = "attention"
	HeadlineAttentionIndex = "attention_index"
)

// SetHeadline fills r.Headline (but its Message) from the findings as they are: it is called
// once every finding is in, those a caller adds included (api adds the git history's).
func (r *DoctorReport) SetHeadline() {
	args := map[string]any{"Memories": r.Memories, "Daily": r.JournalDays}
	open := 0
	for _, f := range r.Findings {
		if !f.Fixed {
			open++
		}
	}
	code := HeadlineAllGood
	switch {
	case open > 0 && r.Integrity == "ok" && r.FTSConsistent:
		code, args["Count"] = HeadlineAttention, open
	case open > 0:
		code, args["Count"] = HeadlineAttentionIndex, open
	case !r.OK:
		code, args["Count"] = HeadlineFixedFault, len(r.Findings)
	case len(r.Findings) > 0:
		code, args["Count"] = HeadlineFixed, len(r.Findings)
	}
	r.Headline = DoctorHeadline{Code: code, Args: args}
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain path characters.
func shellQuote(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '/' || r == '.' || r == '-' || r == '_') {
			out := "'"
			for _, c := range s {
				if c == '\'' {
					out += `'\''`
				} else {
					out += string(c)
				}
			}
			return out + "'"
		}
	}
	return s
}
