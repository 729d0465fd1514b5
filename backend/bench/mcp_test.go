//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMCPBenchOverRealTransports: the MCP benchmark drives `engram mcp` (the built binary) and
// a real bridge with the SDK's client and reports every figure.
func TestMCPBenchOverRealTransports(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "engram-cli")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	f, err := RunMCP(context.Background(), 200, bin, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Visible != 200 || f.StdioSearchP50Ms <= 0 || f.HTTPSearchP50Ms <= 0 || f.InProcessP50Ms <= 0 || f.StartToReadyP50Ms <= 0 {
		t.Fatalf("figures %+v", f)
	}
	var out bytes.Buffer
	PrintMCP(&out, f, true)
	var back map[string]any
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back["memories"] != float64(200) {
		t.Fatalf("mcp --json: %v %s", err, out.String())
	}
}
