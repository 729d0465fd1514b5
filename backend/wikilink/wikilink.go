// Package wikilink is a goldmark extension for the body grammar's `[[links]]` (DESIGN §8):
// `[[slug-or-title]]` and `[[Name|label]]` become anchors the reader can follow, to the
// memory the name resolves to, or else to the entity of that name in the graph. Links
// inside code spans and code blocks stay literal text, as goldmark never parses inline
// syntax there.
package wikilink

import (
	"net/url"
	"strings"
	"unicode/utf8"

	names "engram/backend/text/wikilink"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// maxName bounds a link's inside: a body is untrusted text, and a name longer than this is
// not a name.
const maxName = 300

// Kind is the node kind of a wikilink.
var Kind = gast.NewNodeKind("WikiLink")

// Node is one `[[Target|Label]]`. MemoryID and Title are set (by the caller, between parse
// and render) when Target names a memory: a link without a label then reads as the memory's
// title (a slug is no words for a person), one with a label as its label. EntityID, set by the
// caller for a link that names no memory, is the graph id of the entity the link names in the
// scope it is written in: a name alone found another scope's entity of that name (a project's
// [[Carol]] opened the global Carol).
type Node struct {
	gast.BaseInline
	Target   string
	Label    string
	MemoryID string
	Title    string
	EntityID string
	labelled bool
}

// Kind implements ast.Node.
func (n *Node) Kind() gast.NodeKind { return Kind }

// Dump implements ast.Node.
func (n *Node) Dump(source []byte, level int) {
	gast.DumpHelper(n, source, level, map[string]string{"Target": n.Target, "Label": n.Label, "MemoryID": n.MemoryID}, nil)
}

type inlineParser struct{}

func (inlineParser) Trigger() []byte { return []byte{'['} }

// Parse takes `[[…]]` on one line; anything else is left to the ordinary link parser.
func (inlineParser) Parse(_ gast.Node, block text.Reader, _ parser.Context) gast.Node {
	line, _ := block.PeekLine()
	if len(line) < 5 || line[0] != '[' || line[1] != '[' {
		return nil
	}
	end := -1
	for i := 2; i+1 < len(line); i++ {
		c := line[i]
		if c == '\n' || c == '\r' || c == '[' {
			return nil
		}
		if c == ']' {
			if line[i+1] != ']' {
				return nil
			}
			end = i
			break
		}
	}
	if end < 0 || end-2 > maxName {
		return nil
	}
	inside := string(line[2:end])
	if !utf8.ValidString(inside) {
		return nil
	}
	target, label, _ := strings.Cut(inside, "|")
	target = strings.TrimSpace(target)
	label = strings.TrimSpace(label)
	if target == "" {
		return nil
	}
	labelled := label != ""
	if !labelled {
		label = target
	}
	// "[[Acme#History]]" is a heading of Acme: the link goes to Acme (as the graph reads it,
	// text/wikilink.HeadingAt) and still reads as written; "[[C#]]" is C#.
	if i := names.HeadingAt(target); i > 0 {
		target = strings.TrimSpace(target[:i])
	}
	block.Advance(end + 2)
	return &Node{Target: target, Label: label, labelled: labelled}
}

type htmlRenderer struct{}

func (htmlRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(Kind, func(w util.BufWriter, _ []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		n := node.(*Node)
		esc := func(s string) { _, _ = w.Write(util.EscapeHTML([]byte(s))) }
		if n.MemoryID != "" {
			_, _ = w.WriteString(`<a class="wikilink wikilink-memory" href="#memory/`)
			esc(n.MemoryID)
			_, _ = w.WriteString(`" data-wikilink="`)
			esc(n.Target)
			_, _ = w.WriteString(`" data-memory-id="`)
			esc(n.MemoryID)
		} else {
			_, _ = w.WriteString(`<a class="wikilink wikilink-entity" href="#entity/`)
			esc(url.PathEscape(n.Target))
			_, _ = w.WriteString(`" data-wikilink="`)
			esc(n.Target)
			_, _ = w.WriteString(`" data-entity="`)
			esc(n.Target)
			if n.EntityID != "" {
				_, _ = w.WriteString(`" data-entity-id="`)
				esc(n.EntityID)
			}
		}
		_, _ = w.WriteString(`">`)
		if n.MemoryID != "" && n.Title != "" && !n.labelled {
			esc(n.Title)
		} else {
			esc(n.Label)
		}
		_, _ = w.WriteString(`</a>`)
		return gast.WalkSkipChildren, nil
	})
}

type wikiExt struct{}

// Extension adds `[[links]]` to a goldmark instance (parsed before ordinary links).
var Extension goldmark.Extender = wikiExt{}

func (wikiExt) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(inlineParser{}, 199)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(htmlRenderer{}, 199)))
}

// Links lists the wikilink nodes of a parsed document, in order.
func Links(doc gast.Node) []*Node {
	var out []*Node
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if l, ok := n.(*Node); ok && entering {
			out = append(out, l)
		}
		return gast.WalkContinue, nil
	})
	return out
}

// Targets lists the distinct targets of links, in first-seen order.
func Targets(links []*Node) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range links {
		if !seen[l.Target] {
			seen[l.Target] = true
			out = append(out, l.Target)
		}
	}
	return out
}
