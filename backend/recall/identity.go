package recall

import (
	"context"

	"engram/backend/memory"
	"engram/backend/text"
)

// Identity and preference questions ("what is my name", "where do I live", "我叫什么名字",
// "我住在哪里", "what do I like to drink") ask about the person, and the person lives in `user`
// memories. Their words are poor search terms: "live" also finds "the spec lives in docs/",
// "叫" also finds "我的猫叫豆豆". So a question is read for the facet it asks about (name, home,
// origin, work, age, preference) and the user memories that state that facet of the person
// are searched directly and put first; everything else keeps its ordinary rank below them.

// Facet is one thing a person can be asked about themselves.
type Facet string

// Facets.
const (
	FacetName       Facet = "name"
	FacetHome       Facet = "home"
	FacetOrigin     Facet = "origin"
	FacetWork       Facet = "work"
	FacetAge        Facet = "age"
	FacetPreference Facet = "preference"
)

// facetRule pairs the question forms that ask about a facet with the statement forms that
// answer it, both in English and Chinese. The statements are read only in user memories.
type facetRule struct {
	facet    Facet
	question *text.Regexp
	answer   *text.Regexp
}

var facetRules = []facetRule{
	{FacetName,
		text.Lazy(`(?i)\b(what(?:'s| is) my (?:full |first |last )?name|my name|who am i|what am i called|what do (?:people|you) call me)\b|我叫什么|我的名字|我是谁|我姓什么|怎么称呼我|我的全名`),
		text.Lazy(`(?im)\b(my (?:full |first |last )?name(?:'s| is)|i(?:'m| am) called|call me|(?:user|person)(?:'s name is| is called| is named))|^\s*name\s*:|我叫|我名叫|我的名字(?:是|叫)|叫我|我姓|本名|全名|姓名\s*[：:]|用户(?:叫|名叫|的名字)`)},
	{FacetHome,
		text.Lazy(`(?i)\b(where (?:do|did) i live|where i live|where am i (?:living|based|staying)|my (?:home ?town|home|address|city)|which city (?:do )?i live)\b|我住(?:在)?哪|我家在哪|我住的地方|我在哪(?:个城市|里)?(?:生活|住)|我的(?:住址|地址|家)|我住在什么`),
		text.Lazy(`(?im)\b(i live|i(?:'m| am) (?:living|based)|(?:user|person) (?:lives|is based|is living)|based in|i(?:'ve| have)? moved to|my (?:home|apartment|flat|house) is|home is in)\b|^\s*(?:lives|living) in\b|我住|我家在|家住|我(?:现在)?居住|定居|我在\p{Han}{1,8}生活|我搬到|所在地\s*[：:]|用户住`)},
	{FacetOrigin,
		text.Lazy(`(?i)\b(where am i from|where do i come from|where was i born|my home ?town)\b|我是哪里人|我来自哪|我的老家|我老家在哪|我在哪(?:里)?出生`),
		text.Lazy(`(?im)\b(i(?:'m| am) from|i come from|i grew up|(?:user|person) (?:is from|grew up)|born in [A-Za-z]|originally from|home ?town)\b|^\s*(?:from|grew up in)\b|我来自|老家|我出生在|出生于|土生土长|我是\p{Han}{1,6}人|籍贯\s*[：:]`)},
	{FacetWork,
		text.Lazy(`(?i)\b(what do i do(?: for (?:a )?(?:living|work))?|what is my (?:job|work|occupation|profession|role)|my (?:job|occupation|profession|employer|company)|where do i work)\b|我(?:是)?做什么(?:工作|的)|我的(?:工作|职业|公司|职位)|我在哪(?:里|家公司)?(?:工作|上班)|我是干什么的`),
		text.Lazy(`(?im)\b(i work|i(?:'m| am) an? \w+(?: \w+)? (?:at|for)|my (?:job|role|position) is|(?:user|person) (?:works|is an?)|i(?:'m| am) employed)\b|^\s*(?:role|work|job|works at|works as)\b|我在\p{Han}{1,12}(?:工作|上班)|我的工作是|我的职业是|我是(?:一名|一个)?\p{Han}{0,8}(?:师|员|经理|学生|医生|老师)|我就职|职业\s*[：:]|工作\s*[：:]|单位\s*[：:]`)},
	{FacetAge,
		text.Lazy(`(?i)\b(how old am i|my age|my birthday|when was i born|when is my birthday)\b|我多大|我几岁|我的年龄|我的生日|我哪(?:一)?年出生|我什么时候出生|我生日`),
		text.Lazy(`(?im)\b(i(?:'m| am) \d+|i was born|my birthday|my age is|(?:user|person) was born)\b|^\s*(?:born|birthday|age)\b|我\d+\s*岁|我今年|我的生日|我出生|我是\d{4}\s*年`)},
	{FacetPreference,
		text.Lazy(`(?i)\bwhat (?:do|did) i (?:like|love|prefer|enjoy|hate|dislike)|\bmy favou?rite|\bwhat (?:kind|sort|type) of \w+ (?:do )?i (?:like|love|prefer|enjoy)|\bhow do i (?:like|take) my|\bdo i (?:like|prefer)\b|我喜欢(?:什么|哪|喝什么|吃什么|听什么|看什么)|我爱(?:喝|吃|看|听|玩)?什么|我(?:最)?(?:偏好|喜爱)什么|我最喜欢|我的(?:爱好|偏好|口味|喜好)|我不喜欢什么|我讨厌什么`),
		text.Lazy(`(?im)\b(i (?:really |usually |always )?(?:like|love|prefer|enjoy|hate|dislike|adore|drink|eat)|(?:user|person) (?:likes|loves|prefers|enjoys|hates|dislikes|drinks|eats)|my favou?rite|i(?:'m| am) (?:a fan of|into))\b|^\s*(?:likes|loves|prefers|enjoys|hates|dislikes|drinks|eats)\b|喜欢|爱(?:喝|吃|看|听|玩)|偏好|喜爱|最爱|讨厌|口味|我(?:每天|平时|常常|经常)?(?:早上|晚上|中午|下午)?(?:喝|吃)`)},
}

// facetsOf names the facets a question asks about the person, if it is such a question.
func facetsOf(q string) []Facet {
	var out []Facet
	for _, r := range facetRules {
		if r.question.MatchString(q) {
			out = append(out, r.facet)
		}
	}
	return out
}

// answersFacet reports whether a user memory states one of the facets of the person.
func answersFacet(facets []Facet, m *memory.Memory) bool {
	if m == nil || m.Type != memory.TypeUser || len(facets) == 0 {
		return false
	}
	hay := m.Title + "\n" + m.Body
	for _, f := range facets {
		for _, r := range facetRules {
			if r.facet == f && r.answer.MatchString(hay) {
				return true
			}
		}
	}
	return false
}

// maxFacetScan bounds the user memories a facet question reads (the quota keeps a scope to
// 500 ordinary entries, so this is every user memory an agent can see in practice).
const maxFacetScan = 1500

// facetPath reads the visible user memories and returns those that state a facet the question
// asks about, in the store's order, each with the full score: they are the answer to an
// identity or preference question whatever words they use.
func (s *Service) facetPath(ctx context.Context, a Analysis, f memory.Filter) ([]memory.RankedRID, error) {
	if len(a.Facets) == 0 || (f.Type != "" && f.Type != memory.TypeUser) {
		return nil, nil
	}
	uf := f
	uf.Type = memory.TypeUser
	uf.Limit = maxFacetScan
	items, _, err := s.store.List(ctx, uf)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, m := range items {
		if answersFacet(a.Facets, m) {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	rids, err := s.store.RIDsOfIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]memory.RankedRID, 0, len(ids))
	for _, id := range ids {
		if rid := rids[id]; rid != 0 {
			out = append(out, memory.RankedRID{RID: rid, Score: 1})
		}
	}
	return out, nil
}
