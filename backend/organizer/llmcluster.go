package organizer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"engram/backend/llm"
	"engram/backend/prompts"
)

// Limits of what a prompt shows of one memory.
const (
	topicExcerptRunes = 280
	planBodyRunes     = 1500
	topicLabelRunes   = 80
)

// LLMClusterer asks the model to group a scope instance by topic through one
// SubmitMemoryTopicClusters call. Its answer is validated here (known ids of the scope only,
// each id once, at most MaxClusters clusters) and again by the pipeline, which splits
// clusters over MaxSize and groups what was left out structurally. Any failure makes the
// pipeline fall back to structural groups for that scope.
type LLMClusterer struct {
	Client llm.Client
	// Timeout bounds one call; zero means DefaultTopicsTimeout.
	Timeout time.Duration
	// MaxTokens bounds the answer; zero means 4,096.
	MaxTokens int
}

// Name is "llm".
func (c *LLMClusterer) Name() string { return "llm" }

func topicsTool(maxClusters, maxSize int) llm.Tool {
	return llm.Tool{Name: prompts.OrganizerTopicsTool, Description: prompts.OrganizerTopicsToolDesc, Parameters: schema(map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"topic_clusters"},
		"properties": map[string]any{
			"topic_clusters": map[string]any{"type": "array", "maxItems": maxClusters, "description": prompts.OrganizerTopicsClustersDesc,
				"items": map[string]any{"type": "object", "additionalProperties": false, "required": []string{"topic", "ids"},
					"properties": map[string]any{
						"topic": map[string]any{"type": "string", "maxLength": topicLabelRunes, "description": prompts.OrganizerTopicsTopicDesc},
						"ids": map[string]any{"type": "array", "minItems": 1, "maxItems": maxSize, "description": prompts.OrganizerTopicsIDsDesc,
							"items": map[string]any{"type": "string"}},
					}}},
		}})}
}

// topicArgs is the shape of SubmitMemoryTopicClusters' arguments.
type topicArgs struct {
	TopicClusters []struct {
		Topic string   `json:"topic"`
		IDs   []string `json:"ids"`
	} `json:"topic_clusters"`
}

// Cluster asks the model for topic clusters of one scope instance.
func (c *LLMClusterer) Cluster(ctx context.Context, in ClusterInput) (ClusterOutput, error) {
	maxClusters, maxSize := in.MaxClusters, in.MaxSize
	if maxClusters <= 0 {
		maxClusters = MaxTopicClusters
	}
	if maxSize <= 0 {
		maxSize = MaxClusterSize
	}
	var b strings.Builder
	fmt.Fprintf(&b, prompts.OrganizerTopicsTask, in.Scope.Scope, scopeLabel(in.Scope), len(in.Entries), maxClusters, maxSize)
	b.WriteString(prompts.OrganizerDataHeader)
	for _, m := range in.Entries {
		writeJSONLine(&b, topicEntry{ID: m.ID, Slug: m.Slug, Type: string(m.Type), Title: m.Title,
			Excerpt: clip(strings.TrimSpace(m.Body), topicExcerptRunes)})
	}
	b.WriteString(prompts.OrganizerDataFooter)
	tc := toolCall{purpose: llm.PurposeOrganizerTopics, system: prompts.OrganizerTopicsSystem, prompt: b.String(),
		tool: topicsTool(maxClusters, maxSize), retry: prompts.OrganizerTopicsRetry, timeout: c.Timeout, tokens: c.MaxTokens}
	if tc.timeout <= 0 {
		tc.timeout = DefaultTopicsTimeout
	}
	if tc.tokens <= 0 {
		tc.tokens = 4096
	}
	raw, use, err := tc.call(ctx, c.Client)
	out := ClusterOutput{Usage: use}
	if err != nil {
		return out, err
	}
	var args topicArgs
	if err := decodeStrict(raw, &args); err != nil {
		return out, badArgs(prompts.OrganizerTopicsTool, err)
	}
	if args.TopicClusters == nil {
		return out, badArgs(prompts.OrganizerTopicsTool, errors.New("topic_clusters is missing"))
	}
	if len(args.TopicClusters) > maxClusters {
		// More topics than asked for: the first maxClusters are used and the memories of the
		// rest are left out, which the pipeline groups structurally (and reports as left out)
		// — the whole grouping was refused and the scope grouped structurally.
		args.TopicClusters = args.TopicClusters[:maxClusters]
	}
	known := make(map[string]bool, len(in.Entries))
	for _, m := range in.Entries {
		known[m.ID] = true
	}
	used := map[string]bool{}
	for _, tcl := range args.TopicClusters {
		var ids []string
		for _, id := range tcl.IDs {
			switch {
			case !known[id]:
				out.UnknownIDs++
			case used[id]:
				out.RepeatedIDs++ // an id in two clusters stays in the first
			default:
				used[id] = true
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		out.Groups = append(out.Groups, ids)
		out.Topics = append(out.Topics, clean(tcl.Topic, topicLabelRunes))
	}
	return out, nil
}

// topicEntry is one memory as the clustering prompt shows it.
type topicEntry struct {
	ID      string `json:"id"`
	Slug    string `json:"slug"`
	Type    string `json:"type"`
	Title   string `json:"title"`
	Excerpt string `json:"excerpt"`
}

// scopeLabel names a scope instance in a prompt: the agent, or the project's key (a hash:
// the folder's path stays on this machine), else nothing for global.
func scopeLabel(s ScopeInstance) string {
	if s.Agent != "" {
		return s.Agent
	}
	return s.Key
}
