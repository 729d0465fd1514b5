package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"engram/backend/api"
)

// projectParams reads `engram project [DIR] [--trust|--untrust]`: the folder to resolve, the
// current one when none is named (a relative one is taken from the current folder), and the
// person's word on its id file or git remote.
func projectParams(r *runner, args []string) (api.ProjectParams, error) {
	var trust, untrust bool
	pos, err := r.flags("project", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&trust, "trust", false, "let the folder share the project its .engram-project or git remote names")
		fs.BoolVar(&untrust, "untrust", false, "keep the folder apart from the project its .engram-project or git remote names")
	})
	if err != nil {
		return api.ProjectParams{}, err
	}
	choice := ""
	switch {
	case trust && untrust:
		choice = "trust+untrust" // refused by the api, translated
	case trust:
		choice = api.ProjectTrust
	case untrust:
		choice = api.ProjectUntrust
	}
	dir := "."
	if len(pos) > 0 {
		dir = pos[0]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return api.ProjectParams{}, err
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return api.ProjectParams{}, usageError(r.t("cli.not_a_folder", map[string]any{"Path": abs}))
	}
	return api.ProjectParams{Workdir: abs, Trust: choice}, nil
}

// printProject shows what identifies the project, its key and what the store holds for it.
func printProject(r *runner, p api.ProjectInfo) error {
	r.out(p, func(w io.Writer) {
		source := map[string]string{api.ProjectByID: "cli.project_source_id", api.ProjectByRemote: "cli.project_source_remote",
			api.ProjectByPath: "cli.project_source_path"}[p.Kind]
		if p.Kind == api.ProjectByPath && p.UntrustedID != "" {
			source = "cli.project_source_untrusted"
		}
		fmt.Fprintln(w, r.t("cli.project_workdir", map[string]any{"Workdir": p.Workdir}))
		fmt.Fprintln(w, r.t("cli.project_identity", map[string]any{"Identity": p.Identity, "Source": r.t(source, nil)}))
		fmt.Fprintln(w, r.t("cli.project_key", map[string]any{"Key": p.Key, "Memories": p.Memories}))
		if p.RecordedWorkdir != "" && p.RecordedWorkdir != p.Workdir {
			fmt.Fprintln(w, r.t("cli.project_recorded", map[string]any{"Workdir": p.RecordedWorkdir}))
		}
		if p.PathKeyMemories > 0 && p.PathKey != p.Key {
			fmt.Fprintln(w, r.t("cli.project_path_key", map[string]any{"Count": p.PathKeyMemories, "PathKey": p.PathKey}))
		}
		// An id another folder holds: say which folder, and the two ways out.
		if p.UntrustedID != "" {
			fmt.Fprintln(w, r.t("cli.project_untrusted", map[string]any{"ID": p.UntrustedID, "Workdir": p.Workdir}))
			for _, h := range p.IDHolders {
				fmt.Fprintln(w, r.t("cli.project_holder", map[string]any{"Holder": h}))
			}
		}
		if p.UntrustedID == "" && p.Problem != "" {
			fmt.Fprintln(w, r.t("cli.project_passed_over", map[string]any{"Problem": p.Problem}))
		}
	})
	return nil
}
