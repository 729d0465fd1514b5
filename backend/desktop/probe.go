package desktop

import (
	"os"
	"path/filepath"
)

// ProbeEvent carries a probe result from the page back to Go.
const ProbeEvent = "engram:probe"

// Probe is the desktop smoke test's window into the page (WebKitGTK under Xvfb has no
// automation protocol): when Options.ProbeDir is set, a script written to ProbeDir/cmd.js is
// run in the page and what it returns (awaited, as a string) is written to ProbeDir/out.
// Only tests set ENGRAM_SMOKE_PROBE; the script comes from the person running the app.
type probe struct{ dir string }

// next takes the pending script, if any (removed so it runs once).
func (p probe) next() (string, bool) {
	cmd := filepath.Join(p.dir, "cmd.js")
	b, err := os.ReadFile(cmd)
	if err != nil {
		return "", false
	}
	_ = os.Remove(cmd)
	return string(b), true
}

// wrap turns a script body into page code that reports its result as a ProbeEvent.
func (p probe) wrap(body string) string {
	return `Promise.resolve().then(async () => {` + body + "\n" + `}).then(
  (v) => window.runtime.EventsEmit('` + ProbeEvent + `', String(v)),
  (e) => window.runtime.EventsEmit('` + ProbeEvent + `', 'error: ' + e))`
}

// answer writes a result atomically, so the reader never sees half of it.
func (p probe) answer(v string) {
	tmp := filepath.Join(p.dir, ".out")
	if os.WriteFile(tmp, []byte(v), 0o600) == nil {
		_ = os.Rename(tmp, filepath.Join(p.dir, "out"))
	}
}
