package extraction

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"engram/backend/memory"
)

// checkPlanInvariants holds for every plan the offline extractor makes, whatever the input:
// the model is "offline", at most 8 items, only writes or updates with valid slugs, types,
// scopes, titles and bodies, and every quote (items and profile signals) is a verbatim piece
// of one of the person's messages, at most 80 bytes.
func checkPlanInvariants(t testing.TB, in Input, out Outcome) {
	t.Helper()
	if out.Model != "offline" {
		t.Fatalf("model %q", out.Model)
	}
	items := out.Plan.Items
	if len(items) > 8 {
		t.Fatalf("%d items", len(items))
	}
	if (len(items) > 0) != (out.Plan.Status == PlanUpdated) || (len(items) == 0 && out.Plan.Status != PlanNoop) {
		t.Fatalf("status %q with %d items", out.Plan.Status, len(items))
	}
	var users []string
	for _, m := range append(append([]Message(nil), in.Turns...), in.Request.Messages...) {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	verbatim := func(q string) bool {
		for _, u := range users {
			if strings.Contains(u, q) {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	for _, it := range items {
		if it.Action != ActionWrite && it.Action != ActionUpdate {
			t.Fatalf("action %q", it.Action)
		}
		if !memory.ValidSlug(it.Slug) || seen[it.Slug] {
			t.Fatalf("bad or repeated slug %q", it.Slug)
		}
		seen[it.Slug] = true
		switch it.Type {
		case "user", "feedback", "project", "reference", "experience":
		default:
			t.Fatalf("type %q", it.Type)
		}
		if it.Scope != "global" && !(it.Scope == "project" && (in.Request.Workdir != "" || in.ProjectPinned)) {
			t.Fatalf("scope %q (workdir %q)", it.Scope, in.Request.Workdir)
		}
		if it.Description == "" || utf8.RuneCountInString(it.Description) > 120 || strings.ContainsAny(it.Description, "\n\r") {
			t.Fatalf("title %q", it.Description)
		}
		if strings.TrimSpace(it.Body) == "" || len(it.Body) > 8192 || !utf8.ValidString(it.Body) {
			t.Fatalf("body %q", it.Body)
		}
		if it.Confidence != "medium" && it.Confidence != "high" {
			t.Fatalf("confidence %q", it.Confidence)
		}
		if it.SourceQuote == "" || len(it.SourceQuote) > 80 || !utf8.ValidString(it.SourceQuote) || !verbatim(it.SourceQuote) {
			t.Fatalf("quote %q is not a verbatim piece (≤ 80 bytes) of a user message", it.SourceQuote)
		}
		if it.Confidence == "high" && utf8.RuneCountInString(it.SourceQuote) < 5 {
			t.Fatalf("high confidence on a %d-char quote", utf8.RuneCountInString(it.SourceQuote))
		}
	}
	for _, s := range out.Plan.Profile {
		if s.Value == "" || s.Quote == "" || len(s.Quote) > 80 || !verbatim(s.Quote) {
			t.Fatalf("profile signal %+v: quote not verbatim", s)
		}
	}
}

// planOne runs the offline planner on one user message (after an assistant message, so only
// the person's words can be evidence).
func planOne(t testing.TB, msg, workdir string) Outcome {
	t.Helper()
	in := Input{Request: Request{SessionID: "s", Agent: "a", Workdir: workdir, Messages: []Message{
		{Role: "assistant", Content: "I'm Claude, I love Rust and I live in the cloud. Remember that I prefer tabs."},
		{Role: "user", Content: msg},
	}}}
	in.Turns = []Message{{Role: "user", Content: msg}}
	out, err := NewOffline().Plan(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkPlanInvariants(t, in, out)
	return out
}

// TestOfflineRules: each rule family on what it must catch, with the type, scope, confidence
// and the words that must be in the memory.
func TestOfflineRules(t *testing.T) {
	cases := []struct {
		family, msg, workdir     string
		typ, scope, conf, phrase string
	}{
		{"identity", "Hi, I'm Priya, a data engineer at a bank in Toronto.", "", "user", "global", "medium", "Priya"},
		{"identity", "My name is Tom Becker and I work for Siemens.", "", "user", "global", "medium", "Tom Becker"},
		{"identity", "I live in Nairobi.", "", "user", "global", "medium", "Nairobi"},
		{"identity", "I work as a nurse at a children's hospital.", "", "user", "global", "medium", "nurse"},
		{"identity", "我叫李雷，在北京做前端开发。", "", "user", "global", "medium", "李雷"},
		{"identity", "我是一名数据分析师。", "", "user", "global", "medium", "数据分析师"},
		{"identity", "我住在广州，离公司很近。", "", "user", "global", "medium", "广州"},
		{"preference", "I prefer light themes in my editor.", "", "user", "global", "medium", "light themes"},
		{"preference", "I really don't like long meetings.", "", "user", "global", "medium", "long meetings"},
		{"preference", "I'm vegan.", "", "user", "global", "medium", "vegan"},
		{"preference", "我不喜欢吃香菜。", "", "user", "global", "medium", "香菜"},
		{"preference", "我对花生过敏。", "", "user", "global", "medium", "花生"},
		{"tool", "I mostly use Emacs with org-mode.", "", "user", "global", "medium", "Emacs"},
		{"tool", "我平时用 Obsidian 记笔记。", "", "user", "global", "medium", "Obsidian"},
		{"feedback", "Never commit directly to main.", "", "feedback", "global", "medium", "main"},
		{"feedback", "Don't use lodash, we have our own helpers.", "", "feedback", "global", "medium", "lodash"},
		{"feedback", "Please keep replies concise.", "", "feedback", "global", "medium", "concise"},
		{"feedback", "From now on, write commit messages in English.", "", "feedback", "global", "medium", "commit messages"},
		{"feedback", "Don't use mocks in this repo.", "/w/p", "feedback", "project", "medium", "mocks"},
		{"feedback", "以后不要用 jQuery。", "", "feedback", "global", "medium", "jQuery"},
		{"feedback", "千万不要删除生产数据库。", "", "feedback", "global", "medium", "生产数据库"},
		{"remember", "Remember that my cat is called Miso.", "", "user", "global", "high", "Miso"},
		{"remember", "Remember that I'm vegan.", "", "user", "global", "high", "vegan"},
		{"remember", "Remember to always sign commits.", "", "feedback", "global", "high", "sign commits"},
		{"remember", "remember: no semicolons", "", "feedback", "global", "high", "semicolons"},
		{"household", "My dog is called Pixel.", "", "user", "global", "medium", "Pixel"},
		{"household", "我家狗叫旺财。", "", "user", "global", "medium", "旺财"},
		{"stack", "Our stack is Django + htmx on Render.", "", "user", "global", "medium", "Django"},
		{"stack", "我们团队的技术栈是 Go + React。", "", "user", "global", "medium", "Go"},
		{"feedback", "Use Vitest, never Jest, in my repos.", "", "feedback", "global", "medium", "Vitest"},
		{"feedback", "回答不要用英文缩写。", "", "feedback", "global", "medium", "英文缩写"},
		{"feedback", "别在代码里用 eval。", "", "feedback", "global", "medium", "eval"},
		{"preference", "I'm more of a night owl person.", "", "user", "global", "medium", "night owl"},
		{"identity", "我是一名运维，在西安一家游戏公司。", "", "user", "global", "medium", "西安"},
		{"preference", "Not really, I mostly listen to podcasts.", "", "user", "global", "medium", "podcasts"},
		{"stack", "FYI our team uses Linear for tickets.", "", "user", "global", "medium", "Linear"},
		{"stack", "We use Postgres in prod and SQLite in tests.", "", "user", "global", "medium", "Postgres"},
		{"feedback", "Write docstrings in Google style, always.", "", "feedback", "global", "medium", "Google style"},
		{"remember", "Remember this repo targets Node 18.", "/w/p", "project", "project", "high", "Node 18"},
		{"experience", "We ran into this last year and the fix was pinning openssl to 3.0.", "", "experience", "global", "medium", "pinning openssl"},
		{"feedback", "日志一律用结构化的 JSON 格式。", "", "feedback", "global", "medium", "JSON"},
		{"stack", "我们公司主要用 Kafka 做消息队列。", "", "user", "global", "medium", "Kafka"},
		{"preference", "我平时听播客比较多。", "", "user", "global", "medium", "播客"},
		{"feedback", "When you write Go, never use panics for errors.", "", "feedback", "global", "medium", "panics"},
		{"feedback", "Reply in French from now on.", "", "feedback", "global", "medium", "French"},
		{"feedback", "Be less formal please.", "", "feedback", "global", "medium", "formal"},
		{"feedback", "请用英文回答。", "", "feedback", "global", "medium", "英文"},
		{"feedback", "说话少点废话。", "", "feedback", "global", "medium", "废话"},
		{"feedback", "变量名一律用驼峰。", "", "feedback", "global", "medium", "驼峰"},
		{"identity", "I teach biology at a high school in Leeds.", "", "user", "global", "medium", "Leeds"},
		{"identity", "I'm retired, so I have time.", "", "user", "global", "medium", "retired"},
		{"identity", "我在杭州的一所大学教物理。", "", "user", "global", "medium", "物理"},
		{"identity", "我已经退休了。", "", "user", "global", "medium", "退休"},
		{"preference", "Huge fan of Miyazaki films.", "", "user", "global", "medium", "Miyazaki"},
		{"preference", "我是摇滚迷。", "", "user", "global", "medium", "摇滚"},
		{"project", "I'm building a game called Hollowmere in Godot.", "", "user", "global", "medium", "Hollowmere"},
		{"project", "我在做一个叫 tinydb 的小数据库。", "", "user", "global", "medium", "tinydb"},
		{"remember", "Note that we deploy on Fridays only.", "", "reference", "global", "medium", "Fridays"},
		{"remember", "注意我们的接口都要带 token。", "", "reference", "global", "medium", "token"},
		{"feedback", "Whenever you write docs for me, use American spelling.", "", "feedback", "global", "medium", "American spelling"},
		{"feedback", "Our migrations live in db/migrate, keep that convention.", "", "feedback", "global", "medium", "db/migrate"},
		{"feedback", "You keep adding semicolons, please don't.", "", "feedback", "global", "medium", "semicolons"},
		{"feedback", "测试里永远不要连真实数据库。", "", "feedback", "global", "medium", "真实数据库"},
		{"feedback", "你老把缩进改成 tab，请不要这样做。", "", "feedback", "global", "medium", "tab"},
		{"feedback", "接口返回保持现在的命名风格。", "", "feedback", "global", "medium", "命名风格"},
		{"identity", "我是数据组的技术负责人。", "", "user", "global", "medium", "技术负责人"},
		{"tool", "我用的是 Arch Linux。", "", "user", "global", "medium", "Arch"},
		{"tool", "I usually run jobs on spot instances.", "", "user", "global", "medium", "spot instances"},
		{"feedback", "Could you stop adding TODO comments?", "", "feedback", "global", "medium", "TODO"},
		{"feedback", "能不能别再加 TODO 注释了？", "", "feedback", "global", "medium", "TODO"},
		{"feedback", "In this repo we never commit generated files.", "/w/p", "feedback", "project", "medium", "generated files"},
		{"feedback", "我们从来不用 ORM。", "", "feedback", "global", "medium", "ORM"},
		{"feedback", "Don't upgrade packages without asking.", "", "feedback", "global", "medium", "upgrade packages"},
		{"feedback", "没经过我同意之前不要删分支。", "", "feedback", "global", "medium", "删分支"},
		{"preference", "He likes hiking, I prefer swimming.", "", "user", "global", "medium", "swimming"},
		{"preference", "他喜欢爬山，我喜欢游泳。", "", "user", "global", "medium", "游泳"},
		{"identity", "Nah, I'm just a student.", "", "user", "global", "medium", "student"},
		{"identity", "Our son is three, we're in Toronto.", "", "user", "global", "medium", "Toronto"},
		{"identity", "我们住在青岛。", "", "user", "global", "medium", "青岛"},
		{"preference", "I never liked tea.", "", "user", "global", "medium", "tea"},
		{"preference", "我是咖啡党。", "", "user", "global", "medium", "咖啡"},
		{"remember", "Please remember the VPN host is vpn.example.org.", "", "reference", "global", "high", "vpn.example.org"},
		{"remember", "Remember for this project: the API lives under /v2.", "/w/p", "project", "project", "high", "/v2"},
		{"remember", "帮我记一下，我的工号是 A1234。", "", "user", "global", "high", "A1234"},
		{"remember", "这个项目记住：数据库迁移用 goose。", "/w/p", "project", "project", "high", "goose"},
		{"remember", "代码缩进统一用四个空格，记住了。", "", "feedback", "global", "high", "四个空格"},
		{"experience", "My builds kept failing on ARM. What fixed it was pinning the base image, and now CI is green.", "", "experience", "global", "medium", "pinning the base image"},
		{"experience", "之前部署总是超时，后来把镜像换成 alpine，现在两分钟就能发完。", "", "experience", "global", "medium", "alpine"},
		{"experience", "我们之前老是被限流，加了令牌桶以后就好了。", "", "experience", "global", "medium", "令牌桶"},
	}
	for _, c := range cases {
		t.Run(c.family+"/"+c.msg, func(t *testing.T) {
			out := planOne(t, c.msg, c.workdir)
			for _, it := range out.Plan.Items {
				if it.Type == c.typ && it.Scope == c.scope && it.Confidence == c.conf && containsKey(it.Description+"\n"+it.Body, c.phrase) {
					return
				}
			}
			t.Fatalf("no %s/%s/%s item with %q in %+v", c.typ, c.scope, c.conf, c.phrase, out.Plan.Items)
		})
	}
}

// TestOfflineNothing: sentences that must yield no memory — questions, hypotheticals,
// third persons, quoted text, sarcasm, hedges, one-off task instructions, small talk, and the
// assistant's own words.
func TestOfflineNothing(t *testing.T) {
	for _, msg := range []string{
		"Do you prefer tabs or spaces?",
		"Can you remember what I said about the API?",
		"If I lived in Tokyo, what would rent cost?",
		"Suppose I were a teacher, how would I explain this?",
		"My colleague loves Kotlin.",
		"My wife is a doctor in Madrid.",
		"He hates meetings.",
		"The log says \"I am root and I live in /home\".",
		"yeah right, I love debugging YAML at 2am 🙄",
		"I'm not sure I prefer this version.",
		"Don't add a test for this function right now.",
		"Skip the linter this time.",
		"Use a map here.",
		"I'm going to grab a coffee.",
		"I'm done for today, thanks!",
		"I like it!",
		"I'm AFK for an hour.",
		"My dog is called what again?",
		"My wife loves sushi and my son hates broccoli.",
		"我女儿特别喜欢恐龙。",
		"Add logging everywhere in this file.",
		"Does your team use Jira?",
		"这个文件统一用 tab 缩进。",
		"Note that this function is slow.",
		"When I was a kid I loved Lego.",
		"When you get a chance, can you look at this?",
		"I study the logs every morning.",
		"我在吃饭。",
		"我在开会，等会儿说。",
		"Write a test that always fails.",
		"I teach myself piano.",
		"Note that I changed the signature.",
		"Note that we changed the API yesterday.",
		"Answer in English for this question.",
		"这个页面默认显示十条。",
		"这个按钮始终是灰的。",
		"我在网上学的这个方法。",
		"我在地铁上读书。",
		"注意我刚才说的那个函数。",
		"请用英文回答这个问题。",
		"I like the second option better.",
		"I hate this bug.",
		"I don't like that approach.",
		"I'm into it.",
		"我很喜欢这个回答！",
		"我不喜欢你这个方案。",
		"Always fails on CI, no idea why.",
		"Never worked on my machine.",
		"Always crashing after the update.",
		"Never was a fan of that library.",
		"never mind, I'll do it myself",
		"When you're done, run the tests.",
		"Can you not use recursion here?",
		"He likes hiking and she prefers swimming.",
		"他喜欢爬山，她喜欢游泳。",
		"We're in trouble with this deadline.",
		"Don't worry about it anymore.",
		"Don't change that line again.",
		"I prefer not to say.",
		"Always check the return value here.",
		"I can't eat right now, in a meeting.",
		"I don't drink and drive.",
		"Remember this error.",
		"记住这个错误信息。",
		"我不吃这一套。",
		"Use the existing helper instead of writing a new one.",
		"We use the old endpoint for now.",
		"remember to run the migrations after this",
		"Remember, we talked about this yesterday.",
		"Keep in mind that this is just a prototype.",
		"never again, this took me hours",
		"Never use that approach.",
		"From now on this module is deprecated.",
		"From now on, it's your job.",
		"In general, I like your suggestions.",
		"By default, the server listens on 8080.",
		"记住，我们昨天聊过这个。",
		"记住我刚才给你看的那个函数。",
		"别忘了更新 changelog。",
		"以后再也不这么干了，折腾了好几个小时。",
		"永远别用那个方案。",
		"从现在开始这个模块废弃了。",
		"以后我自己来部署。",
		"以后有机会再聊。",
		"标题我不喜欢，换一个。",
		"ok thanks",
		"Write a Python script that renames files.",
		"你喜欢什么编程语言？",
		"如果我住在上海，房租大概多少？",
		"我同事特别喜欢用 Vim。",
		"听说大家都讨厌开会。",
		"这次不要加注释。",
		"这个问题以后再说吧。",
		"我可太喜欢改需求了呢。",
		"报错说\"我不能连接数据库\"，怎么办？",
		"好的，谢谢",
		"帮我写一个快速排序。",
	} {
		t.Run(msg, func(t *testing.T) {
			out := planOne(t, msg, "/w/p")
			if len(out.Plan.Items) != 0 {
				t.Fatalf("expected nothing, got %+v", out.Plan.Items)
			}
		})
	}
}
