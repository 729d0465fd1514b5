package recall

import (
	"slices"
	"strings"
	"sync"

	"engram/backend/memory"
	"engram/backend/text"
)

// An avoidance question asks what the person must not eat or drink ("anything I can't eat?",
// "am I allergic to anything", "我有什么忌口"): the statements of an allergy, intolerance or
// abstention answer it, whatever they name, and a taste does not. One that asks about
// allergies wants allergies; one about eating (drinking) wants what is not eaten (drunk), or
// an allergy.
var (
	reAvoidQuestion = text.Lazy(`(?i)\b(?:allergic|allerg(?:y|ies)|intoleran(?:t|ce)|(?:can'?t|cannot|can not|shouldn'?t|should not|mustn'?t|must not|won'?t|will not|don'?t|do not|never|refuse to|not allowed to) (?:eat|drink|stand)|(?:can'?t|cannot|shouldn'?t|mustn'?t|won'?t) i (?:eat|drink)|avoid|stay away from|cut (?:out|back on)|diet(?:ary)?|safe for me to (?:eat|drink|order|have))\b|踩(?:到)?(?:我的)?雷|我\p{Han}{0,3}(?:得|要|该|需要)?(?:躲着|避开|别碰|不能碰)|steer clear of|keep away from|give \w+ a miss|我的雷(?:点|区)|我能吃的|我可以吃的|忌口|医嘱|过敏|不能吃|不能喝|不能用|不耐受|不可以(?:吃|喝)|(?:碰|吃|喝|用)不得`)
	reAllergyWords  = text.Lazy(`(?i)\b(?:allergic|allerg(?:y|ies)|intoleran(?:t|ce)|coeliac|celiac|gout|diabetic|diabetes)\b|过敏|不耐受|痛风|糖尿病`)
	reEatWords      = text.Lazy(`(?i)\b(?:eat|eating|food|foods|dish|dishes|meal|meals)\b|吃|食物`)
	reDrinkWords    = text.Lazy(`(?i)\b(?:drink|drinking|drinks|beverages?)\b|喝|饮料`)
	reNotEat        = text.Lazy(`(?i)\b(?:(?:doesn'?t|does not|don'?t|do not|never|can'?t|cannot) (?:eat|touch)s?|no (?:dairy|gluten|meat|pork|beef|nuts|sugar)|vegan|vegetarian|pescatarian)\b|忌口|不吃|不能吃|不碰|素食|吃素|戒糖|(?:别|不要|不宜|不可以)吃`)
	reNotDrink      = text.Lazy(`(?i)\b(?:(?:doesn'?t|does not|don'?t|do not|never|can'?t|cannot) drinks?|(?:no|zero) (?:alcohol|caffeine|dairy|booze|fizzy|soda|soft drinks)|teetotal|sober|(?:quit|gave up|cut out|off) (?:the )?(?:booze|alcohol|drinking|caffeine)|keeps? (?:drink|drinking|alcohol|booze) (?:to|under|down))\b|忌口|不喝|不能喝|戒(?:酒|咖啡)|(?:别|不要|不宜|不可以)喝|忌酒|禁酒`)
)

// reWhQuestion is a question that asks what or which, not whether.
var reWhQuestion = text.Lazy(`(?i)\b(?:what|which|who)\b|什么|啥|哪`)

// reLikes is a taste said positively.
var reLikes = text.Lazy(`(?i)\b(?:likes?|loves?|enjoys?|prefers?|favou?rites?|favs?|faves|into|fan of|adores?)\b|喜欢|爱|口味|偏好|只喝|只吃|常喝|常吃`)

// avoidsOnly reports a memory's text that states what the person must not eat or drink and no
// taste. What the person has as a rule is a taste (orderRules): "My usual order is a cortado,
// no sugar" says how they take it, not what they avoid.
func avoidsOnly(hay string) bool {
	return (reAllergyWords.MatchString(hay) || reNotEat.MatchString(hay) || reNotDrink.MatchString(hay)) &&
		!reLikes.MatchString(hay) && !statesOrder(hay)
}

// statesOrder reports a text that states what the person has, orders or gets as a rule
// (orderRules).
func statesOrder(hay string) bool {
	for _, r := range orderRules {
		if r.answer != nil && r.answer.MatchString(hay) {
			return true
		}
	}
	return false
}

// avoidAsk is what an avoidance question asks about.
type avoidAsk struct{ allergy, eat, drink bool }

// avoidAsked reads an avoidance question; ok is false for every other question.
func avoidAsked(a Analysis) (ask avoidAsk, ok bool) {
	q := foldDialect(strings.ReplaceAll(a.Query, "’", "'"))
	if !slices.Contains(a.Facets, FacetPreference) || !(reAvoidQuestion.MatchString(q) || reCarefulQuestion.MatchString(q) || reAvoidTask.MatchString(q) || reConceptAvoid().MatchString(q)) {
		return ask, false
	}
	return avoidAsk{allergy: reAllergyWords.MatchString(q), eat: reEatWords.MatchString(q),
		drink: reDrinkWords.MatchString(q)}, true
}

// answers reports whether a user memory states an avoidance the question asks about.
func (ask avoidAsk) answers(m *memory.Memory) bool {
	return ask.answersText(aboutThePerson(m))
}

// answersText is answers on a memory's text as aboutThePerson gives it.
func (ask avoidAsk) answersText(hay string) bool {
	allergy := reAllergyWords.MatchString(hay)
	switch {
	case ask.allergy:
		return allergy
	case ask.eat && !ask.drink:
		return allergy || reNotEat.MatchString(hay)
	case ask.drink && !ask.eat:
		return allergy || reNotDrink.MatchString(hay)
	}
	return allergy || reNotEat.MatchString(hay) || reNotDrink.MatchString(hay)
}

// mealTopic is what a meal task is about: the food category's members as topic words.
var mealTopic = sync.OnceValue(func() []string { return topicMembers("food") })
