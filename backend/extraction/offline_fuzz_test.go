package extraction

import (
	"context"
	"strings"
	"testing"
)

// FuzzOffline: whatever the person and the assistant write, the offline planner never
// panics, proposes at most 8 items, and every quote is a verbatim piece of a user message
// (checkPlanInvariants).
func FuzzOffline(f *testing.F) {
	seeds := []string{
		"", "ok", "I'm Marco, backend lead at a fintech in Milan.", "Remember that the port is 5433.",
		"我叫王磊，在杭州做后端开发。", "记住：", "remember", "I'm", "我叫", "以后", "“未闭合的引号",
		"\"unclosed quote I'm Bob", "`code I love Go`", "I love ```\nI'm Alice\n```",
		"We kept failing; what fixed it was X, and now Y.", "之前总是超时，后来换成 A，现在好了。",
		strings.Repeat("I prefer Go. ", 300), strings.Repeat("我喜欢茶。", 500), "\xff\xfe I'm \x00 Bob",
		"Remember for this project: deploy with Fly.io", "这个项目记住：发布前跑 lint。",
		"I’m Zoë, I live in Zürich.", "remember 000\x84", "记住\xe4\xb8", "İ'm İstanbul", "I'm ǅemal", "…", "。。。！！！？？？",
	}
	for _, s := range seeds {
		f.Add(s, "I'm the assistant. I love Rust.", "/w/p", false)
	}
	f.Fuzz(func(t *testing.T, msg, assistant, workdir string, pinned bool) {
		in := Input{
			Request: Request{SessionID: "fz", Agent: "a", Workdir: workdir, Messages: []Message{
				{Role: "user", Content: assistant + msg},
				{Role: "assistant", Content: assistant},
				{Role: "user", Content: msg},
			}},
			Turns:         []Message{{Role: "user", Content: msg}},
			ProjectPinned: pinned,
		}
		out, err := NewOffline().Plan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkPlanInvariants(t, in, out)
		// The evidence is the newest user message only.
		for _, it := range out.Plan.Items {
			if !strings.Contains(clip(msg, offlineMaxMessageBytes), it.SourceQuote) {
				t.Fatalf("quote %q is not from the newest message", it.SourceQuote)
			}
		}
	})
}
