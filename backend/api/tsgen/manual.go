package main

import (
	"regexp"
	"sort"
)

// manual are the types of types.manual.ts that generated interfaces may refer to.
var manual = []string{"Scope", "MemoryType", "WritableType", "Confidence", "Language", "QuotaLevel", "ErrorPayload",
	"OrganizerMode", "OrganizerTrigger", "RunStatus", "RunPhase", "DecisionAction", "Risk", "Tier", "DecisionOutcome",
	"DecisionStatus"}

var word = regexp.MustCompile(`[A-Za-z]+`)

// manualNames lists the used hand-written names, sorted.
func manualNames(used map[string]bool) []string {
	var out []string
	for n := range used {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
