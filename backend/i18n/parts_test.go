package i18n

import (
	"os"
	"testing"
)

// The catalogs the app embeds (locales/<lang>.toml) are built by locales/merge.sh from the Go
// part and the UI part; a key added to a part but not merged would be missing at run time while
// every other test reads the part's text. This fails until `bash locales/merge.sh` is run.
func TestCatalogsAreMergedFromTheirParts(t *testing.T) {
	for _, lang := range []string{"en", "zh-CN"} {
		goPart, err := os.ReadFile("../../locales/go." + lang + ".part")
		if err != nil {
			t.Fatal(err)
		}
		uiPart, err := os.ReadFile("../../frontend/locale-keys-needed." + lang + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		// merge.sh: the Go part, a blank line, a marker, the UI part.
		want := string(goPart) + "\n" + "# ---- UI ----\n" + string(uiPart)
		got, err := os.ReadFile("../../locales/" + lang + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("locales/%s.toml is not the merge of its parts: run `bash locales/merge.sh`", lang)
		}
	}
}
