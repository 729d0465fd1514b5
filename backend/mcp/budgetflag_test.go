package mcp_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `engram mcp --max-tokens` below the smallest budget a result can have is refused with the
// bounds in the person's language, before anything starts (exit 2): 0 or -1, which some read
// as "no limit", and 100 were raised to 500 without a word.
func TestStdioMaxTokensBelowTheFloorIsRefused(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct{ value, lang, words string }{
		{"0", "en", "at least 500"},
		{"-1", "en", "not -1"},
		{"100", "zh-CN", "不小于 500"},
	} {
		code, stdout, stderr := runStdio(t, home, tc.lang, "--max-tokens", tc.value)
		if code != 2 || !strings.Contains(stderr, tc.words) || stdout != "" {
			t.Fatalf("--max-tokens %s: exit %d, stderr %q, stdout %q", tc.value, code, stderr, stdout)
		}
	}
}

// `engram mcp --workdir /no/such/folder` was taken without a word: refused before serving,
// in the home's language, as is a file given for a folder.
func TestStdioWorkdirThatIsNoFolderIsRefused(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, lang, words string }{
		{filepath.Join(home, "no-such-folder"), "en", "is not a folder on this computer"},
		{file, "zh-CN", "不是这台电脑上的文件夹"},
	} {
		code, stdout, stderr := runStdio(t, home, tc.lang, "--workdir", tc.dir)
		if code != 2 || !strings.Contains(stderr, tc.words) || stdout != "" {
			t.Fatalf("--workdir %s: exit %d, stderr %q, stdout %q", tc.dir, code, stderr, stdout)
		}
	}
}

// runStdio runs `engram mcp --agent tester FLAGS…` on home in lang with no client on stdin.
func runStdio(t *testing.T, home, lang string, flags ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp", "--agent", "tester"}, flags...)...)
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG="+lang)
	cmd.Stdin = strings.NewReader("")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if ee, ok := cmd.Run().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, out.String(), errb.String()
}
