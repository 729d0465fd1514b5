package recall

import (
	"testing"

	"engram/backend/memory"
)

// A Chinese request or question that leaves its subject out and found nothing — its chunk
// ("泡杯茶", "猫买零食买") is no memory's substring — is answered by the person's notes that
// share its characters (one in the title, or two), those sharing most first; a request that
// shares only one character of a note's text still finds nothing, and so does one about code.
func TestChineseRequestFallback(t *testing.T) {
	for _, vectors := range []bool{false, true} {
		var opts []envOpt
		if vectors {
			opts = append(opts, withVectors)
		}
		e := newEnv(t, opts...)
		e.write(mem{slug: "cat", typ: memory.TypeUser, title: "猫", body: "养了一只橘猫叫汤圆，爱吃冻干鸡胸。"},
			mem{slug: "weekend", typ: memory.TypeUser, title: "周末", body: "周末早上练瑜伽，天气好就去爬山。喝茶只喝茉莉花茶。"},
			mem{slug: "dentist", typ: memory.TypeUser, title: "看牙", body: "牙医是华西口腔的李敏医生，预约电话 028-85501234。"},
			mem{slug: "trucking", typ: memory.TypeUser, title: "干活", body: "跑冷链货车，哈尔滨到大连，一趟来回四天。"},
			mem{slug: "build", typ: memory.TypeProject, title: "构建", body: "构建脚本在 scripts/build.sh。"})
		if vectors {
			e.embedAll()
		}
		for q, want := range map[string]string{
			"给猫买零食买什么好":   "cat",
			"牙疼了，该找谁看？":   "dentist",
			"这趟出车大概要几天回来": "trucking",
		} {
			res := e.search(q)
			if got := slugs(res); len(got) == 0 || got[0] != want || !res.Fallback {
				t.Errorf("vectors=%v: %s found %v (fallback %v), want %s first", vectors, q, got, res.Fallback, want)
			}
		}
		// One character in the text alone is not enough: 话 of 笑话 is in 电话, and 茶 of 泡杯茶
		// in 花茶 is found only when the title or a second character says so.
		for _, q := range []string{"给我讲个笑话", "这个函数为什么报错", "帮我泡杯茶"} {
			if got := slugs(e.search(q)); len(got) != 0 {
				t.Errorf("vectors=%v: %s found %v, want nothing", vectors, q, got)
			}
		}
	}
}
