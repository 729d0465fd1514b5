package extraction

import (
	"sort"
	"strings"

	"engram/backend/text"
)

// profile collects the profile signals of one message (ZCLAW's user profile: role, industry,
// communication style, recent topics, pain points, preferred tools), each once, each with the
// person's words as its quote.
type profile struct {
	list []ProfileSignal
	seen map[string]bool
}

// profileMaxSignals bounds the signals of one message.
const profileMaxSignals = 12

// add records a signal; value and quote are clipped, the quote cut from where the value appears
// so it still shows it, and always a verbatim piece of the person's sentence.
func (p *profile) add(kind, value, sentence string) {
	value = clipRunes(oneLine(trimPunct(value)), 80)
	if value == "" || len(p.list) >= profileMaxSignals {
		return
	}
	key := kind + "\x00" + strings.ToLower(value)
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if p.seen[key] {
		return
	}
	p.seen[key] = true
	start := 0
	if i := strings.Index(strings.ToLower(sentence), strings.ToLower(value)); i > 0 && len(sentence) > offlineMaxQuoteBytes {
		start = i
		for start > 0 && start > i-20 && sentence[start-1] != ' ' {
			start--
		}
	}
	p.list = append(p.list, ProfileSignal{Kind: kind, Value: value, Quote: quoteAround(sentence, start, len(sentence))})
}

// tools is the lexicon of tools, languages and services a preference or topic may name.
var tools = func() map[string]string {
	names := []string{"Go", "Golang", "Python", "Rust", "Java", "JavaScript", "TypeScript", "Ruby", "Elixir",
		"PHP", "Swift", "Kotlin", "C++", "C#", "Scala", "Haskell", "Lua", "Dart", "Zig", "SQL", "React", "Vue",
		"Angular", "Svelte", "Next.js", "Django", "FastAPI", "Flask", "Rails", "Spring Boot", "Spring", "Node.js",
		"Node", "Deno", "Bun", "Docker", "Kubernetes", "k8s", "Terraform", "Ansible", "Postgres", "PostgreSQL",
		"MySQL", "SQLite", "Redis", "MongoDB", "Oracle", "Kafka", "Neovim", "Vim", "Emacs", "VS Code", "VSCode",
		"GoLand", "IntelliJ", "PyCharm", "WebStorm", "Xcode", "Android Studio", "Git", "GitHub", "GitLab", "pnpm",
		"npm", "yarn", "webpack", "Vite", "ESLint", "Prettier", "Jest", "Vitest", "pytest", "Cypress",
		"Playwright", "Tailwind", "pandas", "NumPy", "PyTorch", "TensorFlow", "AWS", "GCP", "Azure", "Fly.io",
		"Vercel", "Linux", "macOS", "Windows", "PowerShell", "bash", "zsh", "fish", "tmux", "Anki", "Notion",
		"Obsidian", "Figma", "Excel", "GraphQL", "gRPC", "Lombok", "testify", "Zod", "lodash", "Jira", "Slack",
		"Flutter", "Unity", "Blender", "Photoshop", "LazyVim", "Cursor", "Copilot", "ChatGPT", "Claude", "Hugo",
		"Nginx", "Grafana", "Prometheus", "Jenkins", "GitHub Actions", "mold", "sccache", "Bazel", "CMake"}
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = n
	}
	return m
}()

var toolWord = text.Lazy(`[a-z][a-z0-9+#.]*(?: (?:code|boot|studio|actions))?`)

// isTool reports whether w (any case, trailing punctuation ignored) is a known tool.
func isTool(w string) bool {
	_, ok := tools[strings.ToLower(strings.TrimRight(w, ".,;:!?"))]
	return ok
}

// toolsIn lists the known tools a lower-cased phrase names, in order of appearance, at most 4.
func toolsIn(l string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range toolWord.FindAllString(l, -1) {
		for _, cand := range []string{m, strings.Fields(m)[0], strings.TrimRight(m, ".")} {
			if n, ok := tools[cand]; ok && !seen[n] {
				seen[n] = true
				out = append(out, n)
				break
			}
		}
		if len(out) == 4 {
			break
		}
	}
	return out
}

// topics records the tools a sentence mentions as the person's recent topics (questions
// count: asking about Kafka says Kafka is on their mind). A hedged sentence and a negated or
// contrasted mention ("I never use vim", "Python but not Django") assert no topic.
func topics(s *sentence, ps *profile) {
	if hedged(s) {
		return
	}
	for _, t := range toolsIn(positiveOnly(s.lower)) {
		if strings.EqualFold(t, "go") && !strings.Contains(s.mask, "Go") {
			continue // "go" the verb
		}
		ps.add(SignalRecentTopic, t, s.orig)
	}
}

// sortedSignals orders signals by kind (stable within a kind) so plans are deterministic and
// easy to read.
func (p *profile) sortedSignals() []ProfileSignal {
	order := map[string]int{SignalRole: 0, SignalIndustry: 1, SignalCommStyle: 2, SignalPreferredTool: 3, SignalPainPoint: 4, SignalRecentTopic: 5}
	out := append([]ProfileSignal(nil), p.list...)
	sort.SliceStable(out, func(i, j int) bool { return order[out[i].Kind] < order[out[j].Kind] })
	return out
}
