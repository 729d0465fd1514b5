package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"engram/backend/api"
)

// graph queries and edits the knowledge graph: one api method per sub-verb.
//
//	engram graph entities [QUERY] [--type T] [--limit N]
//	engram graph neighbors NAME [--depth N]
//	engram graph path FROM TO [--max-hops N]
//	engram graph subgraph [NAME] [--depth N] [--limit N]
//	engram graph memories NAME
//	engram graph rename NAME NEW | merge INTO FROM... | delete NAME
//	engram graph relate SLUG|ID [--from A] TYPE TO | unrelate EDGE_ID
//
// --scope, --workdir and --agent narrow every one of them (and say where relate looks for a
// slug: global without them, as for show and update).
func (r *runner) graph(_ context.Context, args []string) error {
	var sc api.GraphScope
	var scope, types, from string
	var depth, limit, hops int
	pos, err := r.flags("graph", args, func(fs *flag.FlagSet) {
		fs.StringVar(&scope, "scope", "", "global, project or agent")
		fs.StringVar(&sc.Workdir, "workdir", "", "the project folder")
		fs.StringVar(&sc.Agent, "agent", "", "the agent")
		fs.StringVar(&types, "type", "", "entity types, comma separated")
		fs.StringVar(&from, "from", "", "relate: the entity the relation starts from (default: the memory's subject)")
		fs.IntVar(&depth, "depth", 0, "hops (1 to 3)")
		fs.IntVar(&limit, "limit", 0, "at most this many")
		fs.IntVar(&hops, "max-hops", 0, "longest path (1 to 6, default 4)")
	})
	if err != nil {
		return err
	}
	sc.Scope = api.Scope(scope)
	usage := r.t("cli.graph.usage", nil)
	if err := r.need("graph", usage, pos, 1); err != nil {
		return err
	}
	var typeList []string
	for _, t := range strings.Split(types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			typeList = append(typeList, t)
		}
	}
	g := r.api.Graph
	need := func(n int, what string) error { return r.need("graph "+pos[0], what, pos, n) }
	switch pos[0] {
	case "entities":
		q := strings.Join(pos[1:], " ")
		res, err := g.Entities(api.GraphEntitiesParams{GraphScope: sc, Query: q, Types: typeList, Limit: limit})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			for _, e := range res.Entities {
				// The scope tells apart two entities of one name (a global Carol and a project's).
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Type, scopeLabel(e.Scope, e.Workdir, e.Agent), e.Name,
					r.t("cli.graph.counts", map[string]any{"Memories": e.Memories, "Degree": e.Degree}))
			}
			r.graphMore(res.Truncated, len(res.Entities))
		})
	case "neighbors", "subgraph":
		var res any
		var err error
		if pos[0] == "neighbors" {
			if err := need(2, "NAME"); err != nil {
				return err
			}
			res, err = g.Neighbors(api.GraphNeighborsParams{GraphScope: sc, Entity: pos[1], Depth: depth, EntityTypes: typeList, Limit: limit})
		} else {
			res, err = g.Subgraph(api.GraphSubgraphParams{GraphScope: sc, Entity: strings.Join(pos[1:], " "), Depth: depth, EntityTypes: typeList, Limit: limit})
		}
		if err != nil {
			return err
		}
		sub := asSubgraph(res)
		r.out(res, func(w io.Writer) {
			printSubgraph(w, sub)
			r.graphMore(sub.truncated, sub.nodes)
		})
	case "path":
		if err := need(3, "FROM TO"); err != nil {
			return err
		}
		res, err := g.Path(api.GraphPathParams{GraphScope: sc, From: pos[1], To: pos[2], MaxHops: hops})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			if !res.Found && res.Longer > 0 {
				// Joined, but by more hops than were walked: "no path" said they were not.
				walked := hops
				if walked <= 0 {
					walked = api.GraphDefaultHops
				}
				fmt.Fprintln(w, r.t("cli.graph.path_longer", map[string]any{"From": pos[1], "To": pos[2], "Max": walked,
					"Hops": res.Longer, "Limit": api.GraphMaxHops}))
				return
			}
			if !res.Found {
				fmt.Fprintln(w, r.t("cli.graph.no_path", map[string]any{"From": pos[1], "To": pos[2]}))
				return
			}
			if len(res.Hops) == 0 && len(res.Nodes) == 1 {
				// Both ends name one entity: a path of no hops, which printed nothing at all.
				fmt.Fprintln(w, r.t("cli.graph.same_entity", map[string]any{"From": strings.TrimSpace(pos[1]), "To": strings.TrimSpace(pos[2]), "Name": res.Nodes[0].Name}))
				return
			}
			names := map[string]string{}
			for _, n := range res.Nodes {
				names[n.ID] = n.Name
			}
			for _, h := range res.Hops {
				var slugs []string
				for _, m := range h.Edge.Memories {
					slugs = append(slugs, m.Slug)
				}
				// A path may walk a relation against its direction: the arrow says which way the
				// memory states it ("Bob <-manages- Alice" is Alice manages Bob).
				arrow := "-" + h.Edge.Type + "->"
				if h.Edge.Source != h.From {
					arrow = "<-" + h.Edge.Type + "-"
				}
				fmt.Fprintf(w, "%s %s %s\t%s\n", names[h.From], arrow, names[h.To], strings.Join(slugs, ", "))
			}
		})
	case "memories":
		if err := need(2, "NAME"); err != nil {
			return err
		}
		res, err := g.EntityMemories(api.GraphEntityParams{GraphScope: sc, Entity: pos[1]})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			for _, m := range res.Memories {
				fmt.Fprintf(w, "%s\t%s\t%s\n", m.ID, m.Slug, m.Title)
			}
		})
	case "rename", "merge", "delete", "relate", "unrelate":
		res, err := r.graphEdit(sc, pos, from)
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			fmt.Fprintln(w, r.t("cli.graph.changed", map[string]any{"Count": len(res.Changed)}))
			for _, m := range res.Changed {
				fmt.Fprintf(w, "%s\t%s\n", m.ID, m.Slug)
			}
		})
	default:
		return usageError(usage)
	}
	return nil
}

func (r *runner) graphEdit(sc api.GraphScope, pos []string, from string) (api.GraphEditResult, error) {
	g := r.api.Graph
	need := func(n int, what string) error { return r.need("graph "+pos[0], what, pos, n) }
	switch pos[0] {
	case "rename":
		if err := need(3, "NAME NEW"); err != nil {
			return api.GraphEditResult{}, err
		}
		return g.RenameEntity(api.GraphRenameParams{GraphScope: sc, Entity: pos[1], Name: pos[2]})
	case "merge":
		if err := need(3, "INTO FROM..."); err != nil {
			return api.GraphEditResult{}, err
		}
		return g.MergeEntities(api.GraphMergeParams{GraphScope: sc, Into: pos[1], From: pos[2:]})
	case "delete":
		if err := need(2, "NAME"); err != nil {
			return api.GraphEditResult{}, err
		}
		return g.DeleteEntity(api.GraphEntityParams{GraphScope: sc, Entity: pos[1]})
	case "relate":
		if err := need(4, "SLUG|ID TYPE TO"); err != nil {
			return api.GraphEditResult{}, err
		}
		// SLUG|ID as given: the api resolves it in the scope the flags name.
		return g.AddRelation(api.GraphAddRelationParams{GraphScope: sc, Memory: pos[1], From: from, Type: pos[2], To: pos[3]})
	default:
		if err := need(2, "EDGE_ID"); err != nil {
			return api.GraphEditResult{}, err
		}
		return g.DeleteRelation(api.GraphDeleteRelationParams{GraphScope: sc, EdgeID: pos[1]})
	}
}

// graphMore says, on stderr, that a limit left entities out of the n printed: the text output
// printed the first 50 (or 200) as if they were the whole answer, and only --json said more.
func (r *runner) graphMore(truncated bool, n int) {
	if truncated {
		fmt.Fprintln(r.env.Stderr, r.t("cli.graph.more", map[string]any{"Count": n, "Max": api.GraphMaxLimit}))
	}
}

// subgraphLike is what neighbors and subgraph print.
type subgraphLike struct {
	names     map[string]string
	lines     []string
	nodes     int
	truncated bool
}

// asSubgraph prints one line per relation, "A -type-> B" and its id (what unrelate takes, which
// only --json showed), or the entities when there is no relation.
func asSubgraph(res any) subgraphLike {
	out := subgraphLike{names: map[string]string{}}
	sg := res.(api.GraphSubgraph)
	out.nodes, out.truncated = len(sg.Nodes), sg.Truncated
	for _, n := range sg.Nodes {
		out.names[n.ID] = n.Name
	}
	for _, e := range sg.Edges {
		out.lines = append(out.lines, fmt.Sprintf("%s -%s-> %s\t%s", out.names[e.Source], e.Type, out.names[e.Target], e.ID))
	}
	if len(sg.Edges) == 0 {
		for _, n := range sg.Nodes {
			out.lines = append(out.lines, n.Name)
		}
	}
	return out
}

func printSubgraph(w io.Writer, s subgraphLike) {
	for _, l := range s.lines {
		fmt.Fprintln(w, l)
	}
}
