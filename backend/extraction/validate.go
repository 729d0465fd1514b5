package extraction

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"engram/backend/memory"
)

// MaxPlanItems is the most items one plan may hold; the rest are refused (too-many-items).
const MaxPlanItems = 8

// MaxQuoteChars bounds a plan item's source_quote (DESIGN §6).
const MaxQuoteChars = 80

// Warning codes on applied items (translated through extraction.code.<code>).
const (
	WarnInvalidRelation = "invalid-relation"
)

// RejectedItem is a plan item that did not apply: refused by validation (a plan code) or by
// the store (a store code, as error.<code> translates it).
type RejectedItem struct {
	Index  int            `json:"index"`
	Action string         `json:"action"`
	Slug   string         `json:"slug"`
	Scope  string         `json:"scope,omitempty"`
	Code   string         `json:"code"`
	Args   map[string]any `json:"args,omitempty"`
	// Detail is the untranslated explanation kept in the record; Message is translated when read.
	Detail  string `json:"detail,omitempty"`
	Message string `json:"message,omitempty"`
}

// planned is an item that passed validation, ready for the batch.
type planned struct {
	index    int
	action   string
	item     memory.Item
	warnings []string
	// kept is the reviewed memory an update left as it was (it already says this): nothing is
	// applied, the item is reported with WarnReviewedKept. proposalOf is the slug of the
	// reviewed memory a proposal stands beside (reviewed.go).
	kept       *memory.Memory
	proposalOf string
}

// validator checks plan items one by one against what the run knows.
type validator struct {
	workdir    string // canonical, "" when the request has no project
	projectKey string // the project's key (its identity's), with workdir
	agent      string
	evidence   bool // a file-writing tool use in the turn
	pinned     bool // the person asked to remember something for this project
	// rejected holds scope|key|slug of rejections younger than 7 days.
	rejected  map[string]bool
	written   map[string]bool
	userTexts []string
	// headroom per scope|key; scopes missing are at the full limit.
	headroom map[string]int
	limit    int
	// resolve finds the scope of an existing slug for an update that names none.
	resolve func(slug string) memory.Scope
	// lookup reads the memory of slug in scope the caller may see (nil when there is none).
	lookup func(scope memory.Scope, slug string) *memory.Memory
	// say writes a stored text from the catalog in the person's language ("" without one).
	say    func(key string, args map[string]any) string
	source memory.Source
}

// find is the memory of slug in scope, nil when there is none (or no lookup).
func (v *validator) find(scope memory.Scope, slug string) *memory.Memory {
	if v.lookup == nil {
		return nil
	}
	return v.lookup(scope, slug)
}

func scopeRef(scope memory.Scope, key, slug string) string {
	return string(scope) + "|" + key + "|" + slug
}

func (v *validator) key(scope memory.Scope) string {
	switch scope {
	case memory.ScopeProject:
		if v.workdir == "" {
			return ""
		}
		return v.projectKey
	case memory.ScopeAgent:
		return v.agent
	}
	return ""
}

// validate returns the items that may apply and the refused ones, each with its code. extra,
// when set, is checked after the plan's items (at the next index) without counting against
// MaxPlanItems: the profile item the controller builds from the plan's profile signals.
func (v *validator) validate(p Plan, extra *PlanItem) ([]planned, []RejectedItem) {
	var ok []planned
	var bad []RejectedItem
	seen := map[string]bool{}
	usedWrites := map[string]int{}
	items := p.Items
	if extra != nil {
		items = append(append([]PlanItem{}, p.Items...), *extra)
	}
	for i, it := range items {
		counted := extra == nil || i < len(p.Items)
		pl, rej := v.item(i, it, counted, seen, usedWrites)
		if rej != nil {
			rej.Index, rej.Action = i, strings.TrimSpace(it.Action)
			if rej.Slug == "" {
				rej.Slug = strings.TrimSpace(it.Slug)
			}
			bad = append(bad, scrubbed(*rej))
			continue
		}
		ok = append(ok, *pl)
	}
	return ok, bad
}

func reject(code string, args map[string]any, format string, a ...any) *RejectedItem {
	return &RejectedItem{Code: code, Args: args, Detail: fmt.Sprintf(format, a...)}
}

func (v *validator) item(i int, it PlanItem, counted bool, seen map[string]bool, usedWrites map[string]int) (*planned, *RejectedItem) {
	if counted && i >= MaxPlanItems {
		return nil, reject(CodeTooManyItems, map[string]any{"Max": MaxPlanItems}, "a plan holds at most %d items", MaxPlanItems)
	}
	action := strings.TrimSpace(it.Action)
	switch action {
	case ActionWrite, ActionUpdate, ActionDelete, ActionAppendDaily:
	case "accept", "review", "reject", "mark_reviewed", "approve":
		return nil, reject(CodePersonOnlyAction, map[string]any{"Action": action}, "only the person may %s a memory", action)
	default:
		return nil, reject(CodeInvalidAction, map[string]any{"Action": action}, "unknown action %q", action)
	}
	body, warns := renderRelations(strings.TrimSpace(it.Body), it.Relations)
	if action == ActionAppendDaily {
		if body == "" {
			return nil, reject(CodeEmptyDailyBody, nil, "append_daily needs a body")
		}
		if len(body) > memory.MaxBodyBytes {
			return nil, reject(CodeBodyTooLarge, map[string]any{"Size": len(body), "Max": memory.MaxBodyBytes}, "body is %d bytes", len(body))
		}
		return &planned{index: i, action: action, warnings: warns, item: memory.Item{Op: memory.OpAppendDaily, Text: body}}, nil
	}
	slug := strings.TrimSpace(it.Slug)
	if slug == "" {
		return nil, reject(CodeMissingSlug, map[string]any{"Action": action}, "%s needs a slug", action)
	}
	scope := memory.Scope(strings.TrimSpace(it.Scope))
	switch {
	case scope == "" && action == ActionUpdate && v.resolve != nil:
		scope = v.resolve(slug)
	case scope == "":
		return nil, reject(CodeInvalidScope, map[string]any{"Scope": ""}, "%s needs a scope", action)
	case !scope.Valid():
		return nil, reject(CodeInvalidScope, map[string]any{"Scope": string(scope)}, "unknown scope %q", scope)
	case scope == memory.ScopeProject && v.workdir == "":
		return nil, reject(CodeInvalidScope, map[string]any{"Scope": string(scope)}, "this turn has no project folder")
	case scope == memory.ScopeAgent && v.agent == "":
		return nil, reject(CodeInvalidScope, map[string]any{"Scope": string(scope)}, "this turn names no agent")
	}
	key := v.key(scope)
	ref := scopeRef(scope, key, slug)
	// A project write without evidence is refused, never moved to global: a model that could
	// not show the turn was about this project has not shown the fact is about the person
	// either, and a project fact written globally would reach every other project's agents.
	if action == ActionWrite && scope == memory.ScopeProject && !v.evidence && !v.pinned && it.proposalOf == nil {
		return nil, reject(CodeProjectNoEvidence, nil,
			"a project memory needs a file change in this turn or the person's request to remember it for the project")
	}
	if seen[ref] {
		return nil, reject(CodeDuplicateSlugInPlan, map[string]any{"Slug": slug}, "slug %s is already changed by this plan", slug)
	}
	seen[ref] = true
	if action != ActionDelete {
		if v.written[slug] {
			return nil, reject(CodeAlreadyWritten, map[string]any{"Slug": slug}, "slug %s was already written from this turn", slug)
		}
		if v.rejected[ref] && !it.OverrideReject {
			return nil, reject(CodeRejectedNoOverride, map[string]any{"Slug": slug}, "the person rejected %s in the last 7 days", slug)
		}
		if len(body) > memory.MaxBodyBytes {
			return nil, reject(CodeBodyTooLarge, map[string]any{"Size": len(body), "Max": memory.MaxBodyBytes}, "body is %d bytes", len(body))
		}
	}
	mi := memory.Item{Slug: slug, Scope: scope}
	switch scope {
	case memory.ScopeProject:
		mi.Workdir = v.workdir
	case memory.ScopeAgent:
		mi.Agent = v.agent
	}
	if action == ActionDelete {
		if m := v.find(scope, slug); m != nil && m.Reviewed {
			return nil, reject(CodeReviewedDelete, map[string]any{"Slug": slug},
				"%s was reviewed by the person; only the person deletes it", slug)
		}
		mi.Op = memory.OpDelete
		return &planned{index: i, action: action, item: mi, warnings: warns}, nil
	}
	if m := v.find(scope, slug); action == ActionUpdate && !it.split && it.proposalOf == nil && m != nil && m.Reviewed {
		proposal, kept := v.reviewedUpdate(it, m, body)
		if kept {
			return &planned{index: i, action: action, kept: m, warnings: warns}, nil
		}
		pl, rej := v.item(i, proposal, false, seen, usedWrites)
		if pl != nil {
			pl.proposalOf, pl.warnings = m.Slug, append(warns, pl.warnings...)
		}
		return pl, rej
	}
	title := strings.TrimSpace(it.Description)
	if action == ActionWrite {
		if title == "" {
			return nil, reject(CodeMissingDescription, nil, "write needs a description")
		}
		if body == "" {
			return nil, reject(CodeMissingBodyForWrite, nil, "write needs a body")
		}
		sq := scopeRef(scope, key, "")
		headroom, known := v.headroom[sq]
		if !known {
			headroom = v.limit
		}
		if memory.LadderLevel(headroom-usedWrites[sq]) == memory.LevelExhausted {
			return nil, reject(CodeQuotaExhausted, map[string]any{"Scope": string(scope), "Limit": v.limit},
				"the %s scope is full", scope)
		}
		usedWrites[sq]++
	}
	quote, dropped := v.checkQuote(it.SourceQuote)
	quoteOK := dropped == ""
	if !quoteOK {
		warns = append(warns, dropped)
	}
	unreviewed := false
	mi.Reviewed = &unreviewed
	mi.Confidence = memory.Confidence(strings.TrimSpace(it.Confidence))
	if quote != "" || !quoteOK {
		mi.SourceQuote = &quote
	}
	if r := strings.TrimSpace(it.Reasoning); r != "" {
		mi.Reasoning = &r
	}
	mi.Aliases, mi.Supersedes, mi.ConflictsWith = it.Aliases, it.Supersedes, it.ConflictsWith
	mi.OverrideReject = it.OverrideReject
	if title != "" {
		mi.Title = &title
	}
	if body != "" {
		mi.Body = &body
	}
	if action == ActionWrite {
		mi.Op, mi.Type = memory.OpWrite, memory.Type(strings.TrimSpace(it.Type))
		src := v.source
		mi.Source = &src
	} else {
		mi.Op, mi.Mode = memory.OpUpdate, strings.TrimSpace(it.Mode)
		if t := strings.TrimSpace(it.Type); t != "" {
			mi.Type = memory.Type(t)
		}
		if mi.Mode == "replace" {
			// A replaced memory holds this turn's words only: its source is the extractor's
			// (a memory written with `engram write` kept saying "user" after the extractor
			// rewrote it).
			src := v.source
			mi.Source = &src
		}
	}
	return &planned{index: i, action: action, item: mi, warnings: warns}, nil
}

// checkQuote returns the quote to store, or "" and why it was dropped: a quote longer than
// MaxQuoteChars or not found verbatim in a user message of the turn (CodeQuoteNotInTurn), or
// one that holds part of a secret of the message it was cut from (CodeQuoteSecret: the guard,
// which knows a secret by its whole shape, would no longer see it in the quote alone). The
// evidence contract then lowers the confidence the item asked for.
func (v *validator) checkQuote(q string) (quote, dropped string) {
	q = strings.TrimSpace(unescape(q))
	if q == "" {
		return "", ""
	}
	if utf8.RuneCountInString(q) > MaxQuoteChars {
		return "", CodeQuoteNotInTurn
	}
	nq := oneLine(q)
	for _, t := range v.userTexts {
		var in, sq string
		switch {
		case strings.Contains(t, q):
			in, sq = t, q
		case strings.Contains(oneLine(t), nq):
			in, sq = oneLine(t), nq
		default:
			continue
		}
		if touchesSecret(in, sq) {
			return "", CodeQuoteSecret
		}
		return q, ""
	}
	return "", CodeQuoteNotInTurn
}

// quoteBesideSecret reports whether a line of the person's words the quote q comes from
// carries a secret (lineHasSecret).
func (v *validator) quoteBesideSecret(q string) bool {
	q = strings.TrimSpace(unescape(q))
	for _, t := range v.userTexts {
		if strings.Contains(t, q) {
			return lineHasSecret(t, q)
		}
	}
	return false
}
