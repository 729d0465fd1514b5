package memory

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"engram/backend/text/wikilink"
)

// PersonSubject is the entity relation lines of user and feedback memories are about when
// they name no subject: the person whose memories these are.
const PersonSubject = "User"

// Entity kinds the store infers from relation types and the grammar's #type hints.
const (
	KindPerson       = "person"
	KindOrganization = "organization"
	KindProject      = "project"
	KindTool         = "tool"
	KindPlace        = "place"
	KindConcept      = "concept"
	KindEvent        = "event"
)

// EntityKinds are the kinds a #type hint may name; anything else is read as concept.
var EntityKinds = []string{KindPerson, KindOrganization, KindProject, KindTool, KindPlace, KindConcept, KindEvent}

// relationKinds maps a relation type to the kinds of its two ends ("" when it says nothing).
var relationKinds = map[string][2]string{}

func init() {
	for kinds, rels := range map[[2]string][]string{
		{KindPerson, KindOrganization}: {"works_at", "works_for", "employed_by", "member_of", "founded", "就职于", "任职于", "工作于", "在职于", "创办"},
		{KindPerson, KindPlace}:        {"lives_in", "born_in", "from", "moved_to", "住在", "生于", "来自", "搬到"},
		{"", KindPlace}:                {"located_in", "based_in", "位于", "总部在"},
		{KindPerson, KindPerson}:       {"knows", "manages", "reports_to", "married_to", "friend_of", "colleague_of", "sibling_of", "parent_of", "child_of", "mentor_of", "认识", "同事", "朋友", "管理", "汇报给", "配偶", "妻子", "丈夫"},
		{"", KindTool}:                 {"uses", "prefers", "depends_on", "built_with", "written_in", "runs_on", "使用", "用", "偏好", "依赖"},
		{KindPerson, KindProject}:      {"works_on", "contributes_to", "maintains", "leads", "负责", "参与", "维护"},
		{"", KindEvent}:                {"attended", "参加"},
	} {
		for _, r := range rels {
			relationKinds[r] = kinds
		}
	}
}

// ValidKind reports whether k is a kind a #type hint may name.
func ValidKind(k string) bool {
	for _, x := range EntityKinds {
		if x == k {
			return true
		}
	}
	return false
}

// SubjectEntity is the entity a memory's subject-less relation lines are about, and its kind: the
// frontmatter subject, else the person for user and feedback memories, the project (its
// folder's name) for project memories; "" when none applies, and those lines relate nothing.
func (m *Memory) SubjectEntity() (name, kind string) {
	if s := strings.TrimSpace(m.Subject); s != "" {
		return s, ""
	}
	switch m.Type {
	case TypeUser, TypeFeedback:
		return PersonSubject, KindPerson
	case TypeProject:
		if m.Workdir != "" {
			return filepath.Base(m.Workdir), KindProject
		}
		if m.Scope == ScopeProject && m.ScopeKey() != "" {
			return "project-" + m.ScopeKey(), KindProject
		}
	}
	return "", ""
}

// graphPending is a memory whose graph rows a full rebuild writes after all the text.
type graphPending struct {
	rid int64
	m   *Memory
}

// graphMention is what one memory says of one entity.
type graphMention struct {
	name, label, kind string
	explicit          bool // kind came from a #type hint, which beats inference
}

// syncGraph replaces the graph rows memory rid states with what m's body says now, inside the
// transaction that indexes m, so the graph is never out of step with the index. Entities left
// with no mention are removed. Archived memories state nothing.
func syncGraph(ctx context.Context, x execer, rid int64, m *Memory) error {
	old, err := mentionedEntities(ctx, x, rid)
	if err != nil {
		return err
	}
	// A memory that mentioned nothing stated no relation either (both ends of one are mentions).
	for _, q := range []string{`DELETE FROM graph_mentions WHERE memory_rid = ?`, `DELETE FROM graph_relations WHERE memory_rid = ?`} {
		if len(old) == 0 {
			break
		}
		if _, err := x.ExecContext(ctx, q, rid); err != nil {
			return fmt.Errorf("memory: unable to clear graph rows: %w", err)
		}
	}
	if !m.Archived {
		if err := writeGraph(ctx, x, rid, m); err != nil {
			return err
		}
	}
	if err := dropOrphans(ctx, x, old); err != nil {
		return err
	}
	// A title or slug change can make a link name this memory: the graph changed either way.
	return bumpGraph(ctx, x)
}

func writeGraph(ctx context.Context, x execer, rid int64, m *Memory) error {
	p := wikilink.Parse(m.Body)
	if len(p.Links) == 0 {
		return nil
	}
	mentions := map[string]*graphMention{}
	var order []string
	note := func(name, label, kind string, explicit bool) string {
		k := wikilink.Norm(name)
		g, ok := mentions[k]
		if !ok {
			g = &graphMention{name: strings.TrimSpace(name)}
			mentions[k] = g
			order = append(order, k)
		}
		// Every label is kept (one per line: a label holds no newline): a merge writes each old
		// name as a label ([[Alice|Bob]], [[Alice|Robert]]), and keeping only the first lost the
		// others as names of the entity when one memory held two.
		if label != "" && !slices.Contains(strings.Split(g.label, "\n"), label) {
			if g.label != "" {
				g.label += "\n"
			}
			g.label += label
		}
		if kind != "" && (explicit || (!g.explicit && g.kind == "")) {
			g.kind, g.explicit = kind, g.explicit || explicit
		}
		return k
	}
	for _, l := range p.Links {
		note(l.Target, l.Label, "", false)
	}
	subject, subjectKind := m.SubjectEntity()
	type rel struct{ from, to, typ string }
	var rels []rel
	for _, r := range p.Relations {
		from, fromKind := r.From, ""
		if from == "" {
			if subject == "" || !wikilink.ValidName(subject) {
				continue
			}
			from, fromKind = subject, subjectKind
		}
		kinds := relationKinds[r.Type]
		if fromKind == "" {
			fromKind = kinds[0]
		}
		toKind, explicit := kinds[1], false
		if ValidKind(r.ToType) {
			toKind, explicit = r.ToType, true
		}
		rels = append(rels, rel{note(from, "", fromKind, false), note(r.To, "", toKind, explicit), r.Type})
	}
	ids, err := ensureEntities(ctx, x, m, order, mentions)
	if err != nil {
		return err
	}
	// One statement per chunk of rows, not per row: a cold build indexes every memory, and
	// parsing a statement per mention and relation was most of the graph's share of it.
	if err := insertRows(ctx, x, `INSERT INTO graph_mentions(entity, memory_rid, label, kind, spelling) VALUES `,
		` ON CONFLICT(entity, memory_rid) DO NOTHING`, 5, len(order), func(i int) []any {
			g := mentions[order[i]]
			return []any{ids[order[i]], rid, g.label, g.kind, g.name}
		}); err != nil {
		return fmt.Errorf("memory: unable to record mention: %w", err)
	}
	if err := insertRows(ctx, x, `INSERT INTO graph_relations(src, dst, rel, memory_rid) VALUES `, ` ON CONFLICT DO NOTHING`, 4, len(rels),
		func(i int) []any { return []any{ids[rels[i].from], ids[rels[i].to], rels[i].typ, rid} }); err != nil {
		return fmt.Errorf("memory: unable to record relation: %w", err)
	}
	return nil
}

// graphChunk is how many rows one graph statement writes (well under SQLite's variable limit).
const graphChunk = 100

// insertRows writes n rows of width values each (row(i) gives row i) with multi-row
// statements head VALUES (…),(…) tail.
func insertRows(ctx context.Context, x execer, head, tail string, width, n int, row func(i int) []any) error {
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", width), ",") + ")"
	for lo := 0; lo < n; lo += graphChunk {
		hi := min(n, lo+graphChunk)
		args := make([]any, 0, (hi-lo)*width)
		for i := lo; i < hi; i++ {
			args = append(args, row(i)...)
		}
		q := head + strings.TrimSuffix(strings.Repeat(one+",", hi-lo), ",") + tail
		if _, err := x.ExecContext(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

// ensureEntities returns the ids of the entities with keys norms in m's scope instance,
// creating those missing, named by the spelling this memory used (the smallest spelling seen
// names a stored entity, so the order files are indexed in does not matter; readers show the
// most common one). Entities never span scope instances: a project's "Alice" is not global "Alice".
func ensureEntities(ctx context.Context, x execer, m *Memory, norms []string, mentions map[string]*graphMention) (map[string]int64, error) {
	ids := make(map[string]int64, len(norms))
	scope, key := string(m.Scope), m.ScopeKey()
	for lo := 0; lo < len(norms); lo += graphChunk {
		hi := min(len(norms), lo+graphChunk)
		args := make([]any, 0, 4*(hi-lo))
		for _, k := range norms[lo:hi] {
			args = append(args, mentions[k].name, k, scope, key)
		}
		rows, err := x.QueryContext(ctx, `INSERT INTO graph_entities(name, norm, scope, scope_key) VALUES `+
			strings.TrimSuffix(strings.Repeat("(?,?,?,?),", hi-lo), ",")+
			` ON CONFLICT(scope, scope_key, norm) DO UPDATE SET name = min(name, excluded.name) RETURNING id, norm`, args...)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to record entities: %w", err)
		}
		for rows.Next() {
			var id int64
			var norm string
			if err := rows.Scan(&id, &norm); err != nil {
				rows.Close()
				return nil, fmt.Errorf("memory: unable to record entities: %w", err)
			}
			ids[norm] = id
		}
		err = rows.Close()
		if err == nil {
			err = rows.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("memory: unable to record entities: %w", err)
		}
	}
	for _, k := range norms {
		if _, ok := ids[k]; !ok {
			return nil, fmt.Errorf("memory: unable to record entity %q", mentions[k].name)
		}
	}
	return ids, nil
}

func mentionedEntities(ctx context.Context, x execer, rid int64) ([]int64, error) {
	rows, err := x.QueryContext(ctx, `SELECT entity FROM graph_mentions WHERE memory_rid = ?`, rid)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read mentions: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("memory: unable to read mentions: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// dropOrphans removes those of ids no memory mentions any more (relations go with them).
func dropOrphans(ctx context.Context, x execer, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	for _, id := range ids {
		if _, err := x.ExecContext(ctx, `DELETE FROM graph_entities WHERE id = ?
			AND NOT EXISTS (SELECT 1 FROM graph_mentions WHERE entity = ?)`, id, id); err != nil {
			return fmt.Errorf("memory: unable to drop entity: %w", err)
		}
		if _, err := x.ExecContext(ctx, `DELETE FROM graph_relations WHERE (src = ? OR dst = ?)
			AND NOT EXISTS (SELECT 1 FROM graph_entities WHERE id = ?)`, id, id, id); err != nil {
			return fmt.Errorf("memory: unable to drop relations: %w", err)
		}
	}
	return nil
}

// bumpGraph advances the graph generation every process compares its cached graph against.
func bumpGraph(ctx context.Context, x execer) error {
	if _, err := x.ExecContext(ctx, `UPDATE graph_state SET gen = gen + 1 WHERE k = 1`); err != nil {
		return fmt.Errorf("memory: unable to bump graph generation: %w", err)
	}
	return nil
}
