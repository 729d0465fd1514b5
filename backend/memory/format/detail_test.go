package format

import "testing"

// Every reason ParseFile gives is read back to its catalog key from the detail a problem
// stores ("memory: " before it, as the store words it).
func TestDetailKeyReadsEveryReason(t *testing.T) {
	for _, tc := range []struct {
		data string
		key  string
		arg  string
	}{
		{"---\nid: x\n---\nbad \xff\n", "detail.not_utf8", ""},
		{"plain", "detail.no_header", ""},
		{"---\nid: x\ntitle: open\n", "detail.unterminated_header", ""},
		{"---\nid: [unclosed\n---\nb\n", "detail.bad_yaml_line", "Reason"},
		{"---\ntitle: t\n---\nb\n", "detail.no_id", ""},
		{"---\nid: x\nconfidence: sure\n---\nb\n", "detail.bad_confidence", "Value"},
	} {
		_, _, err := ParseFile([]byte(tc.data))
		if err == nil {
			t.Fatalf("%q parsed", tc.data)
		}
		key, args := DetailKey("memory: " + err.Error())
		if key != tc.key {
			t.Errorf("%q: %q gives key %q, want %q", tc.data, err.Error(), key, tc.key)
		}
		if tc.arg != "" && args[tc.arg] == "" {
			t.Errorf("%q: no %s in %v", tc.data, tc.arg, args)
		}
	}
	if key, args := DetailKey(`memory: unknown confidence "sure"`); key != "detail.bad_confidence" || args["Value"] != "sure" {
		t.Errorf("confidence value: %q %v", key, args)
	}
	if key, _ := DetailKey("memory: something else entirely"); key != "" {
		t.Errorf("an unknown detail got %q", key)
	}
	if key, _ := DetailKey(NotLocation); key != "detail.not_location" {
		t.Errorf("not a location: %q", key)
	}
}
