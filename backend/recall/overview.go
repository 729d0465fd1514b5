package recall

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"engram/backend/memory"
	"engram/backend/prompts"
)

// Memory Index limits (DESIGN §5).
const (
	IndexPerBucket = 30
	IndexMaxBytes  = 16 << 10
	// updateMaxBytes bounds one <memory-update> block.
	updateMaxBytes = 4 << 10
	// sessionIdle is how long an idle session's frozen index is kept.
	sessionIdle = 24 * time.Hour
)

// OverviewParams asks for the Memory Index of what an agent working in Workdir (as Agent) may
// see. With Session set, the index is frozen on the session's first call and later calls
// return only <memory-update> diffs, so that a prompt cache over the system prompt stays valid.
type OverviewParams struct {
	Session string `json:"session,omitempty"`
	Workdir string `json:"workdir,omitempty"`
	Agent   string `json:"agent,omitempty"`
	// Reset forgets the session's frozen index (a new conversation under the same id).
	Reset bool `json:"reset,omitempty"`
}

// OverviewResult is the index text and, for a known session, the changes since the last call.
type OverviewResult struct {
	// Index is the Memory Index for the system prompt; within a session it never changes.
	Index string `json:"index"`
	// Update is a <memory-update> block listing what changed since the previous call of the
	// session ("" when nothing did, and on the first call).
	Update string `json:"update,omitempty"`
	// Entries and Total count the entries shown and those visible in all.
	Entries int `json:"entries"`
	Total   int `json:"total"`
	// Truncated is set when the byte cap cut the index short.
	Truncated bool      `json:"truncated,omitempty"`
	FrozenAt  time.Time `json:"frozen_at"`
}

// entrySig is what the model was told about one entry.
type entrySig struct {
	slug, title, scope, typ, mark string
}

type sessionState struct {
	mu       sync.Mutex // serialises the calls of one session: each diff builds on the last
	key      string
	index    string
	result   OverviewResult
	known    map[string]entrySig // id → what the model knows (the frozen index plus updates)
	lastUsed time.Time
}

// sessionCache keeps frozen indexes, least recently used first out.
type sessionCache struct {
	mu    sync.Mutex
	max   int
	order *list.List
	byKey map[string]*list.Element
}

func newSessionCache(max int) *sessionCache {
	return &sessionCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *sessionCache) get(key string, now time.Time) *sessionState {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil
	}
	st := el.Value.(*sessionState)
	if now.Sub(st.lastUsed) > sessionIdle {
		c.order.Remove(el)
		delete(c.byKey, key)
		return nil
	}
	// lastUsed belongs to the cache's lock (get and eviction read it), not to the session's.
	st.lastUsed = now
	c.order.MoveToFront(el)
	return st
}

func (c *sessionCache) put(st *sessionState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[st.key]; ok {
		el.Value = st
		c.order.MoveToFront(el)
		return
	}
	c.byKey[st.key] = c.order.PushFront(st)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*sessionState).key)
	}
}

func (c *sessionCache) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.order.Remove(el)
		delete(c.byKey, key)
	}
}

// Overview renders the Memory Index (or, within a session, the changes since last time).
func (s *Service) Overview(ctx context.Context, p OverviewParams) (OverviewResult, error) {
	now := s.store.Now()
	key := p.Session + "\x00" + p.Workdir + "\x00" + p.Agent
	if p.Session != "" && p.Reset {
		s.sessions.drop(key)
	}
	vis, err := NewVisibility(Caller{Workdir: p.Workdir, Agent: p.Agent}, s.store.Projects())
	if err != nil {
		return OverviewResult{}, err
	}
	buckets, err := s.indexBuckets(ctx, vis)
	if err != nil {
		return OverviewResult{}, err
	}
	if p.Session == "" {
		res, _ := renderIndex(buckets, now, s.store.Location())
		res.FrozenAt = now
		return res, nil
	}
	st := s.sessions.get(key, now)
	if st == nil {
		res, known := renderIndex(buckets, now, s.store.Location())
		res.FrozenAt = now
		s.sessions.put(&sessionState{key: key, index: res.Index, result: res, known: known, lastUsed: now})
		return res, nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	res := st.result
	var known map[string]entrySig
	res.Update, known, err = s.diffIndex(ctx, st.known, buckets, now)
	if err != nil {
		return OverviewResult{}, err
	}
	st.known = known
	s.sessions.put(st)
	return res, nil
}

// indexBuckets lists the buckets the caller sees (Visibility): its project (which shadows
// global entries of the same slug), its own agent scope, and global.
func (s *Service) indexBuckets(ctx context.Context, vis Visibility) ([]memory.IndexBucket, error) {
	all, err := s.store.IndexBuckets(ctx, vis.Filter(), IndexPerBucket, vis.Workdir())
	if err != nil {
		return nil, err
	}
	b := all[:0]
	for _, bk := range all {
		if vis.AllowsKey(bk.Scope, bk.Key) {
			b = append(b, bk)
		}
	}
	rank := func(sc memory.Scope) int {
		switch sc {
		case memory.ScopeProject:
			return 0
		case memory.ScopeAgent:
			return 1
		}
		return 2
	}
	typeRank := map[memory.Type]int{memory.TypeUser: 0, memory.TypeFeedback: 1, memory.TypeProject: 2,
		memory.TypeReference: 3, memory.TypeExperience: 4, memory.TypeDaily: 5}
	sort.SliceStable(b, func(i, j int) bool {
		if rank(b[i].Scope) != rank(b[j].Scope) {
			return rank(b[i].Scope) < rank(b[j].Scope)
		}
		return typeRank[b[i].Type] < typeRank[b[j].Type]
	})
	s.demoteConflictingEntries(ctx, b)
	return b, nil
}

// reviewMark is the unreviewed mark: *:h, *:m, *:l, or *:? when the confidence is unknown.
func reviewMark(e memory.IndexEntry) string {
	if e.Reviewed {
		return ""
	}
	switch e.Confidence {
	case memory.ConfidenceHigh:
		return "*:h"
	case memory.ConfidenceMedium:
		return "*:m"
	case memory.ConfidenceLow:
		return "*:l"
	}
	return "*:?"
}

// freshness is the coarse age of an entry: d0 (today), w (this week), m (this month), old.
func freshness(updated, now time.Time, loc *time.Location) string {
	if updated.IsZero() {
		return "old"
	}
	ly, lm, ld := updated.In(loc).Date()
	ny, nm, nd := now.In(loc).Date()
	if ly == ny && lm == nm && ld == nd {
		return "d0"
	}
	age := now.Sub(updated)
	switch {
	case age < 7*24*time.Hour:
		return "w"
	case age < 31*24*time.Hour:
		return "m"
	}
	return "old"
}

// Escape makes memory text safe inside the prompt's data blocks: it cannot open or close a tag.
func Escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// oneLine folds whitespace so that a title cannot start a new line of the index.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func bucketName(b memory.IndexBucket) string {
	switch b.Scope {
	case memory.ScopeProject:
		wd := ""
		if len(b.Entries) > 0 {
			wd = b.Entries[0].Workdir
		}
		if wd == "" {
			wd = b.Key
		}
		return "project " + wd + " / " + string(b.Type)
	case memory.ScopeAgent:
		return "agent " + b.Key + " / " + string(b.Type)
	}
	return "global / " + string(b.Type)
}

func entryLine(e memory.IndexEntry, now time.Time, loc *time.Location) string {
	line := "- [" + Escape(e.Slug) + "] " + Escape(oneLine(e.Title))
	if m := reviewMark(e); m != "" {
		line += " " + m
	}
	return line + " · " + freshness(e.Updated, now, loc)
}

func sigOf(e memory.IndexEntry) entrySig {
	return entrySig{slug: e.Slug, title: oneLine(e.Title), scope: string(e.Scope), typ: string(e.Type), mark: reviewMark(e)}
}

// renderIndex writes the Memory Index within IndexMaxBytes and returns what it shows.
func renderIndex(buckets []memory.IndexBucket, now time.Time, loc *time.Location) (OverviewResult, map[string]entrySig) {
	var res OverviewResult
	known := map[string]entrySig{}
	head, foot := prompts.IndexHeader, prompts.IndexFooter
	var b strings.Builder
	b.WriteString(head)
	budget := IndexMaxBytes - len(foot)
	for _, bk := range buckets {
		res.Total += bk.Total
		// Everything the buckets hold counts as known, shown or cut by the byte cap: an entry
		// is news in a later <memory-update> only when it is new or changed.
		for _, e := range bk.Entries {
			known[e.ID] = sigOf(e)
		}
	}
	if res.Total == 0 {
		b.WriteString(prompts.IndexEmpty)
	}
	for _, bk := range buckets {
		if res.Truncated {
			break
		}
		title := fmt.Sprintf("\n## %s (%d)\n", Escape(bucketName(bk)), bk.Total)
		if b.Len()+len(title) > budget {
			res.Truncated = true
			break
		}
		b.WriteString(title)
		for _, e := range bk.Entries {
			line := entryLine(e, now, loc) + "\n"
			if b.Len()+len(line) > budget-len(prompts.IndexTruncated) {
				res.Truncated = true
				break
			}
			b.WriteString(line)
			res.Entries++
		}
		if more := bk.Total - len(bk.Entries); more > 0 && !res.Truncated {
			note := fmt.Sprintf(prompts.IndexMore+"\n", more)
			if b.Len()+len(note) <= budget-len(prompts.IndexTruncated) {
				b.WriteString(note)
			}
		}
	}
	if res.Truncated {
		b.WriteString(prompts.IndexTruncated)
	}
	b.WriteString(foot)
	res.Index = b.String()
	return res, known
}

// diffIndex lists what changed against what the model knows and returns the new knowledge.
// An entry that merely dropped out of a bucket's newest 30 is not reported as removed: it is
// checked in the store, and only entries that are gone or archived are.
func (s *Service) diffIndex(ctx context.Context, known map[string]entrySig, buckets []memory.IndexBucket, now time.Time) (string, map[string]entrySig, error) {
	loc := s.store.Location()
	cur := map[string]memory.IndexEntry{}
	var order []string
	for _, bk := range buckets {
		for _, e := range bk.Entries {
			cur[e.ID] = e
			order = append(order, e.ID)
		}
	}
	next := make(map[string]entrySig, len(known))
	var lines []string
	for _, id := range order {
		e := cur[id]
		sig := sigOf(e)
		old, had := known[id]
		next[id] = sig
		switch {
		case !had:
			lines = append(lines, "+ "+strings.TrimPrefix(entryLine(e, now, loc), "- ")+" ("+Escape(string(e.Scope))+"/"+string(e.Type)+")")
		case old != sig:
			lines = append(lines, "~ "+strings.TrimPrefix(entryLine(e, now, loc), "- ")+" ("+Escape(string(e.Scope))+"/"+string(e.Type)+")")
		}
	}
	var gone []string
	for id := range known {
		if _, ok := cur[id]; !ok {
			gone = append(gone, id)
		}
	}
	sort.Strings(gone)
	for _, id := range gone {
		m, err := s.store.Get(ctx, id)
		switch {
		case errors.Is(err, memory.ErrNotFound) || (err == nil && m.Archived):
			lines = append(lines, "- ["+Escape(known[id].slug)+"] "+prompts.IndexRemoved)
		case err != nil:
			return "", known, err
		default:
			next[id] = known[id] // still there, only outside the newest 30 of its bucket
		}
	}
	if len(lines) == 0 {
		return "", next, nil
	}
	var b strings.Builder
	b.WriteString(prompts.UpdateHeader)
	for i, l := range lines {
		if b.Len()+len(l)+1 > updateMaxBytes-len(prompts.UpdateFooter)-80 {
			fmt.Fprintf(&b, prompts.UpdateMore+"\n", len(lines)-i)
			break
		}
		b.WriteString(l)
		b.WriteString("\n")
	}
	b.WriteString(prompts.UpdateFooter)
	return b.String(), next, nil
}
