package extraction

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ProfileSlug is the global user memory that collects profile signals (ZCLAW's user profile:
// role, industry, communication style, recent topics, pain points, preferred tools).
const ProfileSlug = "person-profile"

var signalKinds = map[string]bool{SignalRole: true, SignalIndustry: true, SignalCommStyle: true,
	SignalRecentTopic: true, SignalPainPoint: true, SignalPreferredTool: true}

// profileItem turns the plan's profile signals into one plan item for ProfileSlug: a line per
// signal whose kind is known, whose value fits one line and whose quote the person said in the
// turn, away from any secret; exists says whether the memory is there already (update, else write). The item then
// passes the same validation as any other (rejections, already written, quota). ok is false
// when no signal qualifies.
func (v *validator) profileItem(signals []ProfileSignal, exists bool) (PlanItem, bool) {
	var lines []string
	quote := ""
	for _, s := range signals {
		kind, value := strings.TrimSpace(s.Kind), oneLine(s.Value)
		if !signalKinds[kind] || value == "" || utf8.RuneCountInString(value) > 120 {
			continue
		}
		// A signal read beside a secret (a tool named next to its webhook or key) is the
		// secret's context, not the person's profile: the turn's facts there were refused.
		q, dropped := v.checkQuote(s.Quote)
		if dropped != "" || q == "" || v.quoteBesideSecret(q) {
			continue
		}
		lines = append(lines, fmt.Sprintf("- %s: %s", kind, value))
		if quote == "" {
			quote = q
		}
	}
	if len(lines) == 0 {
		return PlanItem{}, false
	}
	it := PlanItem{Action: ActionUpdate, Slug: ProfileSlug, Scope: "global", Body: strings.Join(lines, "\n"),
		SourceQuote: quote, Confidence: "medium", ReasonKey: reasonProfile}
	if !exists {
		it.Action, it.Type, it.Description = ActionWrite, "user", "Profile"
	}
	return it, true
}
