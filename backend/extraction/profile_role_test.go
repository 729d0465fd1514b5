package extraction

import (
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// A Chinese role keeps the character that makes a field into the person doing it (数据分析师,
// 研究员, 护士长); the words such a character begins that are no part of the role stay out.
// The trigger: "我在一家银行做数据分析师" was stored as the role "数据分析".
func TestChineseRoleKeepsItsSuffix(t *testing.T) {
	cases := []struct{ said, role string }{
		{"我在一家银行做数据分析师。", "数据分析师"},
		{"我现在在医院当护士长。", "护士长"},
		{"我是一名数据研究员。", "数据研究员"},
		{"我是后端工程师。", "后端工程师"},
		{"我在公司做开发长期加班。", "开发"},
		{"我在公司做设计，家里人都支持。", "设计"},
	}
	for _, c := range cases {
		t.Run(c.said, func(t *testing.T) {
			_, signals := analyse(c.said)
			var roles []string
			for _, s := range signals {
				if s.Kind == SignalRole {
					roles = append(roles, s.Value)
				}
			}
			if len(roles) != 1 || roles[0] != c.role {
				t.Fatalf("roles %q, want %q", roles, c.role)
			}
		})
	}
}

// A newer role (and industry) replaces the older line of the person-profile memory instead of
// piling up beside it, while list kinds (tools, topics) and the person's own lines stay; the
// derived profile shows one role even for a body written before. The trigger: the profile held
// "role: backend engineer" and "role: 数据分析" at once.
func TestProfileKeepsOneRole(t *testing.T) {
	f := newFx(t, NewOffline())
	f.run(turn("s1", "I'm a backend engineer and I use Neovim every day."))
	m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", ProfileSlug)
	if err != nil || !strings.Contains(m.Body, "- role: backend engineer") {
		t.Fatalf("first profile %+v %v", m, err)
	}
	// The person adds a note of their own to the profile.
	note := m.Body + "\nPrefers examples over theory."
	if res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpUpdate,
		Slug: ProfileSlug, Scope: memory.ScopeGlobal, Body: &note, Mode: "replace"}}}); err != nil || !res.Results[0].OK {
		t.Fatalf("edit: %+v %v", res, err)
	}
	f.clock.Advance(time.Minute)
	d := f.run(turn("s1", "我在一家银行做数据分析师。"))
	m, err = f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", ProfileSlug)
	if err != nil || d.Status == StatusFailed {
		t.Fatalf("second run %+v %v", d.Report, err)
	}
	for _, want := range []string{"- role: 数据分析师", ": Neovim", "- industry: 金融", "Prefers examples over theory."} {
		if !strings.Contains(m.Body, want) {
			t.Errorf("profile lacks %q:\n%s", want, m.Body)
		}
	}
	if strings.Contains(m.Body, "backend engineer") || strings.Count(m.Body, "- role:") != 1 {
		t.Fatalf("the older role stayed:\n%s", m.Body)
	}
	p := DeriveProfile([]*memory.Memory{{ID: "P", Slug: ProfileSlug, Scope: memory.ScopeGlobal, Type: memory.TypeUser, Updated: t0,
		Body: "- role: backend engineer\n- role: 数据分析师\n- industry: 电商\n- industry: 金融"}}, t0)
	if len(p.Role) != 1 || p.Role[0].Value != "数据分析师" || len(p.Industry) != 1 || p.Industry[0].Value != "金融" {
		t.Fatalf("derived role %+v industry %+v, want the last of each", p.Role, p.Industry)
	}
}
