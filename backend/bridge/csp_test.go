package bridge

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
	"testing/fstest"
)

func TestInlineScriptsAreAllowedByTheirHashOnly(t *testing.T) {
	loader := "\n;(function () { window.x = 1 })()\n"
	sum := sha256.Sum256([]byte(loader))
	want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	tests := []struct {
		name string
		page string
		want []string
	}{
		{"the loader inline", `<head><script type="module" src="./a.js"></script></head><body><div id="app"></div><script data-entry="./a.js">` + loader + `</script></body>`, []string{want}},
		{"scripts with a source only", `<script src="./a.js"></script><script type="module" crossorigin src="./b.js"></script>`, nil},
		{"an empty inline script", `<script></script>`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := inlineScripts(fstest.MapFS{"index.html": {Data: []byte(tt.page)}})
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			policy := csp("127.0.0.1:1", got)
			if len(tt.want) == 0 && strings.Contains(policy, "script-src") {
				t.Fatalf("a script-src without inline scripts: %s", policy)
			}
			if len(tt.want) > 0 && !strings.Contains(policy, "; script-src 'self' "+want+";") {
				t.Fatalf("the loader's hash is not allowed: %s", policy)
			}
		})
	}
	if got := inlineScripts(fstest.MapFS{}); got != nil {
		t.Fatalf("no index.html: %v", got)
	}
	if got := inlineScripts(nil); got != nil {
		t.Fatalf("no UI: %v", got)
	}
}
