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

// An API key pasted into a model's name or an address is refused, in the caller's language,
// naming the field and never the key; the settings keep what they held, for the person and
// the bridge alike.
func TestSettingRefusesAPastedKey(t *testing.T) {
	const key = "sk-proj-Q3vJx8LmN2pR7tY4wZ9aB6cD1eF5gH0iK3nMxY7wT2qL"
	for _, actor := range []string{memory.ActorUser, memory.ActorBridge} {
		a := apiAt(t, t.TempDir(), actor)
		for _, patch := range []string{
			`{"llm":{"provider":"openai","model":"` + key + `"}}`,
			`{"llm":{"base_url":"https://proxy.test/v1/` + key + `"}}`,
			`{"embeddings":{"provider":"openai","model":"` + key + `"}}`,
		} {
			_, err := a.Call("settings.update", json.RawMessage(patch))
			var ae *Error
			if !errors.As(err, &ae) || ae.Code != CodeSettingsSecret || ae.Message == "" || strings.Contains(ae.Message, key[8:24]) {
				t.Fatalf("%s %s: %v", actor, patch, err)
			}
			st, err := a.Call("settings.get", nil)
			if b, _ := json.Marshal(st); err != nil || strings.Contains(string(b), key[8:24]) {
				t.Fatalf("%s %s: the settings hold the key: %s %v", actor, patch, b, err)
			}
		}
		if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
			t.Fatal(err)
		}
		_, err := a.Call("settings.update", json.RawMessage(`{"llm":{"model":"`+key+`"}}`))
		var ae *Error
		if !errors.As(err, &ae) || !strings.Contains(ae.Message, "密钥") {
			t.Fatalf("want the refusal in Chinese: %v", err)
		}
		// An ordinary model name passes.
		if _, err := a.Call("settings.update", json.RawMessage(`{"llm":{"provider":"openai","model":"gpt-4o-mini-2024-07-18"}}`)); err != nil {
			t.Fatalf("an ordinary model name: %v", err)
		}
	}
}
