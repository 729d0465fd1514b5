package graph

import (
	"context"
	"strings"

	"engram/backend/memory"
	"engram/backend/text/wikilink"
)

// A person's graph edits are rewrites of the memory bodies that state the graph, applied
// through ApplyBatch like any other change (audited, version-checked, undoable from the
// trash), so the files stay the one truth and the graph follows them.

// rewrite is a new body (and optionally subject) for one memory.
type rewrite struct {
	m       *memory.Memory
	body    string
	subject *string
}

// subjectNorm is the normalised name of the entity m's subject-less relation lines are about.
func subjectNorm(m *memory.Memory) string {
	name, _ := m.SubjectEntity()
	if name == "" {
		return ""
	}
	return wikilink.Norm(name)
}

// apply writes the rewrites that change something as actor and returns the memories changed.
func (s *Service) apply(ctx context.Context, actor string, rs []rewrite) ([]MemoryRef, error) {
	var items []memory.Item
	var kept []rewrite
	for _, r := range rs {
		if r.body == r.m.Body && (r.subject == nil || *r.subject == r.m.Subject) {
			continue
		}
		body := r.body
		items = append(items, memory.Item{Op: memory.OpUpdate, ID: r.m.ID, Body: &body, Mode: "replace",
			Subject: r.subject, ExpectedVersion: r.m.Version})
		kept = append(kept, r)
	}
	if len(items) == 0 {
		return nil, &Error{Code: CodeNothingToChange, Msg: "no memory body says that"}
	}
	res, err := s.store.ApplyBatch(ctx, memory.Batch{Items: items, Actor: actor})
	if err != nil {
		return nil, err
	}
	out := []MemoryRef{}
	for i, r := range res.Results {
		if !r.OK {
			return out, &memory.Error{Code: r.Code, Args: r.Args, Msg: r.Message}
		}
		m := kept[i].m
		out = append(out, MemoryRef{ID: m.ID, Slug: r.Slug, Title: m.Title, Scope: m.Scope})
	}
	return out, nil
}

// memoriesOf reads the memories behind node i (those that mention it).
func (s *Service) memoriesOf(ctx context.Context, sn *snapshot, i int, v View) ([]*memory.Memory, error) {
	var out []*memory.Memory
	for _, ref := range sn.refs(sn.nodes[i].memories, v) {
		m, err := s.store.Get(ctx, ref.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// renameIn rewrites, in memories ms, every link whose name is in norms to name (keeping what
// the link showed as its label when keepText), and a subject in norms to name.
func renameIn(ms []*memory.Memory, norms map[string]bool, name string, keepText bool) []rewrite {
	var rs []rewrite
	for _, m := range ms {
		body := wikilink.Rewrite(m.Body, func(l wikilink.Link) (string, bool) {
			if !norms[wikilink.Norm(l.Target)] {
				return "", false
			}
			label := l.Label
			if keepText && label == "" && l.Target != name {
				label = l.Target
			}
			if label == name {
				// [[Carol|Caz]] renamed to Caz reads [[Caz]], not [[Caz|Caz]].
				label = ""
			}
			return wikilink.Link{Target: name, Label: label, Heading: l.Heading}.Raw(), true
		})
		r := rewrite{m: m, body: body}
		if norms[subjectNorm(m)] && len(wikilink.Parse(m.Body).Relations) > 0 || (m.Subject != "" && norms[wikilink.Norm(m.Subject)]) {
			sub := name
			r.subject = &sub
		}
		rs = append(rs, r)
	}
	return rs
}

func checkName(name string) error {
	if !wikilink.ValidName(name) {
		return &Error{Code: CodeInvalidName, Args: map[string]any{"Name": name}, Msg: "an entity name is one line of at most 120 characters without [ ] | and no # starting a heading (Acme#History)"}
	}
	return nil
}

// Rename gives an entity a new name in every memory that mentions it.
func (s *Service) Rename(ctx context.Context, v View, actor, ref, name string) ([]MemoryRef, error) {
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	sn, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	i, ok := sn.resolve(ref, v)
	if !ok {
		return nil, notFound(ref)
	}
	// A name another entity of the same scope instance already answers to (its name or an
	// alias, compared as the graph compares names) would fold the two into one without a word,
	// turn relations between them into self-relations and lose this entity's name: that is a
	// merge, which keeps the old name as an alias, so the person is sent there.
	if j, taken := sn.namedElsewhere(i, name); taken {
		other := sn.nodes[j].name
		return nil, &Error{Code: CodeNameTaken, Args: map[string]any{"Name": name, "Entity": other, "From": sn.nodes[i].name},
			Msg: "“" + name + "” already names the entity “" + other + "”: merge them instead"}
	}
	if err := sn.namesMemory(i); err != nil {
		return nil, err
	}
	if err := sn.memoryNamed(i, name); err != nil {
		return nil, err
	}
	ms, err := s.memoriesOf(ctx, sn, i, v)
	if err != nil {
		return nil, err
	}
	return s.apply(ctx, actor, renameIn(ms, map[string]bool{wikilink.Norm(sn.nodes[i].name): true}, name, false))
}

// memoryNamed refuses renaming node i to name when a link of that name written in its scope
// instance opens a memory (its slug or title there, or a global one's, by the reader's rule:
// memory.LinkIndex): the rename turned every mention of the entity into a link to a memory
// about something else, without a word.
func (sn *snapshot) memoryNamed(i int, name string) error {
	n := sn.nodes[i]
	m, ok := sn.links.Resolve(n.scope, n.key, name)
	if !ok {
		return nil
	}
	return &Error{Code: CodeNameIsMemory, Args: map[string]any{"Name": name, "From": n.name, "Slug": m.Slug, "Title": m.Title},
		Msg: "“" + name + "” names the memory " + m.Slug + ": every link to " + n.name + " would open it"}
}

// namesMemory refuses an edit that would rewrite the links of node i to another name when
// one of its names is a memory's slug or title: those links open that memory (the reader
// follows them, the graph counts it among the entity's memories), and a rename or merge
// rewrote them to a name no memory has, so every link to the memory broke without a word.
// The memory is renamed instead (its title), or another entity is merged into this one.
func (sn *snapshot) namesMemory(i int) error {
	n := sn.nodes[i]
	if len(n.linked) == 0 {
		return nil
	}
	m := sn.memories[n.linked[0]]
	return &Error{Code: CodeNamesMemory, Args: map[string]any{"Name": n.name, "Slug": m.Slug, "Title": m.Title},
		Msg: "“" + n.name + "” names the memory " + m.Slug + ": links to it open that memory, and a new name would break them"}
}

// namedElsewhere finds another node of node i's scope instance that name (normalised) names,
// as its name or an alias. Nodes of other instances never merge with i, so they do not count.
func (sn *snapshot) namedElsewhere(i int, name string) (int, bool) {
	key, n := wikilink.Norm(name), sn.nodes[i]
	for j, o := range sn.nodes {
		if j != i && o.scope == n.scope && o.key == n.key && o.norms[key] {
			return j, true
		}
	}
	return 0, false
}

// Merge folds entities from into into: their links are rewritten to into's name, showing the
// text they showed before (so each old name lives on as an alias). Entities of other scope
// instances are refused: the graph never merges across scopes.
func (s *Service) Merge(ctx context.Context, v View, actor, into string, from []string) ([]MemoryRef, error) {
	sn, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	t, ok := sn.resolve(into, v)
	if !ok {
		return nil, notFound(into)
	}
	target := sn.nodes[t]
	var rs []rewrite
	for _, ref := range from {
		i, ok := sn.resolve(ref, v)
		if !ok {
			return nil, notFound(ref)
		}
		n := sn.nodes[i]
		if i == t {
			continue
		}
		if n.scope != target.scope || n.key != target.key {
			return nil, &Error{Code: CodeInvalidName, Args: map[string]any{"Name": n.name},
				Msg: "entities of different scopes are never merged"}
		}
		if err := sn.namesMemory(i); err != nil {
			return nil, err
		}
		ms, err := s.memoriesOf(ctx, sn, i, v)
		if err != nil {
			return nil, err
		}
		rs = append(rs, renameIn(ms, n.norms, target.name, true)...)
	}
	return s.apply(ctx, actor, mergeRewrites(rs))
}

// mergeRewrites folds several rewrites of one memory (an entity merge touching it twice)
// into one: each was computed from the original body, so later ones are replayed on the first.
func mergeRewrites(rs []rewrite) []rewrite {
	byID := map[string]int{}
	var out []rewrite
	for _, r := range rs {
		if j, ok := byID[r.m.ID]; ok {
			// Apply r's change on top of out[j]'s body.
			out[j] = rewrite{m: out[j].m, body: redoBody(r, out[j].body), subject: pick(out[j].subject, r.subject)}
			continue
		}
		byID[r.m.ID] = len(out)
		out = append(out, r)
	}
	return out
}

func pick(a, b *string) *string {
	if b != nil {
		return b
	}
	return a
}

// redoBody applies the link changes r made to its original body onto body: links whose text
// r changed are changed the same way.
func redoBody(r rewrite, body string) string {
	before, after := wikilink.Parse(r.m.Body).Links, wikilink.Parse(r.body).Links
	if len(before) != len(after) {
		return r.body
	}
	change := map[string]wikilink.Link{}
	for k := range before {
		if before[k] != after[k] {
			change[before[k].Raw()] = after[k]
		}
	}
	return wikilink.Rewrite(body, func(l wikilink.Link) (string, bool) {
		if to, ok := change[l.Raw()]; ok {
			return to.Raw(), true
		}
		return "", false
	})
}
