package recall

import "engram/backend/text"

// Three more facets of a person, each asked in a form that shares few words with the note
// that answers it: where they studied ("where did I do my masters" — "MSc Computer Science at
// TU Munich"), the tools they work with ("which text editor do I like" — "Uses Neovim for
// basically everything"), which is most of what a coding agent is told about its person, and
// what they fear ("anything I'm scared of?" — "Terrified of deep open water"). As for the
// other facets, the question forms stay bound to the first person ("which editor does the
// plugin target" is not one).
const (
	FacetEducation Facet = "education"
	FacetTools     Facet = "tools"
	FacetFear      Facet = "fear"
	// FacetGoal is what the person is working towards ("what certification am I preparing
	// for" — "Studying for the CCRN exam this fall"; 我在攒钱买什么).
	FacetGoal Facet = "goal"
	// FacetContact is who the person calls and how to reach them ("the sink's leaking again, who
	// do I call?", "我儿子手机号多少").
	FacetContact Facet = "contact"
)

// toolNames are tools a person says they use, by name: editors and IDEs, systems, machines,
// browsers, shells and terminals, keyboard layouts.
const toolNames = `(?:vim|neovim|nvim|emacs|doom emacs|spacemacs|vs ?code|vscodium|visual studio|sublime(?: text)?|atom|notepad\+\+|jetbrains|intellij(?: idea)?|pycharm|goland|webstorm|phpstorm|rider|clion|rubymine|android studio|xcode|eclipse|netbeans|cursor|zed|helix|nano|kakoune|arch(?: linux)?|manjaro|ubuntu|debian|fedora|nixos|gentoo|mint|pop!?_?os|elementary|opensuse|centos|macos|mac ?os|os ?x|windows(?: \d+)?|wsl2?|linux|chromeos|freebsd|iphone|ipad|android|pixel|galaxy|oneplus|xiaomi|huawei|thinkpad|macbook(?: air| pro)?|imac|mac mini|mac studio|framework laptop|surface|dell xps|firefox|chrome|chromium|safari|brave|vivaldi|edge|arc|zsh|oh-my-zsh|bash|fish|nushell|tmux|screen|kitty|alacritty|iterm2?|wezterm|ghostty|warp|terminator|gnome|kde|plasma|i3|sway|hyprland|dvorak|colemak|qwerty|mechanical keyboard|split keyboard|tiling wm)`

// moreFacetRules are the rules of the three facets (see facetRule).
var moreFacetRules = []facetRule{
	{FacetEducation,
		facetRe(`\b(?:where (?:did|do) i (?:study|go to (?:school|college|uni|university|grad school)|graduate|do my (?:\w+ )?(?:masters?|master's|degree|phd|doctorate|bachelors?|bachelor's|undergrad|mba|postgrad|a-levels|training|apprenticeship))|what (?:did|do) i (?:study|major in|read at (?:uni|university|college)|do my (?:\w+ )?(?:masters?|master's|degree|phd|thesis) (?:in|on))|(?:which|what) (?:school|college|uni|university|high school|grad school|programme|program|course) (?:did|do|am) i (?:go to|attend|attending|graduate from|study at|in)|my (?:degree|major|alma mater|university|college|uni|school|education|qualifications?|thesis|dissertation|masters?|master's|phd|studies|grades)|what(?:'s| is) my (?:highest )?(?:degree|qualification|major|field of study))\b`,
			`我(?:是)?(?:在)?哪(?:个|所|里|儿)?(?:大学|学校|高中|学院)?(?:毕业|读的|上的|念的|读书|上学|念书|读研|读博)|我(?:是)?(?:学|读|念)(?:的)?(?:什么|啥|哪个)专业|我的(?:专业|学历|学校|母校|大学|学位|研究方向|导师)|我(?:的)?(?:大学|研究生|本科|硕士|博士|高中)(?:是)?(?:在哪|读的|上的|学的|念的)|我(?:现在|目前)?(?:读|上)(?:大|研|高)?几(?:年级)?|我(?:是)?(?:什么|啥)学历`),
		facetRe(`\b(?:i (?:studied|graduated|majored|read \w+ at)|(?:studied|graduated|majored|minored) (?:\w+ ){0,3}(?:at|from|in)|(?:degree|diploma|bachelor'?s|master'?s|masters|doctorate|phd|mba|msc|bsc|ba|ma|meng|beng|llb|mphil) (?:in|from|at) \p{L}|\b(?:msc|bsc|meng|beng|mphil|phd|mba|llb)\b|alma mater|(?:first|second|third|final)[- ]year (?:student|undergrad)|(?:is|am|i'm) (?:a |an )?(?:\w+ ){0,2}(?:student|undergrad|undergraduate|postgrad|phd candidate|doctoral candidate) (?:at|in)|education\s*[:=])\b`,
			`毕业(?:于|自|的)?|本科|硕士|博士|研究生|学士|在读|大[一二三四]|研[一二三]|博[一二三]|高[一二三]|学历|专业(?:是|[:：])|(?:读|念|上)(?:的)?(?:大学|研|博|高中|中专|大专|夜校)|(?:在|于)\p{Han}{2,10}(?:大学|学院)(?:读|念|学|上)`)},
	{FacetTools,
		facetRe(`\b(?:(?:which|what) (?:\w+ (?:(?:and|or|&) )?)?(?:editor|ide|os|operating system|distro|laptop|phone|browser|terminal|shell|keyboard(?: layout)?|tools?|setup|machine|computer|desktop environment|window manager|wm|font|theme|colou?r scheme) (?:do|did|am|should|would) i (?:\w+ )?(?:use|like|prefer|run|have|code in|work in|work on|live in|on|using|running|rock)|my (?:(?:text |code )?editor|ide|dev setup|setup|(?:dev )?environment|stack|laptop|phone|os|operating system|distro|terminal|shell|keyboard|dotfiles|tools|toolchain|rig|machine|workstation)\b|what (?:do|did) i (?:usually |normally )?(?:code|write code|program|develop) (?:in|on|with)\b|what(?:'s| is) my (?:editor|ide|setup|stack|os|distro|shell|terminal|daily driver))\b`,
			`我(?:平时|一般|常|通常|现在|日常)?(?:用|使用|喜欢用|习惯用)(?:的)?(?:是)?(?:什么|啥|哪个|哪款|哪种|哪家)(?:编辑器|系统|电脑|笔记本|手机|浏览器|输入法|软件|语言|框架|终端|键盘|IDE|ide|操作系统|开发工具|工具)|我的(?:编辑器|电脑|笔记本|手机|系统|操作系统|开发环境|配置|键盘|浏览器|终端|工具)`),
		facetRe(`\b(?:`+toolNames+`)\b`, `\b(?:uses?|using|runs?|running|codes? in|daily[- ]drives?|daily driver|switched to|swears by|lives in) (?:\w+ ){0,2}(?:editor|ide|laptop|phone|os|distro|terminal|shell|keyboard)\b`,
			`编辑器|操作系统|输入法|笔记本电脑|(?:用|使用)(?:的)?(?:是)?(?:苹果|安卓|华为|小米|三星|联想|戴尔|\p{Latin})`)},
	{FacetFear,
		facetRe(`\b(?:what (?:am|was) i (?:\w+ )?(?:scared|afraid|frightened|terrified|nervous|anxious) (?:of|about)|(?:anything|something|what) (?:that )?(?:i'm|i am|i get) (?:\w+ )?(?:scared|afraid|frightened|terrified|nervous|anxious|freaked out) (?:of|about|by)|what (?:do|does) (?:i|me) (?:fear|dread)|what (?:scares|frightens|terrifies|freaks) me|my (?:fears?|phobias?|worst fear|biggest fear)|(?:am i|i'm|i am) (?:\w+ )?(?:scared|afraid|frightened|terrified) of (?:anything|something)|do i have (?:any|a) (?:fears?|phobias?))\b`,
			`我(?:最)?(?:怕|害怕|恐惧|畏惧|发怵|犯怵)(?:些)?(?:什么|啥|哪些)|我有(?:什么|啥|哪些)?(?:恐惧症|害怕的|怕的|阴影)|(?:什么|啥)\p{Han}{0,3}(?:吓到|吓着)我|我的(?:恐惧|软肋)`),
		facetRe(`\b(?:terrified|scared|afraid|frightened|fear(?:s|ful)?|phobia|phobic|petrified|panics?|freaks? out|can'?t stand heights|dreads?)\b`,
			`害怕|恐惧|畏惧|惧|恐高|晕血|(?:^|[，,。；;\s]|我|很|最|特别|超|非常|有点|比较)怕|心理阴影|吓`)},
}

// goalRule reads what a person is working towards; a plan of the project ("what's the plan
// for the migration") is not one, so the question forms keep to "my" and "I".
var goalRule = facetRule{FacetGoal,
	facetRe(`\bmy (?:(?:long|short)-term |main |big |next )?(?:goals?|plans?|ambitions?|dreams?|resolutions?|bucket list)\b|\bwhat (?:am|was) i (?:\w+ ){0,2}(?:preparing|studying|training|revising|cramming|saving(?: up)?|working|aiming) (?:for|towards?)\b|\bwhat (?:do|did) i (?:want|plan|hope|aim|intend) to (?:do|become|be|buy|achieve|study|learn)\b|\bwhat (?:\w+ )?(?:exam|test|certification|certificate|qualification|course|race|marathon) (?:am|was) i (?:\w+ )?(?:preparing|studying|training|revising|sitting|taking|doing|signed up) (?:for)?`,
		`我的(?:目标|计划|打算|梦想|心愿|规划)|我(?:的)?(?:目标|梦想|心愿)|我(?:现在|目前)?(?:在|正在)?(?:准备|备考|考)(?:什么|啥|哪)|我(?:想|打算|计划)(?:要)?(?:干|做|考|买|学|去|当)(?:什么|啥|哪)|我(?:在)?(?:攒钱|存钱)(?:干|买|做|去)?(?:什么|啥|嘛)`),
	facetRe(`\b(?:studying|preparing|training|revising|cramming|saving(?: up)?) for\b|\bworking towards?\b|\b(?:(?:long|short)-term |main |big |next )?(?:goals?|plans?|ambitions?|dreams?|resolutions?)\s*(?:is|are|:|=|for)|\b(?:plans?|hopes?|aims?|intends?) to\b|\bwants? to (?:become|be|get|move|learn|start|buy|run|open|retire|finish|travel|visit|go back)\b|\bbucket list\b|\bsigned up for\b`,
		`目标|计划|打算|梦想|心愿|准备(?:考|去|买|换|学|开)|备考|在考|攒钱|存钱|想(?:要)?(?:考|买|换|学|去|开|成为|当)`)}

// phoneNumber is a telephone number as people write them (508-555-0142, (508) 555-0142,
// 0458-3621120, 13904582736, +44 7700 900123): groups of digits, not a year in brackets after an
// age ("came over at 11 (2008)") or a date (2023-05-14).
const phoneNumber = `\+\d[\d ()-]{6,}\d|\(?\b\d{2,5}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}\b`

// contactRule reads the people and numbers a person keeps to hand; the question forms keep to
// "my" and "I" ("what's the support email" is not one).
var contactRule = facetRule{FacetContact,
	facetRe(`\bwho (?:do|should|can|would) i (?:call|ring|phone|text|contact|get hold of|message)\b|\bmy (?:\w+(?:'s)? ){0,2}(?:phone ?number|number|mobile|cell(?: number)?|e-?mail(?: address)?|contact details|contacts)\b|\b(?:number|phone|mobile|e-?mail|contact) (?:for|of) my\b|\bhow (?:do|can) i (?:reach|get hold of|contact|call|ring) my\b|\bi (?:need|have|want|got|gotta|must|should|ought) to (?:call|ring|phone|text|contact|get hold of) (?:the|my|our) (?:doctor|dentist|gp|vet|plumber|electrician|landlord|landlady|mechanic|physio|therapist|pharmacist|hairdresser|barber|babysitter|nanny|childminder|cleaner|builder|lawyer|solicitor|accountant|surgery|clinic)\b`,
		`我\p{Han}{0,6}(?:手机号|电话|号码|联系方式|微信号?|邮箱)|我(?:该|要|得)?(?:找|打给|联系|打电话给)谁`),
	facetRe(phoneNumber+`|\b(?:phone|mobile|cell|tel|e-?mail|contact|landlord|plumber|electrician)\b|@[\w-]+\.\w+`,
		`电话|手机|号码|微信|邮箱|联系`)}

// moreTitleLabels are the titles that label the three facets.
var moreTitleLabels = map[string]Facet{
	"education": FacetEducation, "studies": FacetEducation, "school": FacetEducation, "uni": FacetEducation,
	"university": FacetEducation, "degree": FacetEducation, "degrees": FacetEducation, "qualifications": FacetEducation,
	"学历": FacetEducation, "教育": FacetEducation, "学业": FacetEducation, "教育背景": FacetEducation, "学校": FacetEducation,
	"setup": FacetTools, "dev setup": FacetTools, "tools": FacetTools, "tooling": FacetTools, "editor": FacetTools,
	"gear": FacetTools, "stack": FacetTools, "workstation": FacetTools,
	"装备": FacetTools, "工具": FacetTools, "开发环境": FacetTools, "设备": FacetTools,
	// A taste labelled by what it is about ("Tunes", "Books").
	"music": FacetPreference, "tunes": FacetPreference, "books": FacetPreference, "reading": FacetPreference,
	"films": FacetPreference, "movies": FacetPreference, "tv": FacetPreference, "shows": FacetPreference,
	"sport": FacetPreference, "sports": FacetPreference, "taste": FacetPreference, "音乐": FacetPreference,
	"听歌": FacetPreference, "电影": FacetPreference, "看书": FacetPreference, "运动": FacetPreference,
	"goals": FacetGoal, "goal": FacetGoal, "plans": FacetGoal, "ambitions": FacetGoal, "aspirations": FacetGoal,
	"目标": FacetGoal, "计划": FacetGoal, "打算": FacetGoal, "规划": FacetGoal,
	"contacts": FacetContact, "contact": FacetContact, "phone": FacetContact, "numbers": FacetContact,
	"phone numbers": FacetContact, "emergency contacts": FacetContact, "电话": FacetContact, "联系人": FacetContact,
	"通讯录": FacetContact, "联系方式": FacetContact, "号码": FacetContact,
	"fears": FacetFear, "fear": FacetFear, "phobias": FacetFear, "phobia": FacetFear,
	"害怕": FacetFear, "恐惧": FacetFear, "怕的": FacetFear,
}

// toolParts are the kinds of tool a question can name (see subGroups): "which editor" is
// answered by the note about the editor, not by the one about the laptop.
var toolParts = []struct {
	facet            Facet
	question, answer *text.Regexp
}{
	{FacetTools, text.Lazy(`(?i)\b(?:editor|ide|code in)\b|编辑器|IDE`),
		text.Lazy(`(?i)\b(?:editor|ide|vim|neovim|nvim|emacs|doom emacs|spacemacs|vs ?code|vscodium|visual studio|sublime|atom|notepad\+\+|jetbrains|intellij|pycharm|goland|webstorm|phpstorm|rider|clion|rubymine|android studio|xcode|eclipse|netbeans|cursor|zed|helix|nano|kakoune)\b|编辑器|IDE`)},
	{FacetTools, text.Lazy(`(?i)\b(?:os|operating system|distro|linux|windows|mac)\b|操作系统|系统`),
		text.Lazy(`(?i)\b(?:os|operating system|distro|arch|manjaro|ubuntu|debian|fedora|nixos|gentoo|mint|pop!?_?os|opensuse|centos|macos|mac ?os|os ?x|windows|wsl2?|linux|chromeos|freebsd)\b|操作系统|系统`)},
	{FacetTools, text.Lazy(`(?i)\b(?:phone|mobile|cell)\b|手机`),
		text.Lazy(`(?i)\b(?:phone|mobile|iphone|android|pixel|galaxy|oneplus|xiaomi|huawei)\b|手机|苹果|安卓|华为|小米|三星`)},
	{FacetTools, text.Lazy(`(?i)\b(?:laptop|computer|machine|workstation|rig|desktop)\b|电脑|笔记本`),
		text.Lazy(`(?i)\b(?:laptop|computer|machine|workstation|rig|desktop|thinkpad|macbook|imac|mac mini|mac studio|framework|surface|xps)\b|电脑|笔记本`)},
	{FacetTools, text.Lazy(`(?i)\bbrowser\b|浏览器`),
		text.Lazy(`(?i)\b(?:browser|firefox|chrome|chromium|safari|brave|vivaldi|edge|arc)\b|浏览器`)},
	{FacetTools, text.Lazy(`(?i)\b(?:terminal|shell)\b|终端`),
		text.Lazy(`(?i)\b(?:terminal|shell|zsh|oh-my-zsh|bash|fish|nushell|tmux|kitty|alacritty|iterm2?|wezterm|ghostty|warp)\b|终端`)},
}
