package graph

import (
	"context"
	"strings"

	"engram/backend/memory"
	"engram/backend/text/wikilink"
)

// Delete takes an entity out of the graph without taking text out of any memory: every link
// to it becomes plain text (its label, or the name), so relation lines naming it stop being
// relations but still say what they said; relation lines about it as the memory's subject get
// the subject's name written in front ("- Carol knows [[Bob]]"); a subject naming it is
// cleared. A trustworthy store never loses what a memory says to a graph edit, and a body made
// only of relation lines never ends up empty (which the store refuses).
func (s *Service) Delete(ctx context.Context, v View, actor, ref string) ([]MemoryRef, error) {
	sn, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	i, ok := sn.resolve(ref, v)
	if !ok {
		return nil, notFound(ref)
	}
	ms, err := s.memoriesOf(ctx, sn, i, v)
	if err != nil {
		return nil, err
	}
	return s.apply(ctx, actor, unlinkIn(ms, sn.nodes[i].norms))
}

// unlinkIn is Delete's rewrite of memories ms for an entity known by the names in norms.
func unlinkIn(ms []*memory.Memory, norms map[string]bool) []rewrite {
	var rs []rewrite
	for _, m := range ms {
		body := m.Body
		if name, _ := m.SubjectEntity(); name != "" && norms[wikilink.Norm(name)] {
			body = wikilink.NameSubject(body, name, func(wikilink.Relation) bool { return true })
		}
		body = wikilink.Rewrite(body, func(l wikilink.Link) (string, bool) {
			if !norms[wikilink.Norm(l.Target)] {
				return "", false
			}
			if l.Label != "" {
				return l.Label, true
			}
			// The text the link showed ("Acme#History"), heading and all.
			return l.Target + l.Heading, true
		})
		r := rewrite{m: m, body: body}
		if m.Subject != "" && norms[wikilink.Norm(m.Subject)] {
			empty := ""
			r.subject = &empty
		}
		rs = append(rs, r)
	}
	return rs
}

// AddRelation appends a relation line to one memory's body: "- type [[to]]" from the
// memory's subject when from is empty, else "- [[from]] type [[to]]".
func (s *Service) AddRelation(ctx context.Context, v View, actor, memoryID, from, typ, to string) ([]MemoryRef, error) {
	m, err := s.store.Get(ctx, strings.TrimSpace(memoryID))
	if err != nil {
		return nil, err
	}
	if !v.allows(m.Scope, m.ScopeKey()) || m.Archived {
		return nil, &memory.Error{Code: memory.CodeNotFound, Args: map[string]any{"Ref": memoryID}, Msg: "no memory " + memoryID}
	}
	if from == "" {
		if name, _ := m.SubjectEntity(); name == "" {
			return nil, &Error{Code: CodeInvalidRelation, Args: map[string]any{"Type": typ},
				Msg: "this memory has no subject: name where the relation starts"}
		}
	}
	if err := checkName(strings.TrimSpace(to)); err != nil {
		return nil, err
	}
	if strings.TrimSpace(from) != "" {
		if err := checkName(strings.TrimSpace(from)); err != nil {
			return nil, err
		}
	}
	if s.oneEntity(ctx, m, from, to) {
		return nil, &Error{Code: CodeSelfRelation, Args: map[string]any{"Name": strings.TrimSpace(to)},
			Msg: "a relation joins two entities, and both ends name " + strings.TrimSpace(to)}
	}
	line, ok := wikilink.Format(strings.TrimSpace(from), typ, strings.TrimSpace(to), "")
	if !ok {
		return nil, &Error{Code: CodeInvalidRelation, Args: map[string]any{"Type": typ},
			Msg: "a relation type is one word of letters, digits and _ - . : (at most 64)"}
	}
	body := strings.TrimRight(m.Body, "\n")
	// A body ending in a code block left open (a fence never closed runs to the end) would take
	// the line in as code: it was written, said "1 memory rewritten", and the graph showed
	// nothing. The block is closed where it already ended, so it renders as before.
	if fence := wikilink.OpenFence(body); fence != "" {
		body += "\n" + fence
	}
	lines := strings.Split(body, "\n")
	switch {
	case body == "":
		body = line
	case strings.HasPrefix(strings.TrimSpace(lines[len(lines)-1]), "- "):
		body += "\n" + line
	default:
		body += "\n\n" + line
	}
	return s.apply(ctx, actor, []rewrite{{m: m, body: body}})
}

// DeleteRelation removes the lines stating an edge from every memory that states it.
func (s *Service) DeleteRelation(ctx context.Context, v View, actor, edgeID string) ([]MemoryRef, error) {
	sn, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	ei, ok := sn.edgeByID[strings.TrimSpace(edgeID)]
	if !ok || !sn.visible(sn.edges[ei].src, v) {
		return nil, &Error{Code: CodeEdgeNotFound, Args: map[string]any{"Edge": edgeID}, Msg: "no relation " + edgeID + " is visible here"}
	}
	e := sn.edges[ei]
	src, dst := sn.nodes[e.src].norms, sn.nodes[e.dst].norms
	var rs []rewrite
	var empty []string
	for _, ref := range sn.refs(e.memories, v) {
		m, err := s.store.Get(ctx, ref.ID)
		if err != nil {
			return nil, err
		}
		subj := subjectNorm(m)
		body := wikilink.DropRelations(m.Body, func(r wikilink.Relation) bool {
			from := subj
			if r.From != "" {
				from = wikilink.Norm(r.From)
			}
			return r.Type == e.typ && src[from] && dst[wikilink.Norm(r.To)]
		})
		if strings.TrimSpace(body) == "" {
			empty = append(empty, ref.Slug)
		}
		rs = append(rs, rewrite{m: m, body: body})
	}
	// A memory that says nothing but this relation would be left empty, which the store refuses:
	// say which, so the person deletes or edits that memory instead (nothing is changed).
	if len(empty) > 0 {
		return nil, &Error{Code: CodeWouldEmpty, Args: map[string]any{"Memories": strings.Join(empty, ", ")},
			Msg: "deleting this relation would leave " + strings.Join(empty, ", ") + " with no text"}
	}
	return s.apply(ctx, actor, rs)
}

// oneEntity reports whether a relation line in m from from (m's subject when empty) to to would
// join an entity to itself: the same name as the graph compares names, or two names of one
// entity (an alias) in m's scope instance. The graph draws no such relation, so the line was
// written and the person saw nothing change.
func (s *Service) oneEntity(ctx context.Context, m *memory.Memory, from, to string) bool {
	if strings.TrimSpace(from) == "" {
		from, _ = m.SubjectEntity()
	}
	if wikilink.Norm(from) == wikilink.Norm(to) {
		return true
	}
	sn, err := s.current(ctx)
	if err != nil {
		return false
	}
	in := View{Instances: []Instance{{Scope: m.Scope, Key: m.ScopeKey()}}}
	a, okA := sn.resolve(from, in)
	b, okB := sn.resolve(to, in)
	return okA && okB && a == b
}
