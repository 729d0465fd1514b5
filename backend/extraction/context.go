package extraction

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"engram/backend/memory"
	"engram/backend/prompts"
	"engram/backend/recall"
	"engram/backend/text"
)

// Compact context limits (DESIGN §6).
const (
	ContextUserTurns    = 4
	ContextMessageChars = 2000
	ContextTotalChars   = 12000
	ContextCandidates   = 30
	// candidateWords bounds the words (and, apart, the CJK bigrams) of a message weighed for
	// the candidate search; candidateSearch bounds those searched with.
	candidateWords  = 8
	candidateSearch = 6
	// dfLimit stops counting a word's memories there; rareBudget bounds the memories the
	// searched words may match together (past the first two).
	dfLimit    = 400
	rareBudget = 400
	// titledCandidates bounds the memories found by a common word in their title or aliases.
	titledCandidates = 10
)

// window returns the messages from the ContextUserTurns-th last user message to the end, each
// cut to ContextMessageChars, dropping the oldest until the total fits ContextTotalChars (the
// last user message always stays).
func window(msgs []Message) []Message {
	start, users := 0, 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			users++
			start = i
			if users == ContextUserTurns {
				break
			}
		}
	}
	if users == 0 {
		return nil
	}
	var out []Message
	total := 0
	for _, m := range msgs[start:] {
		// A pasted key is not sent on to the extraction model (it could only be refused).
		m.Content = memory.RedactSecrets(cut(strings.TrimSpace(m.Content), ContextMessageChars))
		if m.Content == "" {
			continue
		}
		total += utf8.RuneCountInString(m.Content)
		out = append(out, m)
	}
	lastUser := -1
	for i, m := range out {
		if m.Role == "user" {
			lastUser = i
		}
	}
	for total > ContextTotalChars && lastUser > 0 {
		total -= utf8.RuneCountInString(out[0].Content)
		out = out[1:]
		lastUser--
	}
	return out
}

// cut shortens s to at most n runes, keeping its head and its tail with a mark between that
// says how much was left out. The trigger: a 28 KB message (a pasted log, then "Remember that
// I prefer kebab-case for URL paths.") reached the model as its first 2,000 characters, so the
// request at its end was never seen. The last words are most often what the person asks: the
// tail gets two thirds of the room.
func cut(s string, n int) string {
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s
	}
	room := n - utf8.RuneCountInString(fmt.Sprintf(prompts.ExtractionCut, total))
	if room < 16 {
		return s[:runeOffset(s, n-1)] + "…"
	}
	h, t := headTail(s, total, room)
	return h + fmt.Sprintf(prompts.ExtractionCut, total-room) + t
}

// cutText is the words cut keeps of s at n runes, without the mark: what the candidate search
// reads of a long message, as the model does (a pasted log of megabytes was split into words
// whole, hundreds of megabytes of them, to find a few rare ones).
func cutText(s string, n int) string {
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s
	}
	h, t := headTail(s, total, n)
	return h + "\n" + t
}

// headTail is the head (a third of room runes) and the tail (the rest) of s, which holds total
// runes, each end moved to a nearby space or line break. Found by byte offsets: a message of
// megabytes was made a rune slice (four bytes a character) to keep 2,000 of them.
func headTail(s string, total, room int) (string, string) {
	head := room / 3
	tail := room - head
	h, t := s[:runeOffset(s, head)], s[runeOffset(s, total-tail):]
	// At a line break or space near the cut when there is one, not mid-word.
	if i := strings.LastIndexAny(h, " \n"); i > len(h)*7/8 {
		h = h[:i]
	}
	if i := strings.IndexAny(t, " \n"); i >= 0 && i < len(t)/8 {
		t = t[i+1:]
	}
	return strings.TrimRight(h, " \n"), strings.TrimLeft(t, " \n")
}

// runeOffset is the byte offset of s's k-th rune (len(s) past its end).
func runeOffset(s string, k int) int {
	for i := range s {
		if k == 0 {
			return i
		}
		k--
	}
	return len(s)
}

// fileTools are the agent tools that write files: a use of one is evidence that the turn
// worked on the project.
var fileTools = map[string]bool{"write": true, "edit": true, "multiedit": true, "notebookedit": true,
	"apply_patch": true, "create_file": true, "str_replace_based_edit_tool": true, "delete_file": true}

// projectEvidence reports whether the turn changed a file of the project: a file-writing tool
// use or a write/edit/delete mutation, whose path (when absolute) lies inside the workdir.
func projectEvidence(workdir string, muts []Mutation) bool {
	if workdir == "" {
		return false
	}
	for _, m := range muts {
		kind := strings.ToLower(strings.TrimSpace(m.Kind))
		if kind != "write" && kind != "edit" && kind != "delete" && !fileTools[strings.ToLower(strings.TrimSpace(m.Tool))] {
			continue
		}
		p := strings.TrimSpace(m.Path)
		if p == "" || !filepath.IsAbs(p) {
			return true
		}
		rel, err := filepath.Rel(workdir, filepath.Clean(p))
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// pinREs find the person's own word that something is for this project: a request to
// remember it for the project, or a rule they give for it ("Don't use tabs in this codebase",
// "这个代码库不要用制表符": the trigger, refused as project-scope-without-evidence when no file
// changed in the turn, though the person named the project themselves).
var pinREs = []*text.Regexp{
	text.Lazy(`(?i)\bremember\b[^.!?\n]{0,80}\b(for|in|about) (this|the|our) (project|repo|repository|codebase)\b`),
	text.Lazy(`(?i)\b(for|in) (this|the|our) (project|repo|repository|codebase)\b[^.!?\n]{0,40}\bremember\b`),
	text.Lazy(`(这个|本|该|此)(项目|仓库|工程|代码库)[^。！？\n]{0,20}(记住|记下|记一下)`),
	text.Lazy(`(记住|记下|记一下)[^。！？\n]{0,40}(这个|本|该|此)(项目|仓库|工程|代码库)`),
	text.Lazy(`(?i)(?:^|[.!;:…]\s*|\n)(?:(?:please|also|and|so|no|actually)[,:]?\s+){0,2}(?:don't|don’t|do not|never|always|avoid|stop|quit)\b[^.!?\n…]{0,80}\b(?:in|for|across|throughout) (?:this|our) (?:project|repo|repository|codebase)\b`),
	text.Lazy(`(?i)(?:^|[.!;:…]\s*|\n)(?:in|for|across|throughout) (?:this|our) (?:project|repo|repository|codebase)\b[,:]?\s+(?:please\s+)?(?:don't|don’t|do not|never|always|avoid|stop|use|prefer)\b`),
	text.Lazy(`(这个|本|该|此|当前)(项目|仓库|工程|代码库)(?:里|中|上)?[，,]?(?:请)?(不要|别|禁止|不准|不许|一律|统一|总是|始终|永远|必须)`),
	text.Lazy(`(?:^|[。！；…\n，,])(?:另外|还有)?[，,]?(?:请)?(不要|别|禁止|不准|不许|一律|统一|永远|必须)[^。！？\n…]{0,30}(这个|本|该|此|当前)(项目|仓库|工程|代码库)`),
}

// projectPinned reports whether the person asked to remember something for this project, or
// gave a rule for it.
func projectPinned(text string) bool {
	for _, re := range pinREs {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// candidateTerms keeps the words of a message that may name its topic, for the candidate
// search: distinct words that are not stop words (3+ letters), the longest first, at most
// candidateWords; and the bigrams of the first CJK runs (the word index holds CJK text as
// bigrams), at most candidateWords too. Which of them are rare enough to search with is
// decided against the store (pickRare).
func candidateTerms(msg string) []string {
	seen := map[string]bool{}
	var words, grams []string
	for _, tok := range text.Split(msg) {
		w := tok.Text
		if tok.CJK {
			for _, g := range text.Bigrams(w) {
				if len(grams) < candidateWords && utf8.RuneCountInString(g) == 2 && !seen[g] {
					seen[g] = true
					grams = append(grams, g)
				}
			}
			continue
		}
		if utf8.RuneCountInString(w) < 3 || text.IsStop(w) {
			continue
		}
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	sort.SliceStable(words, func(i, j int) bool { return utf8.RuneCountInString(words[i]) > utf8.RuneCountInString(words[j]) })
	if len(words) > candidateWords {
		words = words[:candidateWords]
	}
	return append(words, grams...)
}

// pickRare keeps the terms to search with, rarest first: terms no memory holds are dropped,
// then terms are taken while the memories they match stay within rareBudget (at least two,
// at most candidateSearch). A word in thousands of memories names no topic, and BM25 would
// score every one of them; the rare words are the ones a plan's update target shares.
func pickRare(terms []string, df []int) []string {
	idx := make([]int, 0, len(terms))
	for i := range terms {
		if df[i] > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return df[idx[a]] < df[idx[b]] })
	var out []string
	sum := 0
	for _, i := range idx {
		if len(out) >= candidateSearch || (len(out) >= 2 && sum+df[i] > rareBudget) {
			break
		}
		out = append(out, terms[i])
		sum += df[i]
	}
	return out
}

// leftOut lists the terms some memory holds that pickRare did not search with (too common).
func leftOut(terms []string, df []int, picked []string) []string {
	var out []string
	for i, t := range terms {
		if df[i] > 0 && !slices.Contains(picked, t) {
			out = append(out, t)
		}
	}
	return out
}

// candidateWeights are the BM25 weights of the title, body and aliases columns for candidates:
// a memory whose title names the topic is the one a plan would update.
var candidateWeights = [3]float64{4, 1, 2}

// candidates finds the memories the planner should see (to update instead of duplicating):
// one BM25 query over the word index with the message's rarest topic words OR-ed, inside the
// caller's view. It is not recall: ranking a turn's words through every recall path cost
// three quarters of a run at 10k memories, and a plan only needs the few memories that share
// its topic.
func (s *Service) candidates(ctx context.Context, vis recall.Visibility, msg string) ([]Candidate, error) {
	terms := candidateTerms(msg)
	if len(terms) == 0 {
		return nil, nil
	}
	df, err := s.o.Store.WordDocFreq(ctx, terms, dfLimit)
	if err != nil {
		return nil, err
	}
	picked := pickRare(terms, df)
	match := memory.BuildFTSQuery(strings.Join(picked, " "), "OR")
	if match == "" {
		return nil, nil
	}
	f := vis.Filter()
	f.NoDaily = true
	// Words left out as too common are still looked up among slugs (made from titles), where
	// few memories hold them: "coffee-habit" is the memory a turn about a coffee grinder would
	// update, even when hundreds of bodies mention coffee. An index range, not a title-column
	// full-text query, which decodes the common word's whole posting list (~40 ms at 10k).
	var titled []memory.RankedRID
	if common := leftOut(terms, df, picked); len(common) > 0 {
		if titled, err = s.o.Store.SlugsNamed(ctx, common, f, titledCandidates); err != nil {
			return nil, err
		}
	}
	ranked, err := s.o.Store.RankWords(ctx, match, candidateWeights, f, memory.TimeWindow{}, ContextCandidates)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var rids []int64
	for _, r := range append(titled, ranked...) {
		if !seen[r.RID] && len(rids) < ContextCandidates {
			seen[r.RID] = true
			rids = append(rids, r.RID)
		}
	}
	if len(rids) == 0 {
		return nil, nil
	}
	mems, err := s.o.Store.HydrateRIDs(ctx, rids, f, memory.TimeWindow{})
	if err != nil {
		return nil, err
	}
	var out []Candidate
	for _, rid := range rids {
		m := mems[rid]
		if m == nil || !vis.Allows(m) || m.Type == memory.TypeDaily {
			continue
		}
		out = append(out, Candidate{Slug: m.Slug, Scope: string(m.Scope), Type: string(m.Type), Title: m.Title, Reviewed: m.Reviewed})
	}
	return out, nil
}

// contextData is what one run knows besides the request.
type contextData struct {
	input     Input
	validator validator
	// priorPlanned are the hashes of the stored session's earlier messages put in the window
	// (priorTurns): context, planned by the runs of their own turns.
	priorPlanned []string
}

// priorTurns are the stored messages of the request's session that came before it, when the
// request holds fewer than ContextUserTurns of the person's messages. An agent's hook sends
// only the entries that are new since its last call, so the window held one turn, and the
// model never saw the turns before it ("the last 4 user turns", DESIGN §6). The api records
// the request's messages before the run, so they are found in the stored session. Only the
// messages recorded in the run's project are read: one session id used from two projects
// never lends one project's conversation to the other's run.
func (s *Service) priorTurns(ctx context.Context, req Request, vis recall.Visibility) []Message {
	users := 0
	for _, m := range req.Messages {
		if m.Role == "user" {
			users++
		}
	}
	if req.SessionID == "" || users >= ContextUserTurns {
		return nil
	}
	stored, err := s.o.Store.SessionTurnsIn(ctx, req.Agent, req.SessionID, vis.ProjectKey())
	if err != nil || len(stored) == 0 {
		return nil
	}
	ids, texts := map[string]bool{}, map[string]bool{}
	for _, m := range req.Messages {
		if m.ID != "" {
			ids[m.ID] = true
		}
		// As the session stored it: a message over 16 KiB is stored cut, and its whole text
		// never matched its stored copy, which came back as an earlier turn (twice in the
		// prompt).
		texts[m.Role+"\x00"+memory.StoredTurnText(m.Content)] = true
	}
	// What comes before the first stored message the request holds: a request that carries
	// its own history takes nothing twice.
	end := len(stored)
	for i, t := range stored {
		if (t.MsgID != "" && ids[t.MsgID]) || texts[t.Role+"\x00"+t.Content] {
			end = i
			break
		}
	}
	var prior []Message
	for _, t := range stored[:end] {
		if t.Role == "user" || t.Role == "assistant" {
			prior = append(prior, Message{Role: t.Role, Content: t.Content, ID: t.MsgID})
		}
	}
	return prior
}

// buildContext gathers the compact context of one run: the turn window, the candidates the
// caller may see, the rejections within the caller's view, what this turn already wrote and
// the quota headroom of the caller's scopes.
func (s *Service) buildContext(ctx context.Context, req Request, vis recall.Visibility, written []string, turn int, now time.Time) (contextData, error) {
	last, _, _ := lastUser(req.Messages)
	prior := s.priorTurns(ctx, req, vis)
	in := Input{Request: req, Turns: window(append(append([]Message{}, prior...), req.Messages...)), WrittenThisTurn: written, Now: now,
		ProjectPinned: vis.Workdir() != "" && projectPinned(last.Content)}
	var priorPlanned []string
	for _, m := range window(prior) {
		if m.Role == "user" {
			priorPlanned = append(priorPlanned, ContentHash(m.Content))
		}
	}
	in.Request.Workdir = vis.Workdir()
	v := validator{workdir: vis.Workdir(), projectKey: vis.ProjectKey(), agent: vis.Agent(), pinned: in.ProjectPinned,
		evidence: projectEvidence(vis.Workdir(), req.WorkspaceMutations), rejected: map[string]bool{},
		written: map[string]bool{}, headroom: map[string]int{}, limit: s.o.Store.QuotaLimit(),
		source: memory.Source{Kind: "extraction", Agent: req.Agent, Session: req.SessionID, Turn: turn}}
	if req.SessionTurn > 0 {
		v.source.Turn = req.SessionTurn
	}
	for _, w := range written {
		v.written[w] = true
	}
	for _, m := range append(append([]Message{}, prior...), req.Messages...) {
		if m.Role == "user" {
			v.userTexts = append(v.userTexts, m.Content)
		}
	}
	cands, err := s.candidates(ctx, vis, cutText(last.Content, ContextMessageChars))
	if err != nil {
		return contextData{}, err
	}
	in.Candidates = s.identityCandidates(ctx, vis, cands)
	rejs, err := s.o.Store.ActiveRejections(ctx, 200)
	if err != nil {
		return contextData{}, err
	}
	for _, r := range rejs {
		if vis.AllowsKey(r.Scope, r.ScopeKey) {
			v.rejected[scopeRef(r.Scope, r.ScopeKey, r.Slug)] = true
			in.Rejected = append(in.Rejected, r.Slug)
		}
	}
	for _, sc := range vis.Scopes() {
		key := v.key(sc)
		used, err := s.o.Store.ScopeUsed(ctx, sc, key)
		if err != nil {
			return contextData{}, err
		}
		v.headroom[scopeRef(sc, key, "")] = v.limit - used
	}
	v.lookup = func(scope memory.Scope, slug string) *memory.Memory {
		m, err := s.o.Store.GetBySlug(ctx, scope, vis.Workdir(), vis.Agent(), slug)
		if err != nil || !vis.Allows(m) {
			return nil
		}
		return m
	}
	v.resolve = func(slug string) memory.Scope {
		for _, sc := range vis.Scopes() {
			if _, err := s.o.Store.GetBySlug(ctx, sc, vis.Workdir(), vis.Agent(), slug); err == nil {
				return sc
			}
		}
		return memory.ScopeGlobal
	}
	return contextData{input: in, validator: v, priorPlanned: priorPlanned}, nil
}
