package recall

import (
	"slices"

	"engram/backend/memory"
)

// How the person wants to be talked to, and the facets whose answer is usually kept in a note
// that is not a `user` memory. An agent keeps "keep it short, no jargon, don't call me 亲" as
// `feedback` (guidance on how to work with the person) and a list of phone numbers as a
// `reference`; a question about either ("what did I tell you about how to talk to me",
// "我是不是跟你说过别那样称呼我", "the sink's leaking again, who do I call?") found neither
// while the facet path read `user` memories only.

// FacetManner is how the person wants to be talked to: tone, length, language, what not to call
// them ("你跟我说事儿，我以前是咋交代你的？" — "说话简单点、慢点").
const FacetManner Facet = "manner"

// mannerRule reads the manner facet. The question forms are about "you" talking to "me" (or
// what I told you); the answers are the words of a style of speech, read in the note's whole
// text (a feedback note is written about the person: "他看不懂").
var mannerRule = facetRule{FacetManner,
	facetRe(`\bhow (?:should|do|did|would|can|to) (?:you |i (?:want|like|prefer|need|asked) you to )?(?:talk|speak|write|reply|respond|answer|address|chat)(?: (?:to|with))? me\b|\bhow (?:do |did )?i (?:want|like|prefer|need) (?:you to )?(?:talk|speak|write|reply|respond|answer|address)\b|\bhow (?:do|did) i (?:want|like|prefer) (?:you to (?:format|write|word|structure|lay out|shape) )?(?:my |your )?(?:answers|replies|responses|messages)\b|\bwhat did i (?:tell|ask|say to) you (?:about )?(?:how|the way|not) (?:to )?(?:talk|speak|write|reply|respond|answer|address|call)\b|\b(?:what|anything|something) (?:did )?i (?:tell|told|ask|asked) you (?:not )?to (?:call|stop calling) me\b|\bmy (?:preferred )?(?:tone|communication style|reply style)\b|\b(?:what|which) (?:tone|style) (?:should|do) you (?:use|take|write in|reply in|answer in)\b|\b(?:what|which) language (?:should|do) you (?:use|take|write in|reply in|answer in)(?:\z| (?:with|for|to) me\b| when\b)|\bhow (?:formal|casual|long|short|detailed) (?:should|do) (?:you|your (?:answers|replies)) (?:be|keep)\b|\bhow do i like to be (?:talked to|spoken to|addressed|written to)\b|\b(?:what|which) (?:language|tone|style|format|units?|spelling|currency) (?:do|should|will|would|can|must) you (?:\w+ ){0,2}(?:to |for |with )?me\b|\bwhen you (?:write|reply|respond|answer|talk|speak|explain|message)(?: \w+)? (?:to|for) me\b|\bhow (?:should|do|would|will|must|can) you (?:structure|format|lay out|present|organi[sz]e|word|phrase|write|shape|set out) (?:\w+ ){0,2}(?:for|to) me\b|\bhow do i (?:want|like|prefer|need) (?:\w+ ){0,2}(?:presented|formatted|written|laid out|shown|displayed|structured)\b|\bhow (?:do|should|would|will|must) you (?:usually |normally |always )?(?:explain|show|present|give|tell|write|talk|speak|reply|respond|answer|format|structure|word|phrase|send|address|break down|lay out)(?: \w+){0,2} (?:to |for |with )?me\b|\b(?:talk|speak|write|reply|respond|answer|message|text) (?:to |with )?me in (?:\w+)\b|\bhow (?:you(?:'re| are)|your) (?:meant|supposed) to (?:talk|speak|write|reply|respond|answer)\b|\b(?:what|which) (?:currency|units?|spelling|tone) (?:should|do|will|must|would) you (?:use|write|reply|answer|talk|speak|give|show)\b[^?]*\bme\b|\b(?:what|which) language (?:should|do|will|must|would) you (?:use|write|reply|answer|talk|speak)(?: when you (?:talk|speak|write|reply|answer))? (?:to|with|for) me\b|\b(?:you|u)\b[^?.!]{0,30}\bme\b[^?.!]{0,30}\b(?:temps?|temperatures?|fahrenheit|celsius|metric|imperial|currency|currencies|am/pm|24[- ]?h(?:ours?|r)?|time ?zones?)\b`,
		`(?:你|您)?(?:该|应该|要|得)?(?:怎么|咋|如何|怎样)(?:跟|和|对)我(?:说话|讲话|聊天|回复|沟通|交流)|我(?:以前|之前|上次|早先|原来)?(?:是)?(?:咋|怎么|如何)(?:交代|嘱咐|吩咐|叮嘱|要求)(?:你|您)|(?:交代|嘱咐|吩咐|叮嘱)(?:过)?(?:你|您)(?:什么|啥|些啥|哪些)|我(?:是不是|有没有|不是)?(?:跟|和|对)(?:你|您)说过(?:别|不要|不许|不能)|(?:别|不要)(?:那样|这样|那么|这么)(?:称呼|叫|喊)我|我(?:喜欢|想要|希望|要)(?:你|您)(?:怎么|咋|如何|怎样)(?:说话|回复|回答|称呼我|叫我)|(?:回复|回答|说话)(?:要|该|应该)(?:多长|多短|什么风格|啥风格|什么语气)|我(?:的)?(?:沟通|说话|回复)(?:偏好|习惯|风格)|(?:你|您)(?:给|跟|和|对)?我(?:回话|回复|回答|答复|说话|讲话|回消息)\p{Han}{0,4}?(?:要|得|该|应该|需要)?(?:注意|留意|避免|记住)(?:什么|啥|些啥|点啥|哪些)|(?:你|您)(?:跟|和|对|给)我(?:讲|说|回|写|聊)\p{Han}{0,4}?(?:要|得|该|应该)?(?:怎么|咋|如何|怎样)(?:讲|说|回|写|聊)|(?:你|您)(?:给|跟|和|对)?我(?:回话|回复|回答|答复|说话|讲话|回消息|讲东西|讲事情|说事|写东西)(?:的时候|时)?\p{Han}{0,2}?(?:要|得|该|应该|需要|有)?(?:注意|留意|避免|记住|讲究)|(?:你|您)(?:回|回复|答复)我(?:的)?(?:话|消息|信息)?(?:的时候|时)?\p{Han}{0,2}?(?:要|得|该|应该|需要|有)?(?:注意|留意|避免|记住|讲究)|(?:你|您|给我|跟我|对我|帮我|告诉我|回我)\p{Han}{0,10}?(?:用|按|写|说|讲)?(?:什么|啥|哪种|哪个|哪国)(?:格式|单位|语言|货币|币种|语气|风格|排版|方式|温度)|(?:你|您|给我|跟我|对我|帮我|告诉我|回我)\p{Han}{0,10}?(?:默认|一般|平时)(?:用)?(?:什么|啥|哪种|哪个)(?:格式|单位|语言|货币|币种|语气|风格|排版)`),
	facetRe(`\b(?:(?:talk|speak|write|reply|respond|explain)(?:ing)? (?:to|with) (?:me|him|her|them|the user)|(?:keep|make) (?:it|answers|replies|responses|things) (?:short|brief|simple|casual|formal|concise|light)|(?:answers|replies|responses|messages) (?:short|brief|concise|simple|in \w+)|(?:short|brief|concise|terse|plain|simple|direct|straight|long|detailed|formal|casual|informal)(?:,? (?:and )?(?:short|brief|concise|terse|plain|simple|direct|straight|to-the-point|long|detailed|formal|casual|informal))? (?:answers|replies|responses|messages|language|english|tone)|tone|terse|verbose|emojis?|jargon|(?:don'?t|do not|never|stop) call(?:ing)? (?:me|him|her|them)|address (?:me|him|her|them|the user)|small talk|sugar-?coat(?:ing)?|no (?:fluff|filler|waffle|lectures?))\b`,
		`说话|讲话|回复|回答|称呼|别(?:再)?(?:叫|喊)我|语气|口气|啰嗦|简短|简单点|短一点|小作文|废话|客套|网络用语|新词|英文|表情|正经|轻松|玩梗|沟通|交流`)}

// mannerTitleLabels are the titles that label the manner facet ("How to talk to me", "沟通").
var mannerTitleLabels = map[string]Facet{
	"tone": FacetManner, "communication": FacetManner, "communication style": FacetManner,
	"how to talk to me": FacetManner, "talking to me": FacetManner, "replies": FacetManner,
	"how to answer me": FacetManner, "how to reply to me": FacetManner, "answers": FacetManner,
	"style": FacetManner, "沟通": FacetManner, "沟通方式": FacetManner, "说话方式": FacetManner,
	"语气": FacetManner, "说话": FacetManner, "回复风格": FacetManner,
}

// facetTypes are the kinds of memory that can answer the facets asked: `user` memories always,
// `feedback` for how to talk to the person, `reference` for their contacts.
func facetTypes(asked []Facet) []memory.Type {
	types := []memory.Type{memory.TypeUser}
	if slices.Contains(asked, FacetManner) {
		types = append(types, memory.TypeFeedback)
	}
	if slices.Contains(asked, FacetContact) {
		types = append(types, memory.TypeReference)
	}
	return types
}

// readsType reports whether a memory of type t is read for the facets asked (facetTypes).
func readsType(t memory.Type, asked []Facet) bool {
	switch t {
	case memory.TypeUser:
		return true
	case memory.TypeFeedback:
		return slices.Contains(asked, FacetManner)
	case memory.TypeReference:
		return slices.Contains(asked, FacetContact)
	}
	return false
}
