package bridge

import (
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"regexp"
	"strings"
)

// csp allows the page to connect to the bridge it came from and nowhere else: host is the
// request's Host, already checked to be one of this bridge's names. Scripts come from the
// bridge itself, plus the inline scripts of index.html named by their hashes (scripts).
func csp(host string, scripts []string) string {
	host = strings.ToLower(host)
	script := ""
	if len(scripts) > 0 {
		script = "; script-src 'self' " + strings.Join(scripts, " ")
	}
	return "default-src 'self'" + script + "; connect-src 'self' ws://" + host + " http://" + host +
		"; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
}

// reInlineScript finds a script element without a src attribute and its text.
var (
	reInlineScript = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)
	reSrcAttr      = regexp.MustCompile(`(?i)(?:^|\s)src\s*=`)
)

// inlineScripts lists the CSP hash sources ('sha256-…') of the inline scripts in ui's
// index.html: the page's start-up loader (frontend/src/shell/loader.js) runs inline, since a
// script of its own would cost the desktop window's first frame a request. Only these exact
// texts are allowed; none when ui has no index.html.
func inlineScripts(ui fs.FS) []string {
	if ui == nil {
		return nil
	}
	page, err := fs.ReadFile(ui, "index.html")
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range reInlineScript.FindAllSubmatch(page, -1) {
		if reSrcAttr.Match(m[1]) || len(m[2]) == 0 {
			continue
		}
		sum := sha256.Sum256(m[2])
		out = append(out, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return out
}
