package recall

import (
	"strings"

	"engram/backend/memory"
	"engram/backend/text"
)

// A user memory often says something of the person's family, partner, flatmate or pet beside
// (or instead of) what it says of the person: "Partner: Hamish Munro. Retired skipper, grew up
// in Stornoway.", "大黄：家里的土狗，今年6岁", "我妈今年58岁，喜欢听山歌". None of that is the
// person's home, work, age or taste. aboutThePerson reads a memory sentence by sentence: a
// sentence that begins with someone else is theirs, and so are the subject-less sentences
// after it (note style drops the subject it continues), until a sentence names the person
// again ("I …", "my …", "我…", "User …").

// Relations and pets as a note names them. Friends and colleagues are not among them: "My
// friends call me Al." is the person's name, and a colleague's notes are reference memories.
const (
	humanRelations = `(?:sister|brother|sibling|mother|mom|mum|mam|mama|mamá|father|dad|papa|papá|parents?|wife|husband|partner|spouse|son|daughter|kids?|children|child|baby|boyfriend|girlfriend|fianc[eé]e?|cousin|aunt|auntie|uncle|nephew|niece|grand\w+|in-laws?|\w+-in-law|roommate|flatmate|housemate)s?`
	pets           = `(?:cat|dog|pet|puppy|kitten|rabbit|bunny|bird|parrot|budgie|hamster|tortoise|turtle|tom|tomcat|kelpie|beagle|collie|terrier|labrador|retriever|lab|spaniel|poodle|corgi|tabby|dachshund|husky|greyhound|whippet|pug|schnauzer|moggy)s?`
	zhRelations    = `(?:姐姐|妹妹|哥哥|弟弟|妈妈|老妈|母亲|爸爸|老爸|父亲|父母|老婆|媳妇|妻子|太太|丈夫|老公|爱人|老伴|儿子|女儿|孩子|男朋友|女朋友|爷爷|奶奶|外公|外婆|姥姥|姥爷|室友|舍友|男友|女友|对象|闺蜜|宝宝|闺女|儿媳|女婿|姐夫|嫂子|公公|婆婆|岳父|岳母|孙子|孙女|外孙|侄子|侄女|表哥|表姐|表弟|表妹|堂哥|堂姐)`
	zhPets         = `(?:猫|狗|宠物|鹦鹉|鸟|兔|龟|仓鼠)`
)

// reOthersStart is the start of a sentence about someone else.
var reOthersStart = text.Lazy(`(?i)^[\s*>#-]*(?:` +
	// "Mum still lives in …", "Partner: Hamish", "my brother …", "Flatmate Mei Lim, 27 …"
	`(?:(?:my|her|his|their|our|the user's|user's)\s+(?:[\w-]+\s+)?)?` + humanRelations + `\b` +
	// "our 9-year-old ginger tom", "Dog: Brisa"
	`|(?:my|her|his|their|our|the user's|user's)\s+(?:[\w-]+\s+){0,3}` + pets + `\b|` + pets + `\s*[:：]` +
	// "Biscuit is our greyhound": nobody writes of themselves as "our"
	`|(?-i:\p{Lu}\p{Ll}+)(?: is|,) (?:our|my|her|his|their|the family's|the family’s) ` +
	// "Hamish (husband) …", "Jonas, my brother, …", "Chispa, the house dog", "Skipper is our … tom"
	`|(?-i:\p{Lu}\p{Ll}+)(?: (?-i:\p{Lu}\p{Ll}+))?(?: \((?:my |her |his |their |the user's )?` + humanRelations + `\)|,? (?:—|-|is|was|,)? ?(?:the|our|my|her|his|their) (?:[\w'’-]+ ){0,4}(?:` + humanRelations + `|` + pets + `)\b)` +
	// 我妈…, 老伴王秀兰…, 儿子郝磊…, 阿May（室友）…
	`|(?:我的?|她的?|他的?|用户的?)?` + zhRelations + `|我(?:妈|爸|姐|哥|弟|妹)` +
	`|[\p{Han}\w]{1,8}[（(](?:我的|她的|他的)?` + zhRelations + `[）)]` +
	// 家里的土狗…, 大黄：家里的土狗…, 豆豆是家里的虎皮鹦鹉…, 猫叫年糕…
	`|(?:我的|她的|他的|用户的|我家的?|家里的?)\p{Han}{0,3}` + zhPets +
	`|[\p{Han}\w]{1,6}(?:[：:]\s*|是)(?:我家的?|家里的?|我的)\p{Han}{0,4}` + zhPets +
	`|[\p{Han}\w]{1,6}[：:]\s*[^不没无\P{Han}]{0,3}` + zhPets + `[，,。]` +
	`|` + zhPets + `(?:叫|是|今年|已经|的名字|名字|住|在|很|有|喜欢|爱|每天))`)

// reWithThePerson is a sentence about a relative that is also about the person: "My wife and
// I live in Berlin.", "老公和我住在南京".
var reWithThePerson = text.Lazy(`(?i)^[\s*>#-]*[^.!?;。！？；]{1,40}?\band (?:I|me)\b|^[\s*>#-]*\p{Han}{1,6}(?:和|跟|与)我(?:[^说讲聊问告]|$)`)

// reVerb is a verb before "and I": then "and I" starts a clause of its own ("My sister is a
// nurse and I love her"), the relative is not a co-subject.
var reVerb = text.Lazy(`(?i)\b(?:is|are|was|were|has|have|had|lives|lived|works|worked|loves|likes|does|did|says|said|grew|moved)\b`)

// withThePerson reports a sentence whose subject is a relative and the person together.
func withThePerson(s string) bool {
	loc := reWithThePerson.FindStringIndex(s)
	return loc != nil && !reVerb.MatchString(s[:loc[1]])
}

// reAlsoThePerson is a sentence that begins with someone else to say what the person likes:
// "My mom's lasagna is my favourite food.", "My favourite dog breed is the corgi.", "My pet
// project is engram.", "Berlin is my home now."
var reAlsoThePerson = text.Lazy(`(?i)\bfavou?rite\b|\bpet (?:project|peeve)s?\b|(?:\bis|,) (?:my|our) (?:home|hometown|home town|city|town|base)\b`)

// reLaterSelf is a later clause of such a sentence that turns to the person: "老婆35岁，我37岁。"
var reLaterSelf = text.Lazy(`(?:[，,;；]\s*|\b(?:and|but)\s+)(?:(?-i:I)\b|I'm|I've|我(?:[^们妈爸姐哥弟妹]|$))`)

// reSelfSubject is a sentence that names the person again.
var reSelfSubject = text.Lazy(`(?-i:\bI\b)|(?i:\b(?:i'm|i've|i'd|i'll|my|me|myself|the user|user)\b)|我(?:[^们妈爸姐哥弟妹]|$)|用户`)

// reSentence is one sentence with the marks that end it.
var reSentence = text.Lazy(`[^.!?;。！？；\n]+[.!?;。！？；\n]*|[.!?;。！？；\n]+`)

// reUserSubject is 用户 where it names the person: not after another Chinese character.
var reUserSubject = text.Lazy(`(^|[^\p{Han}])用户`)

// aboutThePerson is a memory's title and text without what they say of others (see above),
// with 用户 read as 我 (extraction often names the person so: "用户今年30岁").
func aboutThePerson(m *memory.Memory) string {
	var b strings.Builder
	// A note in Traditional characters or in Cantonese is read by the same rules.
	for _, part := range []string{foldDialect(m.Title), foldDialect(m.Body)} {
		others := false
		for _, s := range reSentence.Compiled().FindAllString(part, -1) {
			switch {
			case reOthersStart.MatchString(s) && !withThePerson(s) && !reAlsoThePerson.MatchString(s):
				others = true
				if loc := reLaterSelf.FindStringIndex(s); loc != nil {
					// The sentence ends on the person: keep that clause, and what follows is theirs.
					b.WriteString("\n" + s[loc[0]:])
					others = false
					continue
				}
			case others && reSelfSubject.MatchString(s):
				// Only a sentence after one about others needs the test: it turns back to the person.
				others = false
			}
			if others {
				// Keep the sentence boundary so rules anchored at a sentence's start still see one.
				b.WriteString("\n")
				continue
			}
			b.WriteString(s)
		}
		b.WriteString("\n")
	}
	// 用户 is the person only as a subject, not inside a word ("目标用户是程序员").
	out := reUserSubject.ReplaceAllString(b.String(), "${1}我")
	return strings.ReplaceAll(out, "’", "'")
}
