package memory

import "testing"

// A header that names another type or slug than the file's place is named by doctor; the
// place decides and the file is left as it is.
func TestDoctorNamesHeadersThatDisagreeWithTheirPlace(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("written-here", "Written", "by the store, so header and place agree"))
	e.put("global/feedback/typed-user.md", []byte("---\nid: 01JB0000000000000000000791\ntitle: T\ntype: user\n---\nbody\n"))
	e.put("global/user/file-name.md", []byte("---\nid: 01JB0000000000000000000792\ntitle: S\nslug: other-name\n---\nbody\n"))
	e.put("global/user/no-type.md", []byte("---\nid: 01JB0000000000000000000793\ntitle: N\n---\nbody\n"))
	rep, err := e.s.Doctor(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]HeaderDisagreement{}
	for _, d := range rep.Checksum.Disagreeing {
		got[d.Path] = d
	}
	if len(got) != 2 {
		t.Fatalf("disagreeing = %+v, want the two hand files", rep.Checksum.Disagreeing)
	}
	if d := got["global/feedback/typed-user.md"]; d.Field != "type" || d.Header != "user" || d.Place != "feedback" {
		t.Fatalf("type: %+v", d)
	}
	if d := got["global/user/file-name.md"]; d.Field != "slug" || d.Header != "other-name" || d.Place != "file-name" {
		t.Fatalf("slug: %+v", d)
	}
	if m := e.get("01JB0000000000000000000791"); m.Type != TypeFeedback {
		t.Fatalf("read as %s, want the place's feedback", m.Type)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Code == "header_disagrees" {
			n++
		}
	}
	if n != 2 || !rep.OK {
		t.Fatalf("findings %d (want 2), ok %v (a disagreement is a note, not a fault)", n, rep.OK)
	}
}
