package wikilink

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// render parses body with GFM and wikilinks, resolves targets through ids, and renders.
func render(t *testing.T, body string, ids map[string]string) string {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, Extension))
	src := []byte(body)
	doc := md.Parser().Parse(text.NewReader(src))
	for _, l := range Links(doc) {
		l.MemoryID = ids[l.Target]
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestMemoryAndEntityLinks(t *testing.T) {
	got := render(t, "Works with [[alice-notes]] at [[Acme Corp]].", map[string]string{"alice-notes": "m_1"})
	want := `<p>Works with <a class="wikilink wikilink-memory" href="#memory/m_1" data-wikilink="alice-notes" data-memory-id="m_1">alice-notes</a>` +
		` at <a class="wikilink wikilink-entity" href="#entity/Acme%20Corp" data-wikilink="Acme Corp" data-entity="Acme Corp">Acme Corp</a>.</p>`
	if strings.TrimSpace(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPipeGivesTheLabel(t *testing.T) {
	got := render(t, "See [[Acme Corp|the company]] and [[ bob | Bob ]].", map[string]string{"bob": "m_2"})
	if !strings.Contains(got, `data-entity="Acme Corp">the company</a>`) {
		t.Fatalf("label after the pipe not used: %s", got)
	}
	if !strings.Contains(got, `data-wikilink="bob" data-memory-id="m_2">Bob</a>`) {
		t.Fatalf("spaces around target and label not trimmed: %s", got)
	}
}

func TestChineseNames(t *testing.T) {
	got := render(t, "我在[[阿里巴巴]]工作，见[[张三的笔记|笔记]]。", map[string]string{"张三的笔记": "m_3"})
	if !strings.Contains(got, `href="#entity/%E9%98%BF%E9%87%8C%E5%B7%B4%E5%B7%B4" data-wikilink="阿里巴巴" data-entity="阿里巴巴">阿里巴巴</a>`) {
		t.Fatalf("Chinese entity link: %s", got)
	}
	if !strings.Contains(got, `data-wikilink="张三的笔记" data-memory-id="m_3">笔记</a>`) {
		t.Fatalf("Chinese memory link: %s", got)
	}
}

func TestNotInsideCode(t *testing.T) {
	body := "Inline `[[NotALink]]` here.\n\n```\n[[AlsoNot]]\n```\n\n    [[IndentedNot]]\n\nBut [[Yes]]."
	got := render(t, body, nil)
	for _, lit := range []string{"<code>[[NotALink]]</code>", "[[AlsoNot]]", "[[IndentedNot]]"} {
		if !strings.Contains(got, lit) {
			t.Errorf("%q should stay literal in code: %s", lit, got)
		}
	}
	if strings.Count(got, `class="wikilink`) != 1 || !strings.Contains(got, `data-entity="Yes"`) {
		t.Fatalf("want exactly the one link outside code: %s", got)
	}
}

func TestWhatIsNotAWikilink(t *testing.T) {
	cases := []string{
		"[[]]",
		"[[ | label]]",
		"[[open only",
		"[[a]b]]",
		"[[two\nlines]]",
		"[[" + strings.Repeat("x", maxName+1) + "]]",
	}
	for _, c := range cases {
		if got := render(t, c, nil); strings.Contains(got, "wikilink") {
			t.Errorf("%q rendered a wikilink: %s", c, got)
		}
	}
	// An ordinary Markdown link still works beside a wikilink.
	got := render(t, "[site](https://example.com) and [[Name]]", nil)
	if !strings.Contains(got, `<a href="https://example.com">site</a>`) || !strings.Contains(got, `data-entity="Name"`) {
		t.Fatalf("ordinary link broken: %s", got)
	}
}

func TestHostileNamesAreEscaped(t *testing.T) {
	got := render(t, `[[x" onclick="alert(1)|<img src=x onerror=alert(1)>]]`, map[string]string{})
	if strings.Contains(got, `" onclick="`) || strings.Contains(got, "<img") {
		t.Fatalf("name not escaped: %s", got)
	}
	if !strings.Contains(got, `data-entity="x&quot; onclick=&quot;alert(1)"`) {
		t.Fatalf("escaped attribute missing: %s", got)
	}
}

func TestTargetsAreDistinctInOrder(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(Extension))
	src := []byte("[[B]] [[A]] [[B|again]] `[[C]]`")
	got := Targets(Links(md.Parser().Parse(text.NewReader(src))))
	if strings.Join(got, ",") != "B,A" {
		t.Fatalf("targets %v", got)
	}
}

// TestSlugLinkReadsAsTheTitle: a link written by slug showed the slug ("uses-neovim") in the
// reader; a memory link without a label reads as the memory's title, a label stays the label,
// and a name that resolves to no memory stays as written.
func TestSlugLinkReadsAsTheTitle(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, Extension))
	src := []byte("[[uses-neovim]], [[uses-neovim|my editor]] and [[Neovim]].")
	doc := md.Parser().Parse(text.NewReader(src))
	for _, l := range Links(doc) {
		if l.Target == "uses-neovim" {
			l.MemoryID, l.Title = "m_1", "Uses <Neovim>"
		}
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{`data-memory-id="m_1">Uses &lt;Neovim&gt;</a>`, `data-memory-id="m_1">my editor</a>`, `data-entity="Neovim">Neovim</a>`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}

// A heading after '#' links to the note or entity it is in, as the graph reads it; a '#'
// that ends a name is the name's ("[[C#]]" opened the entity C#'s page as "C").
func TestHeadingsAndSharpNames(t *testing.T) {
	got := render(t, "[[Acme#History]], [[deploy-notes#Steps]], [[C#]], [[C#/.NET|dotnet]]", map[string]string{"deploy-notes": "m_4"})
	for _, want := range []string{
		`href="#entity/Acme" data-wikilink="Acme" data-entity="Acme">Acme#History</a>`,
		`href="#memory/m_4" data-wikilink="deploy-notes" data-memory-id="m_4">deploy-notes#Steps</a>`,
		`href="#entity/C%23" data-wikilink="C#" data-entity="C#">C#</a>`,
		`href="#entity/C%23%2F.NET" data-wikilink="C#/.NET" data-entity="C#/.NET">dotnet</a>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}
