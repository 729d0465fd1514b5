package cli

import (
	"strings"
	"testing"

	"engram/backend/api"
)

// A person takes an applied run back from the command line: --dry-run says what comes back
// and changes nothing, the undo brings the merged-away memory back and puts the keeper back
// without the alias and supersedes the run added, and a second undo is refused in words.
// Before, only `engram restore` of each memory existed, and the keeper kept what the run added.
func TestOrganizeUndo(t *testing.T) {
	h := newHome(t)
	writeDuplicates(h)
	d := organizeJSON[api.OrganizerRunDetail](h, "organize")
	h.ok("organize", "apply", d.ID, "--all")
	if out := h.ok("list"); strings.Count(out, "bazel") != 1 {
		t.Fatalf("the merge was not applied:\n%s", out)
	}
	if out := h.ok("organize", "run", d.ID); !strings.Contains(out, "engram organize undo "+d.ID) {
		t.Errorf("the report of an applied run does not say how to undo it:\n%s", out)
	}
	merge := d.Report.Decisions[0]
	keeper, gone := merge.Into, merge.Targets[0]
	pre := h.ok("organize", "undo", d.ID, "--dry-run")
	for _, want := range []string{merge.ID, "back from the trash: “" + gone.Title + "” (" + gone.Slug + ")",
		"put back as before the run: “" + keeper.Title + "” (" + keeper.Slug + ")", "Nothing was changed"} {
		if !strings.Contains(pre, want) {
			t.Errorf("dry run: no %q in\n%s", want, pre)
		}
	}
	if out := h.ok("list"); strings.Contains(out, gone.Slug+" ") {
		t.Fatalf("the dry run changed the store:\n%s", out)
	}
	res := organizeJSON[api.OrganizerUndoResult](h, "organize", "undo", d.ID)
	if res.Undone != 1 || res.Restored != 1 || res.Reverted != 1 || res.Conflicts != 0 {
		t.Fatalf("undo: %+v", res)
	}
	if out := h.ok("show", gone.Slug); !strings.Contains(out, gone.Title) {
		t.Fatalf("%s did not come back:\n%s", gone.Slug, out)
	}
	m := organizeJSON[api.Memory](h, "show", keeper.Slug)
	if len(m.Aliases) != 0 || len(m.Supersedes) != 0 {
		t.Fatalf("the keeper kept what the run added: aliases %v, supersedes %v", m.Aliases, m.Supersedes)
	}
	code, _, errs := h.run("", "organize", "undo", d.ID)
	if code != 1 || !strings.Contains(errs, "already undone") || strings.Contains(errs, "{{") {
		t.Fatalf("second undo: exit %d, %q", code, errs)
	}
	if out := h.ok("organize", "run", d.ID); !strings.Contains(out, "Undone on") || strings.Contains(out, "organize undo "+d.ID) {
		t.Errorf("the report does not say the run was undone:\n%s", out)
	}
}
