package recall

import "slices"

// FacetCommute is how the person gets to work or school: "how do I get to work", "do I drive
// to the office", "how long is my commute", "我怎么去公司", "我开车上班吗". It was read as the
// work facet, so "Works at Coolblue" ranked above "I cycle to the office" (which shares no word
// with the question) and "我每天坐地铁1号线上班" below the company trip. The note that answers
// says how: a way of travelling (cycle, train, 地铁, 电动车) with work or a commute, or the
// word commute itself; a note about work that also gives the commute ("Commute: 501
// streetcar") answers too.
const FacetCommute Facet = "commute"

// commuteModes are ways of travelling, in the forms a note writes them.
const commuteModes = `(?:cycl(?:e|es|ed|ing)|bik(?:e|es|ed|ing)|ride|rides|riding|walk(?:s|ed|ing)?|driv(?:e|es|ing)|drove|run|runs|scoot(?:er)?|carpool\w*|train|trains|bus|buses|tube|metro|subway|tram|ferry|streetcar|underground|light rail|car|scooter|e-?bike|bicycle|motorbike|motorcycle|taxi|uber|lift)`

var commuteRules = []facetRule{
	{FacetCommute,
		facetRe(`\bhow (?:do|did|should|can|will) i (?:usually |normally |typically |get |)?(?:get|go|travel|commute|come|make it)(?: in)? (?:in)?to (?:work|the office|office|my (?:job|office|work|workplace|school|uni|university|college|campus|site)|school|uni|campus|college)\b|\bhow do i (?:usually |normally )?commute\b|\bmy (?:daily |morning )?commute\b|\bmy (?:route|way|journey|trip|ride) (?:in)?to (?:work|the office|school)\b|\b(?:do|did|can|should) i (?:\w+ ){0,2}(?:drive|cycle|bike|walk|ride|run|take (?:the |a )?(?:train|bus|tube|metro|subway|tram|ferry|car|bike)|get (?:the |a )?(?:train|bus|tube|metro|subway|tram|ferry))(?: in)? (?:in)?to (?:work|the office|office|school|uni|campus)\b|\bhow (?:long|far) (?:is|'s) (?:it )?(?:to|from) (?:my )?(?:work|the office|office)\b|\bhow (?:long|far) (?:is|'s) my (?:commute|journey to work|trip to work)\b`,
			`我(?:每天|平时|一般|通常|早上|天天)?(?:怎么|如何|咋|怎样)(?:去|到|来)(?:公司|单位|上班|学校|办公室)|我(?:每天|平时|一般|通常|早上|天天)?(?:怎么|如何|咋|怎样)(?:上班|通勤|上学)|我(?:每天|平时|一般|通常)?(?:上班|上学|去公司)(?:怎么|如何|咋|怎样)(?:去|走|过去)|我(?:的)?通勤|我(?:每天|平时|一般|通常)?(?:是)?(?:开车|骑车|骑电动车|骑自行车|坐地铁|坐公交|坐车|打车|步行|走路|坐班车)(?:去)?(?:上班|上学|去公司)(?:吗|不|么|嘛|的吗)|我(?:上班|通勤|去公司)(?:路上)?(?:要|得)?(?:多久|多长时间|多远)`),
		facetRe(`\b(?:commut\w*|`+commuteModes+` (?:in)?to (?:work|the office|office|school|uni|campus|my (?:job|office|work))|(?:to|from) (?:work|the office) (?:by|on) (?:foot|`+commuteModes+`)|(?:by|on|take|takes|took|get|gets|catch|catches) (?:the |a |my )?(?:`+commuteModes+`) (?:in)?to (?:work|the office|office|school|town|the city)|(?:minutes?|mins?|hours?) each way)\b`,
			`通勤|(?:坐|乘|搭|骑|开|打)[\p{Han}\w]{0,8}(?:上班|上学|去公司|去单位|到公司)|(?:地铁|公交|班车|电动车|自行车|单车|电驴|小电驴|开车|步行|走路)[\p{Han}\w]{0,6}(?:上班|上学|去公司)|上班(?:路上)?(?:要|得|大概|单程)?\p{Han}{0,3}(?:分钟|小时|公里)`)},
}

// commuteOnly drops the work facet from a commute question (both forms read it: "how long is
// my commute" was a work question): the employer is not how the person gets there, and a work
// note that says how still answers as a commute.
func commuteOnly(asked []Facet) []Facet {
	if !slices.Contains(asked, FacetCommute) || !slices.Contains(asked, FacetWork) {
		return asked
	}
	return slices.DeleteFunc(asked, func(f Facet) bool { return f == FacetWork })
}
