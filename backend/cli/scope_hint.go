package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"engram/backend/api"
)

// maxHintPages bounds the listing scopeHint reads (1,000 memories a page): it runs only after
// a slug was not found, and a very large home is told less rather than made to wait.
const maxHintPages = 20

// scopeHint follows a not_found for a slug looked up as global (no --scope, --agent or
// --workdir: ref) with where memories of that slug are, and the flag that names each. `engram
// list` shows agent and project memories, but `engram show agent-note` answered only "No
// memory “agent-note” was found."
func (r *runner) scopeHint(err error) {
	var ae *api.Error
	if r.globalSlug == "" || r.api == nil || r.json || !errors.As(err, &ae) || ae.Code != "not_found" {
		return
	}
	var found []api.Summary
	for _, archived := range []bool{false, true} {
		for page := 0; page < maxHintPages; page++ {
			res, err := r.api.Memory.List(api.ListParams{Archived: archived, Limit: 1000, Offset: page * 1000})
			if err != nil {
				return
			}
			for _, m := range res.Items {
				if m.Slug == r.globalSlug && m.Scope != api.ScopeGlobal {
					found = append(found, m)
				}
			}
			if (page+1)*1000 >= res.Total {
				break
			}
		}
		if len(found) > 0 {
			break // an archived one is named only when no live one is
		}
	}
	if len(found) == 0 {
		return
	}
	fmt.Fprintln(r.env.Stderr, r.t("cli.not_found_elsewhere", map[string]any{"Slug": r.globalSlug}))
	for _, m := range found {
		where, flag := r.t("cli.owner_agent", map[string]any{"Agent": m.Agent}), "--agent "+shellWord(m.Agent)
		if m.Scope == api.ScopeProject {
			where = r.t("cli.owner_project", map[string]any{"Name": owner(m.Scope, m.Workdir, m.Agent), "Workdir": m.Workdir})
			flag = "--workdir " + shellWord(m.Workdir)
		}
		fmt.Fprintln(r.env.Stderr, r.t("cli.not_found_try", map[string]any{"Where": where,
			"Command": "engram " + r.verb + " " + shellWord(r.globalSlug) + " " + flag}))
	}
}

// owner names whose a memory is: an agent's name, a project's folder name (the full path is
// in engram show and in scopeHint's line), "-" for a global one.
func owner(scope api.Scope, workdir, agent string) string {
	switch scope {
	case api.ScopeAgent:
		return agent
	case api.ScopeProject:
		return filepath.Base(workdir)
	}
	return "-"
}

// shellWord quotes s for a shell when it holds anything but plain path characters.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=") == "" {
		return s
	}
	return strconv.Quote(s)
}
