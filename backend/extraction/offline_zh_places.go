package extraction

import "strings"

// zhPlaces are the places "我在X工作/上班" names often enough to be read as where the person
// is: China's provincial regions and larger cities, and the places abroad people most name.
// The same words name an employer as often ("我在腾讯上班", "我在阿里巴巴工作"), which were
// stored as 所在地：腾讯; a name neither here nor ending like a place is read as the work it
// is (工作：在腾讯上班), true whichever it names.
var zhPlaces = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Fields(`北京 天津 上海 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东
		河南 湖北 湖南 广东 海南 四川 贵州 云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆 香港 澳门
		深圳 广州 杭州 南京 苏州 成都 武汉 西安 长沙 郑州 青岛 厦门 大连 宁波 无锡 合肥 济南 福州 昆明 沈阳
		哈尔滨 长春 石家庄 太原 南昌 南宁 贵阳 兰州 海口 三亚 珠海 东莞 佛山 惠州 中山 温州 绍兴 嘉兴 常州
		徐州 烟台 泉州 拉萨 乌鲁木齐 呼和浩特 银川 西宁 绵阳 洛阳 扬州 南通 潍坊 台北 高雄
		东京 大阪 京都 首尔 新加坡 纽约 伦敦 巴黎 柏林 慕尼黑 悉尼 墨尔本 硅谷 旧金山 西雅图 洛杉矶 波士顿
		多伦多 温哥华 美国 日本 英国 德国 法国 加拿大 澳洲 澳大利亚 韩国 荷兰 瑞士 国外 海外 外地 本地 老家`) {
		m[p] = true
	}
	return m
}()

// zhKnownPlace reports whether s names a place: one of zhPlaces, or a name ending as a
// region, city, county or town does ("上海市", "朝阳区", "义乌市").
func zhKnownPlace(s string) bool {
	if zhPlaces[s] {
		return true
	}
	for _, suffix := range []string{"省", "市", "区", "县", "镇", "乡", "村", "州"} {
		if strings.HasSuffix(s, suffix) && len([]rune(s)) >= 2 {
			return true
		}
	}
	return false
}
