package organizer

import (
	"encoding/json"
	"fmt"
	"strings"

	"engram/backend/prompts"
)

// Limits of the global inventory a plan prompt shows.
const (
	inventoryMaxItems = 400
	inventoryMaxBytes = 48 << 10
)

// planEntry is one memory of the cluster as the plan prompt shows it.
type planEntry struct {
	ID          string   `json:"id"`
	Slug        string   `json:"slug"`
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Confidence  string   `json:"confidence"`
	Reviewed    bool     `json:"reviewed"`
	Created     string   `json:"created"`
	Updated     string   `json:"updated"`
	Tags        []string `json:"tags,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
	SourceQuote string   `json:"source_quote,omitempty"`
	Body        string   `json:"body"`
}

// inventoryLine is one memory of the global inventory.
type inventoryLine struct {
	ID      string `json:"id"`
	Cluster string `json:"cluster"`
	Scope   string `json:"scope"`
	Key     string `json:"scope_key,omitempty"`
	Type    string `json:"type"`
	Slug    string `json:"slug"`
	Title   string `json:"title"`
}

var modePolicy = map[Mode]string{
	ModeConservative: prompts.OrganizerModeConservative,
	ModeStandard:     prompts.OrganizerModeStandard,
	ModeAggressive:   prompts.OrganizerModeAggressive,
}

// planPrompt renders what the model sees for one cluster: trigger and mode, the scope's quota
// with its compression target, the cluster's memories and the global inventory (the cluster's
// own scope first). Memory text travels JSON-encoded inside the untrusted-data block.
func planPrompt(in PlanInput) string {
	var b strings.Builder
	mode := in.Mode
	if modePolicy[mode] == "" {
		mode = ModeStandard
	}
	fmt.Fprintf(&b, prompts.OrganizerPlanTask, in.Trigger, mode, modePolicy[mode])
	q := in.Quota
	fmt.Fprintf(&b, prompts.OrganizerPlanQuota, in.Cluster.Scope.Scope, scopeLabel(in.Cluster.Scope), q.Used, q.Limit, q.Target, q.OverTarget)
	topic := in.Cluster.Topic
	if topic == "" {
		topic = in.Cluster.Key
	}
	fmt.Fprintf(&b, "\n"+prompts.OrganizerPlanCluster, in.Cluster.ID, clean(topic, topicLabelRunes), len(in.Cluster.Entries))
	b.WriteString(prompts.OrganizerDataHeader)
	for _, m := range in.Cluster.Entries {
		writeJSONLine(&b, planEntry{ID: m.ID, Slug: m.Slug, Type: string(m.Type), Title: m.Title, Confidence: string(m.Confidence),
			Reviewed: m.Reviewed, Created: m.Created.UTC().Format("2006-01-02"), Updated: m.Updated.UTC().Format("2006-01-02"),
			Tags: m.Tags, Aliases: m.Aliases, SourceQuote: m.SourceQuote, Body: clip(strings.TrimSpace(m.Body), planBodyRunes)})
	}
	b.WriteString(prompts.OrganizerDataFooter)

	own := func(it InventoryItem) bool {
		return it.Scope == in.Cluster.Scope.Scope && it.Key == in.Cluster.Scope.Key
	}
	var lines []string
	size := 0
	for pass := 0; pass < 2; pass++ {
		for _, it := range in.Inventory {
			if own(it) != (pass == 0) || len(lines) >= inventoryMaxItems || size >= inventoryMaxBytes {
				continue
			}
			raw, _ := json.Marshal(inventoryLine{ID: it.ID, Cluster: it.Cluster, Scope: string(it.Scope), Key: it.Key,
				Type: string(it.Type), Slug: it.Slug, Title: it.Title})
			lines = append(lines, string(raw))
			size += len(raw) + 1
		}
	}
	fmt.Fprintf(&b, "\n"+prompts.OrganizerPlanInventory, len(lines), len(in.Inventory))
	b.WriteString(prompts.OrganizerDataHeader)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if n := len(in.Inventory) - len(lines); n > 0 {
		fmt.Fprintf(&b, prompts.OrganizerPlanInventoryMore, n)
	}
	b.WriteString(prompts.OrganizerDataFooter)
	return b.String()
}

// writeJSONLine writes v as one JSON line. encoding/json escapes <, > and &, so memory text
// can never close the data block it sits in.
func writeJSONLine(b *strings.Builder, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		return // plain strings, bools and string slices always marshal
	}
	b.Write(raw)
	b.WriteByte('\n')
}
