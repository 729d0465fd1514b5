package extraction

import "testing"

// TestOfflineZhWorkplaceIsNotAPlace: "我在X工作/上班" read X as where the person lives
// whatever it named, so "我在腾讯上班" and "我在阿里巴巴工作" were stored as 所在地：腾讯 and
// 所在地：阿里巴巴. A place (a known one, or one named as a city, district or county) is still
// where the person is; anything else is their work, in words true either way.
func TestOfflineZhWorkplaceIsNotAPlace(t *testing.T) {
	for _, tc := range []struct{ msg, slug, title string }{
		{"我在阿里巴巴工作", "user-work", "工作：在阿里巴巴工作"},
		{"我在腾讯上班。", "user-work", "工作：在腾讯上班"},
		{"我现在在字节跳动上班", "user-work", "工作：现在在字节跳动上班"},
		{"我在深圳工作", "user-location", "所在地：深圳"},
		{"我在上海市工作", "user-location", "所在地：上海市"},
		{"我在北京生活", "user-location", "所在地：北京"},
		{"我在美团生活", "user-location", "所在地：美团"}, // 生活 names where one lives, not works
	} {
		out := planIn(t, userInput(tc.msg, ""))
		if len(out.Plan.Items) != 1 || out.Plan.Items[0].Slug != tc.slug || out.Plan.Items[0].Description != tc.title {
			t.Errorf("%q: %+v, want %s %q", tc.msg, out.Plan.Items, tc.slug, tc.title)
		}
	}
}
