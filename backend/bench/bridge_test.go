//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// TestBridgeBenchOverWiredServices: the bridge benchmark runs over the services wire.Open
// builds (the app's own constructor) and reports every figure, through the bench verb.
func TestBridgeBenchOverWiredServices(t *testing.T) {
	f, err := RunBridge(context.Background(), 200, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Memories != 200 || f.SearchRTTP50Ms <= 0 || f.InfoRTTP50Ms <= 0 || f.PipelinedMsgSec <= 0 {
		t.Fatalf("figures %+v", f)
	}
	var out bytes.Buffer
	if err := Run(context.Background(), "nope", nil, "", true, &out, nil); err == nil {
		t.Fatal("an unknown benchmark ran")
	}
	PrintBridge(&out, f, true)
	var back map[string]any
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back["memories"] != float64(200) {
		t.Fatalf("bridge --json: %v %s", err, out.String())
	}
}
