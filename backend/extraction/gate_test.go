package extraction

import "testing"

// TestContentGateKeepsFacts: a greeting or thanks is skipped only when nothing but small talk
// follows it (the assistant's name, "so much", emoji, "how are you"); one that carries the
// person's words about themselves or an instruction runs. Chinese is dense: a short fact in
// Chinese passes the length gate, a bare 好的/继续吧 does not.
func TestContentGateKeepsFacts(t *testing.T) {
	cases := []struct {
		msg, prev, want string
	}{
		// Facts after a greeting or thanks run (QA: all were skipped as greeting/thanks).
		{"Hi, my name is Alice.", "", ""},
		{"Hey, remember I use zsh", "", ""},
		{"Good morning! I prefer tabs.", "", ""},
		{"Thanks! Also, I prefer tabs over spaces.", "", ""},
		{"Thanks. I live in Berlin.", "", ""},
		{"Hello Claude, I'm a nurse.", "", ""},
		{"你好，我叫王伟", "", ""},
		{"谢谢！记住我用 zsh", "", ""},
		{"你好，我是后端工程师", "", ""},
		{"谢谢，我喜欢用 Vim 编辑器", "", ""},
		{"嗨，以后回答用中文", "", ""},
		// Bare greetings and thanks, with trivial additions, stay skipped.
		{"Hi there!", "", SkipGreeting},
		{"Hello Claude 👋", "", SkipGreeting},
		{"Hi there, how are you?", "", SkipGreeting},
		{"Good morning everyone!!", "", SkipGreeting},
		{"Thank you so much!", "", SkipThanks},
		{"Thanks a lot, Claude 🙏", "", SkipThanks},
		{"thx again", "", SkipThanks},
		{"Thanks, that works now!", "", SkipThanks},
		{"ok thanks", "", SkipThanks},
		{"Great, thanks!", "", SkipThanks},
		{"Hi, thanks!", "", SkipGreeting},
		{"你好呀，今天怎么样", "", SkipGreeting},
		{"谢谢你，问题解决了", "", SkipThanks},
		{"好的，谢谢！", "", SkipThanks},
		{"非常感谢！", "", SkipThanks},
		{"history of my project", "", ""},
		// Chinese facts under six graphemes run; short replies stay too short.
		{"我喜欢喝茶", "", ""},
		{"我住在上海", "", ""},
		{"我叫王伟", "", ""},
		{"继续吧", "", SkipTooShort},
		{"好的", "", SkipTooShort},
		{"是的", "", SkipTooShort},
		{"对", "", SkipTooShort},
		{"是的", "要我记住你喜欢喝茶吗？", ""},
		{"ok", "", SkipTooShort},
		{"do it", "", SkipTooShort},
		{"用 zsh", "", SkipTooShort},
		{"👨‍👩‍👧‍👦👍🏽🇩🇪", "", SkipTooShort},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			if got := contentGate(DefaultSettings(), gateInput{Text: c.msg, PrevAssistant: c.prev}); got != c.want {
				t.Fatalf("gate %q, want %q", got, c.want)
			}
		})
	}
}

// TestDenseLengthFollowsSetting: the CJK weighting scales with the person's minimum length
// rather than replacing it.
func TestDenseLengthFollowsSetting(t *testing.T) {
	s := DefaultSettings()
	s.MinGraphemes = 10
	if got := contentGate(s, gateInput{Text: "我住在上海"}); got != SkipTooShort {
		t.Fatalf("five ideographs under a minimum of 10: %q", got)
	}
	if got := contentGate(s, gateInput{Text: "我住在上海浦东新区"}); got != "" {
		t.Fatalf("nine ideographs under a minimum of 10: %q", got)
	}
}
