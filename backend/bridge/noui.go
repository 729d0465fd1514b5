package bridge

import (
	"html/template"
	"io/fs"
	"net/http"
)

// hasUI reports whether ui holds a built web UI: a binary built before `make frontend` embeds
// an empty frontend/dist (only its .gitkeep), and so does a test bridge given nil.
func hasUI(ui fs.FS) bool {
	if ui == nil {
		return false
	}
	info, err := fs.Stat(ui, "index.html")
	return err == nil && !info.IsDir()
}

var noUIPage = template.Must(template.New("noui").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Engram</title>
<style>
body{font:15px/1.6 -apple-system,"Segoe UI",Ubuntu,"Noto Sans","Noto Sans CJK SC",sans-serif;margin:0;padding:48px 20px;background:#f8f9fb;color:#1c2230}
main{max-width:620px;margin:0 auto;background:#fff;border:1px solid #e4e7ec;border-radius:12px;padding:28px 30px}
h1{font-size:20px;margin:0 0 12px}pre{background:#f2f4f7;border-radius:8px;padding:12px 14px;overflow:auto}
@media (prefers-color-scheme:dark){body{background:#171a21;color:#e5e8ee}main{background:#1e222b;border-color:#2a303b}pre{background:#232833}}
</style></head>
<body><main data-test="noui">
<h1>{{.Title}}</h1>
<p>{{.Body}}</p>
<p>{{.How}}</p>
<pre><code>make frontend
make build</code></pre>
<p>{{.After}}</p>
</main></body></html>
`))

// serveNoUI answers a page request on a bridge without a built web UI with a translated page
// that says how to build it (instead of a bare 404 that reads like a broken server). It is
// still a 404: there is no UI at that address.
func (s *Server) serveNoUI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusNotFound)
	_ = noUIPage.Execute(w, map[string]string{
		"Lang":  s.api.Language(),
		"Title": s.api.Text("shell.noui_title", nil),
		"Body":  s.api.Text("shell.noui_body", nil),
		"How":   s.api.Text("shell.noui_how", nil),
		"After": s.api.Text("shell.noui_after", nil),
	})
}
