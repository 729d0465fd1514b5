package api

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"engram/backend/memory"
)

// A refused setting says what the field expects, with the value, in the caller's language:
// it read "Invalid value “not a url” for setting llm.base_url".
func TestRefusedSettingSaysWhatItExpects(t *testing.T) {
	a := apiAt(t, t.TempDir(), memory.ActorUser)
	for _, tc := range []struct{ patch, want string }{
		{`{"llm":{"base_url":"not a url"}}`, "http://"},
		{`{"theme":"neon"}`, "light, dark or system"},
		{`{"sync_minutes":99999}`, "1440"},
		{`{"embeddings":{"provider":"openai","model":""}}`, "model name"},
	} {
		_, err := a.Call("settings.update", json.RawMessage(tc.patch))
		var ae *Error
		if !errors.As(err, &ae) || ae.Code != "invalid_setting" {
			t.Fatalf("%s: %v", tc.patch, err)
		}
		if !strings.Contains(ae.Message, tc.want) || strings.Contains(ae.Message, "llm.base_url") || strings.Contains(ae.Message, "sync_minutes") {
			t.Fatalf("%s: message %q", tc.patch, ae.Message)
		}
	}
}
