package cli

import (
	"strings"
	"testing"
)

// `engram extract` names what is wrong with its file in words, in the home's language: the
// field as the file spells it and what it must hold, the empty session_id before the agent
// (QA: "“” is not a valid agent name" for a file without an agent, and "Go struct field
// Message.Request.messages.content" / "Go value of type api.ExtractionRequestParams").
func TestExtractFileErrorsNameTheField(t *testing.T) {
	h := newHome(t)
	cases := []struct{ in, en, zh string }{
		{`{"session_id":"","messages":[]}`, "session_id is missing", "缺少 session_id"},
		{`{"session_id":"s","messages":[]}`, "agent is missing", "缺少 agent"},
		{`{"session_id":"s","agent":"a","messages":[{"role":"user","content":5}]}`, "messages.content must be text", "messages.content 必须是文本"},
		{`{"session_id":"s","agent":"a","messages":"hello"}`, "messages must be a list", "messages 必须是列表"},
		{`{"session_id":"s","agent":"a","messages":[],"workspace_mutations":{}}`, "workspace_mutations must be a list", "workspace_mutations 必须是列表"},
		{`["a"]`, "it is not a JSON object", "输入不是 JSON 对象"},
		{`{"session_id":"s",`, "it is not JSON", "不是 JSON"},
		{`{"session_id":"s","agent":"a","messages":[],"reviewed":true}`, "“reviewed” is not a field of a conversation", "“reviewed”不是对话中的字段"},
		{`{"session_id":"s","agent":"a","messages":[]} {}`, "it holds more than one JSON value", "其中有不止一个 JSON 值"},
	}
	for _, lang := range []string{"en", "zh-CN"} {
		setLanguage(t, h, lang)
		for _, tc := range cases {
			code, _, errs := h.run(tc.in, "extract")
			want := tc.en
			if lang == "zh-CN" {
				want = tc.zh
			}
			if code != 1 || !strings.Contains(errs, want) {
				t.Errorf("%s %s: exit %d, %q; want %q", lang, tc.in, code, errs, want)
			}
			for _, internal := range []string{"Go struct", "Go value", "api.", "json:", "valid agent name"} {
				if strings.Contains(errs, internal) {
					t.Errorf("%s %s: %q holds %q", lang, tc.in, errs, internal)
				}
			}
		}
	}
}

// A title of two lines was refused as "A title is required (one line)", which reads as if no
// title had been sent (an agent then retried without one); it says the lines now.
func TestTitleOfSeveralLinesSaysSo(t *testing.T) {
	h := newHome(t)
	for _, c := range []struct{ lang, missing, lines string }{
		{"en", "A title is required (one line).", "A title is one line; this one has 3"},
		{"zh-CN", "需要一个标题（单行）。", "这个标题有 3 行"},
	} {
		setLanguage(t, h, c.lang)
		if code, _, errs := h.run("", "write", "--scope", "global", "--type", "user", "--title", "a\nb\r\nc", "--body", "x"); code != 1 || !strings.Contains(errs, c.lines) {
			t.Errorf("%s three lines: exit %d, %q", c.lang, code, errs)
		}
		if code, _, errs := h.run("", "write", "--scope", "global", "--type", "user", "--title", " ", "--body", "x"); code != 1 || !strings.Contains(errs, c.missing) {
			t.Errorf("%s blank: exit %d, %q", c.lang, code, errs)
		}
	}
}

// `engram usage --days 0` printed thirty days without a word (the API reads 0 as not given);
// it is refused with the range, as --days 400 is.
func TestUsageDaysZeroIsRefused(t *testing.T) {
	h := newHome(t)
	for _, days := range []string{"0", "-3", "400"} {
		if code, _, errs := h.run("", "usage", "--days", days); code != 1 || !strings.Contains(errs, "give 1 to 366 days") {
			t.Errorf("--days %s: exit %d, %q", days, code, errs)
		}
	}
	if out := h.ok("usage", "--days", "1"); !strings.Contains(out, "0 calls") {
		t.Errorf("--days 1: %q", out)
	}
}
