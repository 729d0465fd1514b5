package cli

import (
	"fmt"
	"io"
	"strings"

	"engram/backend/api"
)

// extractParams reads one conversation (the extraction.request shape) from FILE or stdin.
// The CLI always waits for the run: the process ends with it.
func extractParams(r *runner, args []string) (api.ExtractionRequestParams, error) {
	pos, err := r.flags("extract", args, nil)
	if err != nil {
		return api.ExtractionRequestParams{}, err
	}
	path := "-"
	if len(pos) > 0 {
		path = pos[0]
	}
	var data []byte
	if path == "-" && r.env.Stdin != nil {
		text, err := r.stdinText(noStdinLimit)
		if err != nil {
			return api.ExtractionRequestParams{}, err
		}
		data = []byte(text)
	} else if data, err = r.env.ReadFile(path); err != nil {
		return api.ExtractionRequestParams{}, fmt.Errorf("%s", r.t("cli.read_file_failed", r.reason(map[string]any{"Path": path}, err)))
	}
	var p api.ExtractionRequestParams
	bad := func(key string, args map[string]any) error {
		return fmt.Errorf("%s", r.t("cli.extract_bad_file", map[string]any{"Path": path, "Detail": r.t(key, args)}))
	}
	if key, args := decodeObject(data, &p, true); key != "" {
		return p, bad(key, args)
	}
	// The fields without which the run is refused, in the file's order: the api would name
	// the agent as "“” is not a valid agent name" before it looked at the session.
	for _, f := range []struct{ name, value string }{{"session_id", p.SessionID}, {"agent", p.Agent}} {
		if strings.TrimSpace(f.value) == "" {
			return p, bad("cli.extract_missing", map[string]any{"Field": f.name})
		}
	}
	p.Wait = true
	return p, nil
}

// extractOutput is what `engram extract --json` prints, exactly.
type extractOutput struct {
	Status     string           `json:"status"`
	SkipReason string           `json:"skip_reason"`
	Applied    []extractApplied `json:"applied"`
	Rejected   []extractRefused `json:"rejected"`
	// PlannedOffline: the configured model failed (ModelError is its code) and the offline
	// extractor planned the turn; Reason says both in words. A script read "done" and no more.
	PlannedOffline bool   `json:"planned_offline,omitempty"`
	ModelError     string `json:"model_error,omitempty"`
	Reason         string `json:"reason,omitempty"`
}

type extractApplied struct {
	// Action is what the item did (write, update, delete, append_daily): a delete listed beside
	// the writes read as one more memory.
	Action     string         `json:"action"`
	ID         string         `json:"id"`
	Slug       string         `json:"slug"`
	Scope      api.Scope      `json:"scope"`
	Type       api.Type       `json:"type"`
	Title      string         `json:"title"`
	Confidence api.Confidence `json:"confidence"`
}

type extractRefused struct {
	Slug    string `json:"slug"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// printExtract prints the run; a failed run exits 1 after saying why.
func printExtract(r *runner, d api.ExtractionRun) error {
	out := extractOutput{Status: d.Status, SkipReason: d.Reason, Applied: []extractApplied{}, Rejected: []extractRefused{},
		PlannedOffline: d.Report.PlannedOffline, ModelError: d.Report.ErrorCode, Reason: d.ReasonText}
	for _, a := range d.Report.Applied {
		out.Applied = append(out.Applied, extractApplied{Action: a.Action, ID: a.ID, Slug: a.Slug, Scope: a.Scope, Type: a.Type, Title: a.Title, Confidence: a.Confidence})
	}
	for _, x := range d.Report.Rejected {
		out.Rejected = append(out.Rejected, extractRefused{Slug: x.Slug, Code: x.Code, Message: x.Message})
	}
	r.out(out, func(w io.Writer) {
		line := r.t("cli.extract_status", map[string]any{"Status": d.StatusText, "Applied": len(out.Applied), "Rejected": len(out.Rejected)})
		if d.ReasonText != "" {
			line += " — " + d.ReasonText
		}
		fmt.Fprintln(w, line)
		for _, a := range d.Report.Applied {
			fmt.Fprintln(w, r.appliedLine(a))
		}
		for _, x := range out.Rejected {
			fmt.Fprintln(w, r.t("cli.extract_rejected", map[string]any{"Slug": x.Slug, "Code": x.Code, "Message": x.Message}))
		}
	})
	if d.Status == api.ExtractionFailed {
		return errSilent
	}
	return nil
}
