package organizer

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"engram/backend/llm"
	"engram/backend/prompts"
)

// Bounds of a SubmitMemoryOrganizePlan answer.
const (
	maxPlanDecisions = 24
	maxEvidenceItems = 12
	evidenceRunes    = 400
	reasonRunes      = 600
	hintRunes        = 1000
)

// LLMPlanner plans one cluster through one SubmitMemoryOrganizePlan call, with the cluster's
// memories, the global inventory and the scope's compression target (limit − 100) in the
// prompt. Its answer is hostile input: decoded strictly, each decision checked on its own (a
// bad one is reported dropped with its bucket, the rest go on), and every decision then goes
// through the local gate, which recomputes the risk. An error fails only this cluster; the
// pipeline plans it offline instead.
type LLMPlanner struct {
	Client llm.Client
	// Timeout bounds one call; zero means DefaultPlanTimeout.
	Timeout time.Duration
	// MaxTokens bounds the answer; zero means 4,096.
	MaxTokens int
}

// Name is "llm".
func (p *LLMPlanner) Name() string { return "llm" }

func planTool() llm.Tool {
	str := func(desc string, n int) map[string]any {
		return map[string]any{"type": "string", "maxLength": n, "description": desc}
	}
	return llm.Tool{Name: prompts.OrganizerPlanTool, Description: prompts.OrganizerPlanToolDesc, Parameters: schema(map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"decisions"},
		"properties": map[string]any{
			"decisions": map[string]any{"type": "array", "maxItems": maxPlanDecisions, "description": prompts.OrganizerPlanDecisionsDesc,
				"items": map[string]any{"type": "object", "additionalProperties": false,
					"required": []string{"action", "ids", "confidence", "reason"},
					"properties": map[string]any{
						"action": map[string]any{"type": "string", "description": prompts.OrganizerPlanActionDesc,
							"enum": []string{string(ActionKeep), string(ActionMergeInto), string(ActionDelete), string(ActionMarkReview), string(ActionRewriteHint)}},
						"ids": map[string]any{"type": "array", "minItems": 1, "maxItems": MaxClusterSize,
							"items": map[string]any{"type": "string"}, "description": prompts.OrganizerPlanIDsDesc},
						"into":       map[string]any{"type": "string", "description": prompts.OrganizerPlanIntoDesc},
						"confidence": map[string]any{"type": "number", "minimum": 0, "maximum": 1, "description": prompts.OrganizerPlanConfDesc},
						"reason":     str(prompts.OrganizerPlanReasonDesc, reasonRunes),
						"preserved_evidence": map[string]any{"type": "array", "maxItems": maxEvidenceItems,
							"items": map[string]any{"type": "string", "maxLength": evidenceRunes}, "description": prompts.OrganizerPlanEvidenceDesc},
						"hint": str(prompts.OrganizerPlanHintDesc, hintRunes),
					}}},
			"summary":          str(prompts.OrganizerPlanSummaryDesc, reasonRunes),
			"expected_removed": map[string]any{"type": "integer", "minimum": 0, "description": prompts.OrganizerPlanRemovedDesc},
		}})}
}

// planArgs is the shape of SubmitMemoryOrganizePlan's arguments; the decisions are decoded
// one by one so that one bad decision does not sink the others.
type planArgs struct {
	Decisions       []json.RawMessage `json:"decisions"`
	Summary         string            `json:"summary"`
	ExpectedRemoved *int              `json:"expected_removed"`
}

// planItem is one decision as the model sends it.
type planItem struct {
	Action            string   `json:"action"`
	IDs               []string `json:"ids"`
	Into              string   `json:"into"`
	Confidence        *float64 `json:"confidence"`
	Reason            string   `json:"reason"`
	PreservedEvidence []string `json:"preserved_evidence"`
	Hint              string   `json:"hint"`
}

// Plan asks the model for the cluster's decisions.
func (p *LLMPlanner) Plan(ctx context.Context, in PlanInput) (PlanOutput, error) {
	tc := toolCall{purpose: llm.PurposeOrganizerPlan, system: prompts.OrganizerPlanSystem, prompt: planPrompt(in),
		tool: planTool(), retry: prompts.OrganizerPlanRetry, timeout: p.Timeout, tokens: p.MaxTokens}
	if tc.timeout <= 0 {
		tc.timeout = DefaultPlanTimeout
	}
	if tc.tokens <= 0 {
		tc.tokens = 4096
	}
	raw, use, err := tc.call(ctx, p.Client)
	out := PlanOutput{Usage: use}
	if err != nil {
		return out, err
	}
	var args planArgs
	if err := decodeStrict(raw, &args); err != nil {
		return out, badArgs(prompts.OrganizerPlanTool, err)
	}
	if args.Decisions == nil {
		return out, badArgs(prompts.OrganizerPlanTool, errors.New("decisions is missing"))
	}
	if len(args.Decisions) > maxPlanDecisions {
		return out, tooMany(prompts.OrganizerPlanTool, len(args.Decisions), maxPlanDecisions)
	}
	out.Proposals = proposalsOf(args.Decisions, in.Cluster)
	return out, nil
}

// proposalsOf checks each decision on its own. A decision that does not decode, names an
// unknown action, lacks its confidence or a merge target, or carries fields of another action
// is kept as a dropped proposal (reported, never applied). Ids are passed on as sent: the
// gate refuses ids outside the cluster. Cluster entries no decision names are kept.
func proposalsOf(items []json.RawMessage, c Cluster) []Proposal {
	var out []Proposal
	named := map[string]bool{}
	for _, raw := range items {
		var it planItem
		if err := decodeStrict(raw, &it); err != nil {
			out = append(out, invalid("", nil, ReasonMalformedDecision, ""))
			continue
		}
		ids := dedupe(it.IDs)
		for _, id := range ids {
			named[id] = true
		}
		if it.Into != "" {
			named[it.Into] = true
		}
		act := Action(it.Action)
		reason := clean(it.Reason, reasonRunes)
		switch {
		case !act.Valid():
			out = append(out, invalid(Action(clip(it.Action, 32)), ids, ReasonUnknownAction, reason))
			continue
		case it.Confidence == nil || math.IsNaN(*it.Confidence) || *it.Confidence < 0 || *it.Confidence > 1:
			out = append(out, invalid(act, ids, ReasonBadConfidence, reason))
			continue
		case len(ids) == 0 || len(ids) > MaxClusterSize:
			out = append(out, invalid(act, ids, ReasonBadIDs, reason))
			continue
		case act == ActionMergeInto && it.Into == "":
			out = append(out, invalid(act, ids, ReasonMergeWithoutInto, reason))
			continue
		case act != ActionMergeInto && it.Into != "":
			out = append(out, invalid(act, ids, ReasonMisplacedField, reason))
			continue
		case act != ActionRewriteHint && strings.TrimSpace(it.Hint) != "":
			out = append(out, invalid(act, ids, ReasonMisplacedField, reason))
			continue
		case act == ActionRewriteHint && strings.TrimSpace(it.Hint) == "":
			out = append(out, invalid(act, ids, ReasonRewriteWithoutHint, reason))
			continue
		}
		if act == ActionKeep {
			// A keep changes nothing; only the cluster's own entries are counted as kept.
			var keep []string
			for _, id := range ids {
				if inCluster(c, id) {
					keep = append(keep, id)
				}
			}
			if len(keep) > 0 {
				out = append(out, Proposal{Action: ActionKeep, Targets: keep, Confidence: *it.Confidence})
			}
			continue
		}
		var ev []string
		for _, e := range it.PreservedEvidence {
			if e = clean(e, evidenceRunes); e != "" && len(ev) < maxEvidenceItems {
				ev = append(ev, e)
			}
		}
		out = append(out, Proposal{Action: act, Targets: ids, Into: it.Into, Confidence: *it.Confidence,
			Reason: Reason{Code: ReasonPlanner, Text: reason}, Hint: clean(it.Hint, hintRunes), Evidence: ev})
	}
	var rest []string
	for _, m := range c.Entries {
		if !named[m.ID] {
			rest = append(rest, m.ID)
		}
	}
	if len(rest) > 0 {
		out = append(out, Proposal{Action: ActionKeep, Targets: rest, Confidence: 1})
	}
	return out
}

// invalid is a decision refused by the planner's checks: reported with the problem's reason
// code (and the model's own words, shown as is), never applied.
func invalid(act Action, ids []string, code, text string) Proposal {
	if len(ids) > MaxClusterSize {
		ids = ids[:MaxClusterSize]
	}
	return Proposal{Action: act, Targets: ids, Drop: BucketInvalidProposal, Reason: Reason{Code: code, Text: text}}
}

func dedupe(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func inCluster(c Cluster, id string) bool {
	for _, m := range c.Entries {
		if m.ID == id {
			return true
		}
	}
	return false
}
