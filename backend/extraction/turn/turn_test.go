package turn

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestMessagesInOtherClientsShapes: a message whose content is a list of parts (OpenAI's and
// Anthropic's chat formats, OpenAI's Responses input) or Gemini's "parts" was refused whole
// ("messages.content must be text"), so an agent that forwards its own messages lost the turn.
// Text parts are the message's words; images, thinking and tool calls are left out; a message
// that is a tool's output (tool_result, function_call_output, functionResponse) is no one's
// words and is left out of the turn as a tool message is.
func TestMessagesInOtherClientsShapes(t *testing.T) {
	cases := []struct {
		name, in string
		want     []Message
	}{
		{"text", `[{"role":"user","content":"I use zsh."}]`, []Message{{Role: "user", Content: "I use zsh."}}},
		{"null content", `[{"role":"assistant","content":null}]`, []Message{{Role: "assistant"}}},
		{"openai parts", `[{"role":"user","content":[{"type":"text","text":"Remember I use zsh."},
			{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},{"type":"text","text":"And fish at work."}]}]`,
			[]Message{{Role: "user", Content: "Remember I use zsh.\n\nAnd fish at work."}}},
		{"anthropic parts", `[{"role":"assistant","content":[{"type":"thinking","thinking":"secret plan","signature":"x"},
			{"type":"text","text":"Noted."},{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/a"}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"My name is Bob"}]},
			{"role":"user","content":[{"type":"text","text":"我住在上海。"}]}]`,
			[]Message{{Role: "assistant", Content: "Noted."}, {Role: "user", Content: "我住在上海。"}}},
		{"responses input", `[{"role":"user","content":[{"type":"input_text","text":"I prefer tabs."}]},
			{"role":"assistant","content":[{"type":"output_text","text":"OK."}]}]`,
			[]Message{{Role: "user", Content: "I prefer tabs."}, {Role: "assistant", Content: "OK."}}},
		{"gemini parts", `[{"role":"user","parts":[{"text":"I live in Lisbon."}]},{"role":"model","parts":[{"text":"Nice."}]},
			{"role":"user","parts":[{"functionResponse":{"name":"ls","response":{"out":"x"}}}]}]`,
			[]Message{{Role: "user", Content: "I live in Lisbon."}, {Role: "assistant", Content: "Nice."}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var msgs []Message
			if err := json.Unmarshal([]byte(c.in), &msgs); err != nil {
				t.Fatal(err)
			}
			if got := NormalizeRoles(msgs); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
	for _, bad := range []string{`[{"role":"user","content":5}]`, `[{"role":"user","content":{"text":"x"}}]`,
		`[{"role":"user","content":[5]}]`} {
		var msgs []Message
		err := json.Unmarshal([]byte(bad), &msgs)
		var typ *json.UnmarshalTypeError
		if !errors.As(err, &typ) || typ.Field != "content" && typ.Field != "messages.content" {
			t.Errorf("%s: %v, want a type error naming content", bad, err)
		}
	}
}
