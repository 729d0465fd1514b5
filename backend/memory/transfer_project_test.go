package memory

import (
	"bytes"
	"strings"
	"testing"
)

// A project memory whose folder its home does not know (synced from another machine, placed
// by hand: it lies under projects/<key>/ with no workdir) went out in the export with neither
// workdir nor key, and the export could not be imported into a fresh home: "the project
// folder “” must be an absolute path". The line now carries the key and comes back under it,
// with its id, text and review state; a line's workdir and the import's --workdir still come
// first.
func TestExportedProjectMemoryWithoutFolderComesBack(t *testing.T) {
	const key = "0123456789abcdef"
	const id = "01JB0000000000000000000791"
	rel := "projects/" + key + "/project/deploy-day.md"
	a := newEnv(t)
	a.put(rel, []byte("---\nid: "+id+"\nslug: deploy-day\ntitle: Deploy day\nscope: project\ntype: project\n"+
		"confidence: medium\nsource_quote: we always deploy on fridays and never on mondays\nreviewed: true\nsource:\n  kind: user\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-02T00:00:00Z\n---\n\nWe deploy on Fridays.\n"))
	a.reconcile()
	var exp bytes.Buffer
	if _, err := a.s.Export(a.ctx, &exp, Filter{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(exp.String(), `"project":"`+key+`"`) {
		t.Fatalf("the export does not say the project: %s", exp.String())
	}
	b := newEnv(t)
	p, rep := b.previewThenImport(exp.String(), ImportOptions{KeepReview: true})
	if p.New != 1 || rep.Imported != 1 || len(rep.Errors) != 0 {
		t.Fatalf("preview %+v, import %+v", p, rep)
	}
	m := b.get(id)
	if m.Path != rel || m.Workdir != "" || !m.Reviewed || m.Body != "We deploy on Fridays." || m.Created.Year() != 2026 {
		t.Fatalf("imported %+v", m)
	}
	var again bytes.Buffer
	if _, err := b.s.Export(b.ctx, &again, Filter{}); err != nil || again.String() != exp.String() {
		t.Fatalf("the second export differs (%v):\n%s\n%s", err, exp.String(), again.String())
	}
	// A folder given to the import places the line there, as before.
	c := newEnv(t)
	wd := t.TempDir()
	_, rep = c.previewThenImport(exp.String(), ImportOptions{Workdir: wd})
	if rep.Imported != 1 {
		t.Fatalf("import with --workdir %+v", rep)
	}
	if m := c.get(id); m.ScopeKey() == key || m.Workdir == "" {
		t.Fatalf("--workdir was not used: %+v", m)
	}
}
