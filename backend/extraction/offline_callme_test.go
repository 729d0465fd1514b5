package extraction

import (
	"strings"
	"testing"
)

// TestOfflineCallMeIsTheName: "From now on, call me Sam" and "以后请叫我阿强" were kept as
// feedback rules (the "from now on"/"以后" rule read them first), so "what is my name" had no
// user-name memory to answer from; and "Dr. Lee" was cut to the name "Dr" at its full stop.
// A sentence that goes on after the name stays the one rule it was, so nothing of it is lost.
func TestOfflineCallMeIsTheName(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"From now on, call me Sam.", "user-name=Name: Sam"},
		{"Going forward please call me Priya", "user-name=Name: Priya"},
		{"以后请叫我阿强", "user-name=姓名：阿强"},
		{"今后叫我小李吧", "user-name=姓名：小李"},
		{"My name is Dr. Lee.", "user-name=Name: Dr. Lee"},
		{"Please call me Dr. Lee from now on.", "user-name=Name: Dr. Lee"},
		{"My name is John F. Kennedy.", "user-name=Name: John F. Kennedy"},
		{"Always call me Sam, and use British spelling.", "feedback-rule-always-call-sam-use-british=Always call me Sam, and use British spelling"},
		{"You can call me anytime.", ""},
		{"Call me when the build finishes.", ""},
		{"Don't call me Bob.", ""},
	} {
		t.Run(c.msg, func(t *testing.T) {
			if got := strings.Join(plannedFacts(t, c.msg), " | "); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestSentencesKeepAbbreviations: a title's or an initial's full stop ends no sentence, a
// sentence's full stop after a capital letter still does.
func TestSentencesKeepAbbreviations(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want int
	}{
		{"I met Dr. Lee today.", 1},
		{"My name is John F. Kennedy.", 1},
		{"We chose plan B. Then it failed.", 2},
		{"Ask Mr. Smith e.g. about it. Thanks.", 2},
		{"Fine. Done.", 2},
	} {
		if got := len(splitSentences(c.msg, c.msg)); got != c.want {
			t.Errorf("%q: %d sentences, want %d", c.msg, got, c.want)
		}
	}
}

// plannedFacts plans one user message offline and lists its items as "slug=description",
// the profile left out (every identity fact also updates it).
func plannedFacts(t *testing.T, msg string) []string {
	t.Helper()
	got := []string{}
	for _, it := range planIn(t, userInput(msg, "")).Plan.Items {
		if it.Slug != "person-profile" {
			got = append(got, it.Slug+"="+it.Description)
		}
	}
	return got
}
