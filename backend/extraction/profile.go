package extraction

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"engram/backend/memory"
)

// ProfileSlug is the global user memory that collects profile signals (ZCLAW's user profile:
// role, industry, communication style, recent topics, pain points, preferred tools).
const ProfileSlug = "person-profile"

var signalKinds = map[string]bool{SignalRole: true, SignalIndustry: true, SignalCommStyle: true,
	SignalRecentTopic: true, SignalPainPoint: true, SignalPreferredTool: true}

// singleSignal are the kinds a person has one of at a time: a newer one replaces the older
// line. The trigger: the profile piled up "role: backend engineer" and "role: 数据分析" from
// two turns, and every reader of it got both. The other kinds are lists (topics, tools, pain
// points, styles).
var singleSignal = map[string]bool{SignalRole: true, SignalIndustry: true}

// profileItem turns the plan's profile signals into one plan item for ProfileSlug: a line per
// signal whose kind is known, whose value fits one line and whose quote the person said in the
// turn, away from any secret; existing is the memory when it is there already. An existing
// profile is rewritten whole (mode replace): its lines are kept — the person's edits too —
// but a newer signal of a single kind (role, industry) takes the place of the older line, and
// a signal it holds already is not added again; nothing changed, no item. The item then
// passes the same validation as any other (rejections, already written, quota, a profile the
// person reviewed). ok is false when no signal qualifies.
func (v *validator) profileItem(signals []ProfileSignal, existing *memory.Memory) (PlanItem, bool) {
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
	it := PlanItem{Action: ActionUpdate, Slug: ProfileSlug, Scope: "global", Mode: "replace",
		SourceQuote: quote, Confidence: "medium", ReasonKey: reasonProfile}
	if existing == nil {
		it.Action, it.Type, it.Description, it.Mode = ActionWrite, "user", "Profile", ""
		it.Body = mergeProfile("", lines)
		return it, true
	}
	it.Body = mergeProfile(existing.Body, lines)
	if it.Body == strings.TrimSpace(existing.Body) {
		return PlanItem{}, false
	}
	return it, true
}

// mergeProfile adds the signal lines add ("- kind: value") to a profile body: a single kind's
// line replaces the first line of its kind in place (and drops the others of it), a line the
// body holds already (case aside) is not repeated, the rest are appended. Every other line of
// the body stays as it is.
func mergeProfile(body string, add []string) string {
	var out []string
	if b := strings.TrimSpace(body); b != "" {
		out = strings.Split(b, "\n")
	}
	kindOf := func(line string) (kind, value string) {
		if m := signalLine.FindStringSubmatch(line); m != nil {
			return m[1], strings.ToLower(strings.Join(strings.Fields(m[2]), " "))
		}
		return "", ""
	}
	for _, line := range add {
		kind, value := kindOf(line)
		if slices.ContainsFunc(out, func(o string) bool { k, v := kindOf(o); return k == kind && v == value }) {
			if !singleSignal[kind] {
				continue
			}
		}
		if !singleSignal[kind] {
			out = append(out, line)
			continue
		}
		at := -1
		kept := out[:0:0]
		for _, o := range out {
			if k, _ := kindOf(o); k == kind {
				if at < 0 {
					at = len(kept)
					kept = append(kept, line)
				}
				continue
			}
			kept = append(kept, o)
		}
		if at < 0 {
			kept = append(kept, line)
		}
		out = kept
	}
	return strings.Join(out, "\n")
}
