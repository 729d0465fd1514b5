package recall

import (
	"slices"
	"strings"

	"engram/backend/text"
)

// titleLabels are the words a memory's title labels a facet with: a note titled "Tom's job",
// "Home and roots" or "口味" states that facet, whatever words its text uses.
var titleLabels = map[string]Facet{
	"name": FacetName, "names": FacetName, "nickname": FacetName, "nicknames": FacetName, "who i am": FacetName,
	"称呼": FacetName, "名字": FacetName, "姓名": FacetName, "昵称": FacetName, "外号": FacetName,
	"home": FacetHome, "address": FacetHome, "where i live": FacetHome, "住址": FacetHome, "住处": FacetHome,
	"地址": FacetHome, "居住地": FacetHome, "住所": FacetHome,
	"roots": FacetOrigin, "bg": FacetOrigin, "origin": FacetOrigin, "origins": FacetOrigin, "hometown": FacetOrigin,
	"background": FacetOrigin, "childhood": FacetOrigin, "老家": FacetOrigin, "家乡": FacetOrigin, "籍贯": FacetOrigin,
	"job": FacetWork, "work": FacetWork, "career": FacetWork, "occupation": FacetWork, "working life": FacetWork,
	"profession": FacetWork, "employment": FacetWork, "工作": FacetWork, "职业": FacetWork, "单位": FacetWork,
	"birthday": FacetAge, "bday": FacetAge, "dob": FacetAge, "age": FacetAge, "date of birth": FacetAge,
	"生日": FacetAge, "年龄": FacetAge, "出生": FacetAge, "出生信息": FacetAge,
	"food": FacetPreference, "drinks": FacetPreference, "likes": FacetPreference, "tastes": FacetPreference,
	"faves": FacetPreference, "prefs": FacetPreference, "preferences": FacetPreference, "favourites": FacetPreference, "favorites": FacetPreference, "hobbies": FacetPreference,
	"free time": FacetPreference, "leisure": FacetPreference, "diet": FacetPreference, "口味": FacetPreference,
	"爱好": FacetPreference, "兴趣": FacetPreference, "吃的": FacetPreference, "喝的": FacetPreference,
	"饮品": FacetPreference, "闲时": FacetPreference, "业余": FacetPreference,
	"downtime": FacetPreference, "spare time": FacetPreference, "pastimes": FacetPreference,
	"interests": FacetPreference, "allergies": FacetPreference, "dietary": FacetPreference, "忌口": FacetPreference,
	"过敏": FacetPreference, "饮食": FacetPreference, "吃喝": FacetPreference, "休闲": FacetPreference,
	"work history": FacetWork, "employer": FacetWork, "workplace": FacetWork, "工作经历": FacetWork,
	"current place": FacetHome, "where i'm based": FacetHome, "住的地方": FacetHome,
	"weekends": FacetPreference, "weekend": FacetPreference, "days off": FacetPreference, "off season": FacetPreference,
	"周末": FacetPreference, "休闲时间": FacetPreference,
	"小时候": FacetOrigin, "成长": FacetOrigin,
	"routine": FacetRoutine, "daily": FacetRoutine, "day": FacetRoutine, "daily routine": FacetRoutine, "schedule": FacetRoutine, "sleep": FacetRoutine,
	"作息": FacetRoutine, "日常作息": FacetRoutine, "生活规律": FacetRoutine,
	"commute": FacetCommute, "commuting": FacetCommute, "getting to work": FacetCommute, "通勤": FacetCommute,
	"family": FacetFamily, "kids": FacetFamily, "children": FacetFamily, "pets": FacetFamily, "pet": FacetFamily,
	"家人": FacetFamily, "家里人": FacetFamily, "家庭": FacetFamily, "宠物": FacetFamily,
	"health": FacetHealth, "medical": FacetHealth, "meds": FacetHealth, "medication": FacetHealth,
	"身体": FacetHealth, "健康": FacetHealth, "病史": FacetHealth, "体检": FacetHealth,
}

// titleLabel is the facet a title's label names, if it names one.
func titleLabel(s string) (Facet, bool) {
	if f, ok := titleLabels[s]; ok {
		return f, true
	}
	if f, ok := moreTitleLabels[s]; ok {
		return f, true
	}
	for _, labels := range []map[string]Facet{mannerTitleLabels, moneyTitleLabels, roundTitleLabels, conceptLabels()} {
		if f, ok := labels[s]; ok {
			return f, true
		}
	}
	return "", false
}

// reTitleParts splits a title into its labels ("Home and roots", "drinks + cab music", "住处和老家").
var reTitleParts = text.Lazy(`\s+(?:and|&|\+)\s+|\s*[,，、/+&]\s*|和|与`)

// reTitleOwner is a possessive before a label ("Tom's job").
var reTitleOwner = text.Lazy(`^[\p{L}.-]+(?:'s|’s)\s+`)

// titleFacets is the facets a memory's title labels: each part of the title made of labels
// only ("Food likes", "Working life"; in Chinese the whole part). "Job queue retries" labels
// nothing.
func titleFacets(title string) []Facet {
	title = foldDialect(strings.ToLower(strings.TrimSpace(title)))
	if title == "" || len(title) > 60 {
		return nil
	}
	title = reTitleOwner.ReplaceAllString(title, "")
	var out []Facet
	note := func(f Facet) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, part := range reTitleParts.Compiled().Split(title, -1) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if text.HasCJK(part) {
			if f, ok := titleLabel(part); ok {
				note(f)
			}
			continue
		}
		var found []Facet
		words := strings.Fields(part)
		for i := 0; i < len(words); i++ {
			if i+1 < len(words) {
				if f, ok := titleLabel(words[i] + " " + words[i+1]); ok {
					found = append(found, f)
					i++
					continue
				}
			}
			f, ok := titleLabel(words[i])
			if !ok {
				found = nil
				break
			}
			found = append(found, f)
		}
		for _, f := range found {
			note(f)
		}
	}
	return out
}
