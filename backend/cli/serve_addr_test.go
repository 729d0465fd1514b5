package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// `engram serve --addr` with an address that is no host:port printed "出错了：bridge: invalid
// address "nonsense": address nonsense: missing port in address" — an internal error in the
// resolver's English. It now says what an address is, in the person's language.
func TestServeInvalidAddressIsTranslated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs engram serve")
	}
	for _, tc := range []struct{ lang, addr, want string }{
		{"zh-CN", "nonsense", "不是可以监听的地址"},
		{"zh-CN", "127.0.0.1:99999", "端口为 0 到 65535"},
		{"en", "[::1]:4799x", "is not an address to listen on"},
	} {
		cmd := exec.Command(engramCLI(t), "serve", "--addr", tc.addr)
		cmd.Env = append(os.Environ(), "ENGRAM_HOME="+t.TempDir(), "ENGRAM_LANG="+tc.lang)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("%s: %v\n%s", tc.addr, err, stderr.String())
		}
		out := stderr.String()
		if !strings.Contains(out, tc.want) || !strings.Contains(out, tc.addr) || strings.Contains(out, "bridge:") {
			t.Fatalf("%s (%s): %s", tc.addr, tc.lang, out)
		}
	}
}
