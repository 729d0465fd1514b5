package text

import (
	"strings"
	"sync"
)

// Concept is an everyday category: the words that name it (triggers) and words for things in
// it (members), in English and Chinese. A query that asks about a category ("what pets…",
// "养了什么宠物") should also find memories that only name a member ("my dog Max"); that is
// what a trained embedding model knows and a dictionary-free index does not.
type Concept struct {
	Name     string
	Triggers []string
	Members  []string
}

// concepts is a small general-purpose taxonomy of everyday life, written for this purpose; it
// is deliberately broad rather than fitted to any data set.
var concepts = []Concept{
	{"pets", f(`pet pets animal animals 宠物 动物`),
		f(`dog dogs puppy cat cats kitten turtle turtles tortoise fish hamster rabbit bunny bird parrot lizard snake horse guinea_pig 狗 小狗 猫 小猫 乌龟 鱼 仓鼠 兔子 鸟 鹦鹉 马`)},
	{"martial-arts", f(`martial_arts martial_art self-defense 武术 功夫`),
		f(`karate kickboxing taekwondo judo kung_fu boxing jiu-jitsu aikido muay_thai wrestling fencing tai_chi 空手道 跆拳道 柔道 拳击 太极 散打 摔跤`)},
	{"sports", f(`sport sports athletic 体育 运动 球类`),
		f(`basketball football soccer baseball tennis volleyball golf hockey swimming running cycling skiing snowboarding surfing boxing badminton rugby cricket skating marathon 篮球 足球 棒球 网球 排球 高尔夫 冰球 游泳 跑步 骑行 滑雪 冲浪 羽毛球 乒乓球 马拉松`)},
	{"outdoors", f(`outdoor outdoors outside 户外 野外`),
		f(`hiking hike camping camp surfing kayaking canoeing climbing fishing cycling biking skiing swimming picnic gardening walking beach mountains trail park 徒步 露营 冲浪 划船 攀岩 钓鱼 骑行 野餐 爬山 散步 海滩 公园`)},
	{"fitness", f(`exercise exercises workout workouts fitness gym 健身 锻炼`),
		f(`gym running jogging yoga weightlifting weights pilates cardio crossfit stretching treadmill squats 健身房 跑步 瑜伽 举重 普拉提 有氧`)},
	{"instruments", f(`instrument instruments 乐器`),
		f(`guitar piano violin drums drum ukulele flute saxophone cello trumpet bass harp clarinet keyboard 吉他 钢琴 小提琴 鼓 尤克里里 长笛 萨克斯 大提琴 小号`)},
	{"music", f(`music musical song songs band bands musician musicians artist artists concert playlist playlists tunes 音乐 歌曲 乐队 歌手 演唱会 歌单`),
		f(`pop rock jazz classical hip_hop rap country blues electronic folk metal singer album concert festival guitar piano violin 流行 摇滚 爵士 古典 嘻哈 说唱 民谣 歌手 专辑`)},
	{"genres", f(`genre genres 类型 题材`),
		f(`drama romance comedy horror thriller action sci-fi science_fiction fantasy mystery documentary animation adventure crime romantic 剧情 爱情 喜剧 恐怖 惊悚 动作 科幻 奇幻 悬疑 纪录片 动画 冒险`)},
	{"food", f(`food foods meal meals dish dishes cuisine eat ate dinner lunch breakfast 食物 饭 菜 美食 晚饭 午饭 早饭`),
		f(`pizza pasta salad salads sandwich sandwiches burger soup rice noodles sushi steak chicken curry tacos dessert desserts cake bread pie stew barbecue 披萨 意面 沙拉 三明治 汉堡 汤 米饭 面条 寿司 牛排 鸡肉 咖喱 甜点 蛋糕 面包 火锅 饺子`)},
	{"desserts", f(`dessert desserts sweets sweet treat treats 甜点 甜品`),
		f(`cake cakes cookies cookie pie ice_cream brownies cupcakes chocolate pudding muffins mousse tart donuts sundae 蛋糕 饼干 派 冰淇淋 巧克力 布丁 甜甜圈`)},
	{"drinks", f(`drink drinks beverage beverages 饮料 喝`),
		f(`coffee tea juice beer wine soda milk smoothie cocktail latte espresso 咖啡 茶 果汁 啤酒 红酒 葡萄酒 牛奶 奶茶 可乐`)},
	{"family", f(`family families relative relatives 家人 家庭 亲人 亲戚`),
		f(`mom mother dad father parents sister brother siblings son daughter kids children husband wife grandma grandmother grandpa grandfather aunt uncle cousin 妈妈 母亲 爸爸 父亲 父母 姐姐 妹妹 哥哥 弟弟 儿子 女儿 孩子 丈夫 老公 妻子 老婆 奶奶 爷爷 外婆 外公 阿姨 叔叔 表哥 表姐`)},
	{"children", f(`kid kids child children 孩子 小孩 子女`),
		f(`son sons daughter daughters baby toddler 儿子 女儿 宝宝 婴儿`)},
	{"career", f(`job jobs career careers profession occupation work 工作 职业 事业`),
		f(`office company boss manager promotion promoted position role employer colleague colleagues coworker coworkers business startup hired interview salary 公司 老板 经理 升职 同事 职位 上班 创业 面试 工资`)},
	{"friends", f(`friend friends friendship 朋友 友谊`),
		f(`buddy buddies pal pals mates bestie 好友 闺蜜 哥们`)},
	{"hobbies", f(`hobby hobbies interest interests pastime pastimes activity activities 爱好 兴趣 消遣 活动`),
		f(`reading writing painting drawing photography cooking baking gardening gaming hiking dancing singing knitting pottery camping swimming running travel collecting fishing yoga 阅读 写作 画画 绘画 摄影 做饭 烘焙 园艺 游戏 徒步 跳舞 唱歌 编织 陶艺 旅行 收藏 钓鱼`)},
	{"art", f(`art arts artwork artworks craft crafts creative 艺术 艺术品 手工`),
		f(`painting paintings drawing drawings sculpture pottery photography sketch sketches mural canvas watercolor ceramics 画 绘画 素描 雕塑 陶艺 摄影 壁画 油画 水彩`)},
	{"travel", f(`travel travels traveled trip trips vacation vacations journey holiday abroad 旅行 旅游 度假 出游 出国`),
		f(`flight flew visited visit tour road_trip hotel beach country city town abroad passport 飞机 航班 参观 酒店 海滩 城市`)},
	{"countries", f(`country countries nation nations abroad 国家 国外`),
		f(`usa america canada mexico uk england britain france germany italy spain portugal china japan korea india brazil australia sweden norway ireland scotland greece thailand vietnam netherlands switzerland 美国 加拿大 墨西哥 英国 法国 德国 意大利 西班牙 葡萄牙 中国 日本 韩国 印度 巴西 澳大利亚 瑞典 挪威 爱尔兰 希腊 泰国 越南`)},
	{"cities", f(`city cities town towns 城市 城`),
		f(`new_york los_angeles chicago seattle boston san_francisco london paris tokyo beijing shanghai rome berlin toronto sydney miami madrid barcelona amsterdam vienna dublin 纽约 洛杉矶 芝加哥 西雅图 波士顿 旧金山 伦敦 巴黎 东京 北京 上海 罗马 柏林 多伦多 悉尼 广州 深圳 杭州 成都`)},
	{"us-states", f(`state states`),
		f(`california texas florida new_york washington oregon colorado hawaii alaska arizona nevada utah michigan ohio illinois georgia virginia carolina massachusetts montana idaho maine vermont tennessee kentucky louisiana minnesota wisconsin iowa kansas missouri nebraska oklahoma pennsylvania jersey`)},
	{"places", f(`place places location locations destination destinations spot spots 地方 地点 目的地`),
		f(`city town country beach mountain mountains park lake island museum forest village castle river 城市 小镇 国家 海滩 山 公园 湖 岛 博物馆 森林 村 城堡 河`)},
	{"nature", f(`nature natural scenery 自然 风景 大自然`),
		f(`forest mountain mountains lake river ocean sea beach trees flowers sunset sunrise park garden wildlife stars hiking camping 森林 山 湖 河 海 海滩 树 花 日落 日出 公园 花园 星空`)},
	{"weather", f(`weather climate 天气 气候`),
		f(`rain rainy sunny snow storm wind windy hot cold cloudy temperature heat 雨 晴 雪 风暴 风 热 冷 阴天 气温`)},
	{"health", f(`health healthy illness sick medical 健康 疾病 生病 医疗`),
		f(`doctor hospital injury injured surgery pain medicine therapy clinic diagnosis checkup recovery rehab 医生 医院 受伤 手术 疼 药 治疗 诊所 康复 体检`)},
	{"feelings", f(`feel feeling feelings emotion emotions mood 感受 感觉 情绪 心情`),
		f(`happy sad excited nervous anxious proud grateful thankful scared afraid angry stressed calm relieved overwhelmed thrilled inspired lonely 开心 高兴 难过 伤心 兴奋 紧张 焦虑 骄傲 感激 害怕 生气 压力 平静 孤独`)},
	{"relaxing", f(`relax relaxing relaxation unwind stress 放松 解压 减压`),
		f(`calm meditation yoga running walk walks break peace peaceful bath nap music reading 冥想 瑜伽 散步 休息 平静`)},
	{"education", f(`education school study studies studying learn learning 教育 学校 学习 读书`),
		f(`college university class classes course courses degree exam exams teacher student students homework graduate graduation major 大学 课程 学位 考试 老师 学生 作业 毕业 专业`)},
	{"books", f(`book books reading literature read 书 书籍 阅读 文学`),
		f(`novel novels author authors series story stories poem poems poetry fiction memoir chapter 小说 作者 系列 故事 诗 诗歌`)},
	{"movies", f(`movie movies film films cinema 电影 影片`),
		f(`theater actor actress director trilogy series show shows screen 影院 演员 导演 电视剧`)},
	{"games", f(`game games gaming video_game video_games 游戏 电子游戏`),
		f(`console tournament esports playstation xbox nintendo switch pc controller 主机 比赛 电竞`)},
	{"vehicles", f(`vehicle vehicles transport transportation 交通 交通工具`),
		f(`car cars truck bike bicycle motorcycle bus train plane flight drive driving 汽车 车 卡车 自行车 摩托车 公交 火车 飞机 开车`)},
	{"home", f(`home house housing 家 房子 住房`),
		f(`apartment room kitchen garden yard moved moving rent neighborhood 公寓 房间 厨房 花园 院子 搬家 租房 邻居`)},
	{"clothing", f(`clothes clothing outfit outfits fashion wear 衣服 服装 穿搭 时尚`),
		f(`dress shirt shoes jacket jeans hat sweater coat boots 裙子 衬衫 鞋 外套 牛仔裤 帽子 毛衣 靴子`)},
	{"money", f(`money finance finances financial wealth income 钱 财务 收入 经济`),
		f(`salary savings budget debt rich wealthy afford expensive cheap cost paid investment 工资 存款 预算 债 富 贵 便宜 投资`)},
	{"charity", f(`charity charities volunteer volunteering cause causes community_service 慈善 公益 志愿`),
		f(`donation donate donated fundraiser shelter nonprofit community homeless food_bank 捐赠 捐款 义工 筹款 收容所`)},
	{"religion", f(`religion religious faith spiritual 宗教 信仰`),
		f(`church god pray prayer temple mosque bible 教堂 上帝 祈祷 寺庙 圣经`)},
	{"politics", f(`politics political policy 政治 政策`),
		f(`election vote voting government campaign liberal conservative rights activism protest 选举 投票 政府 竞选 权利`)},
	{"celebrations", f(`celebration celebrations celebrate party parties event events 庆祝 派对 聚会 活动`),
		f(`birthday wedding anniversary festival holiday concert parade graduation 生日 婚礼 纪念日 节日 音乐会 游行 毕业`)},
	{"holidays", f(`holiday holidays 节日 假日`),
		f(`christmas thanksgiving halloween easter new_year independence_day fourth_of_july valentine 圣诞 感恩节 万圣节 复活节 新年 春节 中秋 国庆`)},
	{"relationships", f(`relationship relationships partner dating romance 感情 恋爱 伴侣`),
		f(`boyfriend girlfriend husband wife married marriage engaged divorce single date 男朋友 女朋友 丈夫 妻子 结婚 婚姻 订婚 离婚 单身 约会`)},
	{"writing", f(`writing write writer writes 写作 写`),
		f(`story stories novel screenplay script poem blog article journal essay book 故事 小说 剧本 诗 博客 文章 日记`)},
	{"cooking", f(`cooking cook cooks baking bake recipe recipes 做饭 烹饪 烘焙 食谱`),
		f(`kitchen oven dish meal ingredients dinner 厨房 烤箱 菜 食材`)},
	{"technology", f(`technology tech computer computers 科技 技术 电脑`),
		f(`laptop phone software app apps code coding programming internet ai robot 笔记本 手机 软件 应用 编程 互联网 人工智能 机器人`)},
	{"social-media", f(`social_media 社交媒体`),
		f(`instagram facebook twitter tiktok youtube post posts followers blog 微博 微信 抖音 小红书 朋友圈`)},
	{"colors", f(`color colors colour colours 颜色`),
		f(`red blue green yellow purple pink orange black white brown 红 蓝 绿 黄 紫 粉 橙 黑 白`)},
}

// f splits a word list; "_" joins the words of a phrase.
func f(s string) []string {
	out := strings.Fields(s)
	for i, w := range out {
		out[i] = strings.ReplaceAll(w, "_", " ")
	}
	return out
}

// conceptIndex (built on first use: package init runs for `engram version` too) maps a trigger (a stemmed English word, a lower-case English phrase, or a
// Chinese word) to the concepts it names.
var conceptIndex = sync.OnceValue(func() map[string][]int {
	m := map[string][]int{}
	for i, c := range concepts {
		for _, t := range c.Triggers {
			m[triggerKey(t)] = append(m[triggerKey(t)], i)
		}
	}
	return m
})

func triggerKey(t string) string {
	if HasCJK(t) {
		return t
	}
	if strings.Contains(t, " ") {
		return strings.ToLower(t)
	}
	return Stem(strings.ToLower(t))
}

// ConceptMembers returns the member words of every concept the query names, in concept order
// without repeats. English triggers match by stem (single words) or as lower-case phrases;
// Chinese triggers as substrings.
func ConceptMembers(q string) []string {
	lower := strings.ToLower(q)
	hit := map[int]bool{}
	var order []int
	mark := func(ids []int) {
		for _, i := range ids {
			if !hit[i] {
				hit[i] = true
				order = append(order, i)
			}
		}
	}
	for _, t := range Split(q) {
		if !t.CJK {
			mark(conceptIndex()[Stem(t.Text)])
		}
	}
	for key, ids := range conceptIndex() {
		if strings.Contains(key, " ") && strings.Contains(lower, key) {
			mark(ids)
		}
		if HasCJK(key) && strings.Contains(q, key) {
			mark(ids)
		}
	}
	// Map iteration order varies; keep the concepts in their declared order.
	sortInts(order)
	var out []string
	seen := map[string]bool{}
	for _, i := range order {
		for _, m := range concepts[i].Members {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// ConceptOf returns the names of the concepts a word (or Chinese word) belongs to as a member
// or names as a trigger; the local embedder adds them as features.
func ConceptOf(word string) []string { return conceptOfWord()[conceptKey(word)] }

func conceptKey(w string) string {
	if HasCJK(w) {
		return w
	}
	return Stem(strings.ToLower(w))
}

var conceptOfWord = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	add := func(w, name string) {
		if strings.Contains(w, " ") {
			return // phrases are matched on queries only
		}
		k := conceptKey(w)
		for _, n := range m[k] {
			if n == name {
				return
			}
		}
		m[k] = append(m[k], name)
	}
	for _, c := range concepts {
		for _, w := range c.Triggers {
			add(w, c.Name)
		}
		for _, w := range c.Members {
			add(w, c.Name)
		}
	}
	return m
})
