package extraction

import (
	"strings"

	"engram/backend/text"
)

// English patterns. They run on the sentence lower-cased (ASCII only, offsets kept) with
// quoted text blanked; where capitals matter (names, places) the masked sentence is checked
// at the same offsets. Every rule needs the person as the subject ("I", "my name", an
// imperative addressed to the agent), so "my colleague loves Rust" is never the person.
var (
	enLead = `^(?:(?:please|pls|also|and|oh|ok|okay|btw|hey|so|one more thing|no|nope|actually)[,:]?\s+){0,3}`

	enRemember   = text.Lazy(enLead + `((?:for|in) this (?:project|repo|repository|codebase)[,:]?\s+)?(?:remember|keep in mind|make a note|note down|memorize|memorise|save (?:this|that) (?:to|in) (?:memory|your memory))\b(?:\s+(?:this|that))?(\s+for this (?:project|repo|repository|codebase))?\s*[:,-]?\s*(?:that\s+)?`)
	enAboutMe    = text.Lazy(`^(?:i|i'm|i am|i’m|i've|i have|i'd|my|me)\b`)
	enImperative = text.Lazy(`^(?:to\s|no\s|always|never|don't|don’t|do not|use|avoid|stop|prefer|you should|please|keep|make sure|ask me)\b`)
	enRecall     = text.Lazy(`^(?:when|how|what|why|where|who|the time|us|me when|you|this|it|it's|we (?:talked|discussed|said|agreed)|i (?:said|told|showed|mentioned|asked))\b`)
	enPin        = text.Lazy(`\b(?:for|in|on) this (?:project|repo|repository|codebase)\b|\bthis (?:project|repo|repository|codebase) (?:uses|is|has|runs|needs|deploys|targets|requires)\b`)

	enAlwaysNever = text.Lazy(enLead + `(always|never)\s+\S`)
	// enStopDoing: "stop adding emoji to commit messages" asks the agent to drop a habit; what
	// follows the gerund must be a kind of thing, not this task's ("stop running the tests").
	enStopDoing  = text.Lazy(enLead + `(?:stop|quit)\s+(?:ever\s+)?([a-z]+ing)\b`)
	enTaskObject = text.Lazy(`^(?:the|this|that|these|those|it|them|my|your|now|here|there|for now|right now)\b`)
	enDont       = text.Lazy(enLead + `(?:don't|don’t|dont|do not|stop|quit|avoid)\s+(?:ever\s+)?([a-z]+)\b`)
	// enUseOver: the object set against another ("ripgrep instead of grep").
	enUseOver  = text.Lazy(`^[a-z][\w.+#-]*,?\s+(?:instead of|rather than|over|not)\s+[a-z]`)
	enUseNot   = text.Lazy(enLead + `(?:use|prefer|go with|stick to|stick with|default to)\s+(.+?),?\s+(?:not|never|instead of|rather than|over)\s+\S`)
	enStyle    = text.Lazy(`\b(?:keep|make)\s+(?:your\s+|the\s+|all\s+)?(?:answers|responses|replies|explanations|messages|output|comments|summaries)\s+(short|shorter|brief|concise|terse|simple|detailed|longer|to the point)\b`)
	enHateWhen = text.Lazy(`\bi (?:really )?(?:hate|don't like|don’t like|do not like|dislike|can't stand|cannot stand)(?: it)? when (?:you|answers|responses|replies|the (?:agent|assistant|model|ai|bot))\b`)
	enFromNow  = text.Lazy(`^(?:(?:and|also|ok|okay|so)[,:]?\s+){0,2}(?:from now on|going forward|in (?:the )?future)\s*[,:]?\s+(\S+)`)

	enDurable = text.Lazy(`\b(?:without (?:asking|checking|telling)|always|never|ever|anymore|any more|again|from now on|going forward|in (?:the )?future|in general|every|everywhere|by default|all (?:my|our|the)|anything|everything|instead|(?:in|for) (?:this|my|our|any|all) (?:repo|repos|repository|project|projects|codebase|code))\b`)
	enTaskish = text.Lazy(`\b(?:this time|for now|for this task|this task only|just this once|this once|right now|today|for the moment|(?:in|for) this (?:file|function|method|class|test|pr|commit|branch|question|one)|here)\b`)

	enDiet    = text.Lazy(`\bi(?:'m| am|’m) (vegetarian|vegan|pescatarian|lactose[- ]intolerant|gluten[- ]free|celiac|coeliac|diabetic|teetotal|kosher|halal)\b`)
	enAllergy = text.Lazy(`\bi(?:'m| am|’m) allergic to\s+\S`)
	enCant    = text.Lazy(`\bi (?:can't|can’t|cannot|can not|don't|don’t|do not|never) (?:eat|drink)\s+\S`)
	enOnly    = text.Lazy(`\bi only (?:eat|drink)\s+\S`)

	enEnv   = text.Lazy(`\bi(?:'m| am|’m) (?:on|using|running) (?:windows|macos|mac|a mac|linux|ubuntu|debian|fedora|arch|wsl|nixos|chromeos)\b`)
	enSkill = text.Lazy(`\bi(?:'ve| have|’ve) been (?:writing|using|coding in|working with|programming in|doing)\s+(\S.*?)\s+for\s+\S|\bi(?:'m| am|’m) (?:new to|learning|just learning|getting into)\s+\S`)

	enLike    = text.Lazy(`\bi (?:really |strongly |much |generally |usually |definitely |mostly |also )?(prefer|like|love|enjoy|adore)\s+(\S)`)
	enDislike = text.Lazy(`\bi (?:really |just |absolutely )?(?:don't|don’t|dont|do not) (?:really )?(?:like|enjoy|love|care for)\s+\S|\bi (?:really )?(?:hate|dislike|detest|can't stand|can’t stand|cannot stand|loathe)\s+\S|\bi(?:'m| am|’m) not (?:a (?:big |huge )?fan of|into|fond of)\s+\S`)
	enFan     = text.Lazy(`\bi(?:'m| am|’m) (?:a (?:big |huge )?fan of|into|fond of|obsessed with|more of an? (?:\S+ ){1,3}?person)(?:\s+\S|[\s.!]*$)`)
	enFav     = text.Lazy(`\bmy (?:favorite|favourite|go-to) [a-z ]{2,20} is\s+\S`)
	enUse     = text.Lazy(`\bi (?:mostly |mainly |usually |always |primarily |only |still |now |exclusively |daily )?(?:use|write|code in|program in|work in|develop in)\s+(\S+)`)

	enStack        = text.Lazy(`^(?:(?:btw|fwiw|so|also)[,]?\s+)?(?:my|our) (?:stack|tech stack|setup|toolchain|dev setup|editor setup) is\s+\S`)
	enHousehold    = text.Lazy(`^(?:(?:btw|fwiw|so|also|oh)[,]?\s+)?my (?:dog|cat|pet|puppy|kitten|parrot|horse|son|daughter|kid|wife|husband|partner|girlfriend|boyfriend)(?:'s name is| is called| is named| is)\s+([a-z][a-z'-]+)\b`)
	enHabit        = text.Lazy(`\bi (?:mostly|mainly|usually|often|always|only|generally|normally)\s+(?:listen to|watch|read|play|drink|eat|cook|ride|wear|drive|take|run|work on|code on|develop on|deploy to|build on|test on)\s+\S`)
	enTeamUses     = text.Lazy(`^(?:(?:btw|fwiw|fyi|so|also)[,:]?\s+)?(?:my|our) (?:team|company|org|group|shop|lab|department|startup) (?:uses|runs on|is on|works with|deploys (?:on|to)|builds with)\s+\S`)
	enImperDurable = text.Lazy(enLead + `(?:use|write|put|keep|add|prefer|format|name|run|wrap|reply|answer|respond|give me|show me|document|test|comment)\b.*(?:,\s*(?:always|every time|everywhere|by default|at all times)\b|\b(?:every time|by default|at all times)[.!]?$)`)
	enWhenYou      = text.Lazy(`^(?:when|whenever) you [^,]{1,60},\s*(?:please\s+)?(?:always|never|don't|don’t|do not)\b|^whenever you [^,]{1,60},\s*(?:please\s+)?([a-z]+)\b`)
	// enWhenOffer: "whenever you need a hand, just shout" offers help to the one listening; a
	// rule for the agent names the agent's work ("whenever you write docs, …").
	enWhenOffer  = text.Lazy(`^(?:when|whenever) you(?:'re|’re| are)? (?:(?:need|want) (?:some |any |more )?(?:help|anything|something|a hand|someone|me|us|support|advice|a break|company|to talk|to chat|to vent)|feel like|free|around|in town|ready|nearby|up for it|get (?:a|the) chance|have (?:time|a minute|a moment|a sec))\b`)
	enAtListener = text.Lazy(`\byou\W*$`)
	// enCheerUp: "never give up", "don't lose hope" cheer the listener on; no way of working.
	enCheerUp         = text.Lazy(`\b(?:never|don't|don’t|do not|dont)\s+(?:ever\s+)?(?:give up|lose (?:hope|heart|faith)|stop (?:believing|dreaming|trying)|doubt yourself)\b`)
	enLangAnswer      = text.Lazy(enLead + `(?:always\s+)?(?:answer|reply|respond|write|talk)(?: to me)? in (english|chinese|mandarin|french|german|spanish|japanese|korean|italian|portuguese)\b`)
	enLessMore        = text.Lazy(enLead + `(?:be\s+)?(?:less|more)\s+(verbose|wordy|formal|casual|detailed|concise|chatty|technical)\b`)
	enBigFan          = text.Lazy(`^(?:(?:also|and|oh)[,]?\s+)?(?:a\s+)?(?:huge|big|massive|long-time|lifelong) fan of\s+\S`)
	enProject         = text.Lazy(`\bi(?:'m| am|’m) (?:working on|building|writing|maintaining|developing) (?:a|an|my)\s+[^,.;]{0,40}?\b(?:called|named)\s+\S`)
	enNoteWe          = text.Lazy(`^(?:please\s+)?note that ((?:we (?:use|pin|deploy|run|have|don't|never|always|only|keep|target|require|need|are|host|ship)|our [a-z-]+(?: [a-z-]+)? (?:is|are|uses|runs|lives))\b)`)
	enConvention      = text.Lazy(`\b(?:keep|follow|stick to|respect|stick with)\s+(?:that|this|the|our)\s+(?:convention|pattern|layout|structure|naming|style)\b`)
	enComplaint       = text.Lazy(`\b(?:you|the agent|the assistant|my (?:previous|last|old) (?:agent|assistant)|the (?:previous|last) (?:agent|assistant)) (?:kept|keep|keeps|always)\b.*\b(?:don't|don’t|do not|stop)\b`)
	enUseWide         = text.Lazy(`\bi (?:use|enable|turn on|keep)\s+[a-z][\w.+#-]*(?:\s+[a-z][\w.+#-]*)?\s+(?:everywhere|in all my|in every|always)\b`)
	enPoliteStop      = text.Lazy(`^(?:could|can|would|will) you (?:please )?(?:stop|quit)\s+\S`)
	enWeConvention    = text.Lazy(`\bwe (?:never|always|don't|do not|only) (?:use|write|add|put|import|commit|run|deploy|merge|push|ship)\b`)
	enNeverLiked      = text.Lazy(`\bi(?:'ve| have)? never (?:liked|enjoyed|cared for)\s+\S|\bi(?:'m| am|’m) an? [a-z-]+ (?:girl|guy|person|lover|kind of person)\b`)
	enClauseStart     = text.Lazy(`^(?:the|we|we're|our|it|it's|there|they|he|she|you|your)\b`)
	enWeUse           = text.Lazy(`^(?:(?:btw|fwiw|fyi|so|also)[,:]?\s+)?we(?:'re| are)? (?:use|using|run|deploy (?:on|to)|host on|build with|are on)\s+(\S+)`)
	enInstructionWord = text.Lazy(`^(?:please|don't|don’t|do|always|never|you|ask|use|write|reply|answer)$`)
	enNotInstruction  = text.Lazy(`^(?:it|it's|this|that|these|those|we|we're|i|i'm|i'll|the|there|they|he|she|my|our|your)$`)
	enLastingWhen     = text.Lazy(`\b(?:before you|whenever|each time|every time|when you)\b`)
	enDietNot         = text.Lazy(`^(?:right now|now|today|tonight|yet|anything|much|that|this|it|before|after|until|while|and|or|but|when|at|in|on|during|so|too)\b`)
	enDemonstrative   = text.Lazy(`^(?:that|this|these|those|it|them|him|her)\b`)
	enBadObject       = text.Lazy(`^(?:not|the|it|this|that|these|those|them|you|your|how|what|when|where|the way|the idea|the answer|the code|the solution|the result|the results|the output|waiting|being|having|dealing|doing|to know|to hear|to see|the same|a lot|a bit|lots|too|some|any|one|ones|both|neither|nothing|everything|anything|is|was|are|were|has|had|will|would|every day|every time|each day|so much|very much)\b|^to\s*(?:[.!?,;]|$)`)
	enHedge           = text.Lazy(`\b(?:not sure|i'm not saying|i am not saying|just curious|i guess|maybe|perhaps|probably|i might|i may|i wish|if i were|if i was|would i|i would)\b`)
	enHypo            = text.Lazy(`^(?:(?:and|but|so|ok|okay)[,]?\s+)?(?:if|suppose|supposing|imagine|assuming|assume|let's say|say|what if|hypothetically|in case|unless|when i|when we)\b`)
	enQuestion        = text.Lazy(`^(?:what|why|how|when|where|which|who|whom|whose|can|could|would|will|should|shall|does|did|is|are|was|were|has|have|any|isn't|aren't|do you|do we|do i)\b`)
	enSarcasm         = text.Lazy(`^(?:lol|lmao|haha|yeah right|oh sure|sure,|oh great|great,|wow,)|\*[a-z]+\*|/s$|🙄|🙃|😒|\byeah right\b`)
	enThird           = text.Lazy(`^(?:my|our|his|her|their) (?:colleague|coworker|co-worker|friend|wife|husband|partner|boss|manager|brother|sister|mother|mom|mum|father|dad|son|daughter|team|kid|kids|roommate|client|teacher|girlfriend|boyfriend)|^(?:he|she|they|someone|somebody|people|everyone)\b`)
	enOutroEnd        = []string{" so ", " because ", " but ", " which ", " since ", " and i ", " when ", " though ", " although ", " unless ", " if "}
	nameStop          = map[string]bool{"not": true, "sure": true, "going": true, "so": true, "just": true, "also": true, "really": true, "here": true, "back": true, "done": true, "fine": true, "ok": true, "okay": true, "sorry": true, "glad": true, "happy": true, "still": true, "trying": true, "working": true, "using": true, "new": true, "good": true, "afraid": true, "aware": true, "pretty": true, "very": true, "on": true, "in": true, "at": true, "from": true, "based": true, "currently": true, "a": true, "an": true, "the": true, "english": true, "american": true, "british": true, "chinese": true, "german": true, "french": true, "italian": true, "spanish": true, "japanese": true, "indian": true, "canadian": true, "dutch": true, "swiss": true, "irish": true, "australian": true, "korean": true, "brazilian": true, "russian": true, "polish": true, "vegetarian": true, "vegan": true, "allergic": true, "learning": true, "tired": true, "busy": true, "confused": true, "stuck": true, "ready": true, "curious": true, "wondering": true, "thinking": true}
)

// enGuarded reports sentences that state no fact of the person: questions, hypotheticals,
// hedges, sarcasm and sentences about someone else.
func enGuarded(s *sentence) bool {
	l := strings.TrimSpace(s.lower)
	if enPoliteStop.MatchString(l) {
		return false // "Could you stop using single-letter names?" asks for a lasting change
	}
	question := enQuestion.MatchString(l) && !enWhenYou.MatchString(l) // "When you write SQL, always …"
	return strings.HasSuffix(l, "?") || question || enHypo.MatchString(l) ||
		enHedge.MatchString(l) || enSarcasm.MatchString(l) || enThird.MatchString(l)
}

// enRules tries the English rule families on one sentence, most specific first; a sentence
// yields one finding, or one per identity fact it states (enIdentityRule).
func enRules(s *sentence, ps *profile) []finding {
	if f, ok := enHouseholdRule(s); ok {
		return []finding{f}
	}
	// "my team uses Databricks" is the person's work setting, though "my team" opens it.
	if enTeamUses.MatchString(s.lower) && !strings.HasSuffix(strings.TrimSpace(s.lower), "?") {
		return one(enPrefRule(s, ps))
	}
	if enGuarded(s) {
		// "She hates crowds, I love food markets": the person may speak after someone else.
		l := s.lower
		if enThird.MatchString(strings.TrimSpace(l)) && !strings.HasSuffix(strings.TrimSpace(l), "?") {
			for _, sep := range []string{", i ", ", i'm ", ", i’m ", "; i ", ", we're ", ", we ", "; we "} {
				if i := strings.Index(l, sep); i > 0 {
					return enRules(s.from(i+2), ps)
				}
			}
		}
		return nil
	}
	// "From now on, call me Sam": what the person asks to be called is their name, the fact the
	// profile and "what is my name" answer from; read as a standing rule first, it was kept among
	// the feedback rules and no name was known. A sentence that goes on after the name ("call me
	// Sam, and use British spelling") stays one rule, as before, so the rest is not lost.
	if m := enCallMe.FindStringIndex(s.lower); m != nil && namingOnly(s.lower[m[1]:]) {
		if fs := enIdentityRule(s, ps); namesPerson(fs) {
			return fs
		}
	}
	for _, r := range []func(*sentence, *profile) (finding, bool){enRememberRule, enFeedbackRule} {
		if f, ok := r(s, ps); ok {
			return []finding{f}
		}
	}
	if fs := enIdentityRule(s, ps); len(fs) > 0 {
		return fs
	}
	for _, r := range []func(*sentence, *profile) (finding, bool){enDietRule, enPrefRule} {
		if f, ok := r(s, ps); ok {
			return []finding{f}
		}
	}
	return nil
}

// one is a single rule's finding as a list.
func one(f finding, ok bool) []finding {
	if !ok {
		return nil
	}
	return []finding{f}
}

func enRememberRule(s *sentence, _ *profile) (finding, bool) {
	m := enRemember.FindStringSubmatchIndex(s.lower)
	high := true
	if m == nil {
		// "Note that we pin terraform to 1.5": a fact stated for later, but not an explicit
		// request to remember, so medium.
		n := enNoteWe.FindStringSubmatchIndex(s.lower)
		if n == nil {
			return finding{}, false
		}
		m, high = []int{n[0], n[2], -1, -1, -1, -1}, false
	}
	rest := s.lower[m[1]:]
	content := clipRunes(trimPunct(s.orig[m[1]:]), offlinePhraseRunes)
	// "Remember this error" points at the chat; there is no fact to keep without the chat. A
	// project named before the verb ("For this project remember: …") points at nothing.
	verb := m[0]
	if m[2] >= 0 {
		verb = m[3]
	}
	lead := s.lower[verb:m[1]]
	pointer := strings.Contains(lead, " this") ||
		strings.Contains(lead, " that") && !enAboutMe.MatchString(rest) && !enClauseStart.MatchString(rest)
	// "Remember to run the migrations after this" is a reminder for the task at hand; "remember
	// to always sign commits" is a lasting rule.
	reminder := strings.HasPrefix(rest, "to ") && !enDurable.MatchString(rest) && !enLastingWhen.MatchString(rest)
	if enRecall.MatchString(rest) || len(content) < 4 || (pointer && len(strings.Fields(content)) <= 3) || reminder {
		return finding{}, false
	}
	pinned := m[2] >= 0 || m[4] >= 0 || enPin.MatchString(s.lower)
	typ := "reference"
	switch {
	case enAboutMe.MatchString(rest):
		typ = "user"
	case enImperative.MatchString(rest):
		typ = "feedback"
	}
	if pinned {
		typ = "project"
	}
	title := capFirst(content)
	if typ == "user" {
		title = capFirst(thirdPerson(content)) // "remember I use zsh": Uses zsh
	}
	return finding{typ: typ, kind: "note", slugKey: content, title: title,
		body:  "The person asked to remember: " + content + ".",
		start: s.start, end: s.end, high: high, pinned: pinned, rule: "en.remember"}, true
}

func enFeedbackRule(s *sentence, ps *profile) (finding, bool) {
	l := s.lower
	durable := enDurable.MatchString(l)
	ok, rule := false, ""
	switch {
	case enWhenYou.MatchString(l):
		// "Whenever you write docs, use British spelling": a standing rule when an instruction follows.
		m := enWhenYou.FindStringSubmatchIndex(l)
		ok, rule = (m[2] < 0 || imperativeAfter(l, m[2])) && !enWhenOffer.MatchString(l), "en.when-you"
	case enPoliteStop.MatchString(l):
		ok, rule = true, "en.please-stop"
	case enWeConvention.MatchString(l):
		ok, rule = true, "en.we-convention"
	case enConvention.MatchString(l):
		ok, rule = true, "en.convention"
	case enComplaint.MatchString(l):
		ok, rule = true, "en.complaint"
	case enLangAnswer.MatchString(l):
		ok, rule = true, "en.answer-language"
		ps.add(SignalCommStyle, "answers in "+enLangAnswer.FindStringSubmatch(l)[1], s.orig)
	case enLessMore.MatchString(l):
		ok, rule = true, "en.less-more"
		ps.add(SignalCommStyle, strings.TrimSpace(strings.TrimPrefix(enLessMore.FindString(l), "be ")), s.orig)
	case enStyle.MatchString(l):
		ok, rule = true, "en.style"
		ps.add(SignalCommStyle, enStyle.FindStringSubmatch(l)[1]+" answers", s.orig)
	case enHateWhen.MatchString(l):
		ok, rule = true, "en.hate-when"
	case enFromNow.MatchString(l):
		// "From now on, compare … to Ruby" instructs; "from now on this module is deprecated"
		// describes the code.
		m := enFromNow.FindStringSubmatchIndex(l)
		next := l[m[2]:m[3]]
		ok, rule = enInstructionWord.MatchString(next) || (!enNotInstruction.MatchString(next) && imperativeAfter(l, m[2])), "en.from-now-on"
	case enImperDurable.MatchString(l):
		ok, rule = true, "en.imperative-always"
	case enAlwaysNever.MatchString(l):
		// "Always add JSDoc" is a rule; "always fails on CI", "never worked" report a bug.
		at := enAlwaysNever.FindStringSubmatchIndex(l)[3]
		ok, rule = imperativeAfter(l, at) && !strings.Contains(l, "never mind") && !aboutThisArtifact(l[at:]), "en.always-never"
	case enUseNot.MatchString(l):
		// "Use the existing helper instead" is about this code; "use pnpm, not npm" is a rule.
		obj := strings.TrimSpace(l[enUseNot.FindStringSubmatchIndex(l)[2]:])
		ok, rule = !enBadObject.MatchString(obj) || enDurable.MatchString(strings.ReplaceAll(l, "instead", "")), "en.use-not"
	case enStopDoing.MatchString(l) && !enTaskObject.MatchString(strings.TrimSpace(l[enStopDoing.FindStringSubmatchIndex(l)[3]:])) &&
		strings.TrimSpace(trimPunct(l[enStopDoing.FindStringSubmatchIndex(l)[3]:])) != "":
		ok, rule = true, "en.stop-doing"
	case enDont.MatchString(l):
		verb := enDont.FindStringSubmatch(l)[1]
		if verb == "worry" || verb == "forget" || verb == "bother" || verb == "mind" || verb == "panic" || verb == "be" || verb == "know" {
			break // "don't worry about it anymore" is reassurance, not a rule
		}
		if rest := strings.TrimSpace(l[enDont.FindStringSubmatchIndex(l)[3]:]); enDemonstrative.MatchString(rest) {
			break // "don't change that line again" is about this task's artifact
		}
		named := (verb == "use" || verb == "using" || verb == "import" || verb == "importing" || verb == "install" || verb == "installing") && hasNamedObject(s, enDont.FindStringIndex(l)[1])
		ok, rule = durable || named, "en.dont"
	}
	// "Don't let anything stop you": the listener is who the sentence
	// acts on, which is encouragement, not how the agent should work.
	if !ok || (enTaskish.MatchString(l) && !enPin.MatchString(l)) || enAtListener.MatchString(l) || enCheerUp.MatchString(l) {
		return finding{}, false
	}
	said := saidText(s)
	return finding{typ: "feedback", kind: "rule", slugKey: said, title: capFirst(said),
		body:  "The person told the agent: “" + said + "”.",
		start: s.start, end: s.end, pinned: enPin.MatchString(l), rule: rule}, true
}

func enDietRule(s *sentence, _ *profile) (finding, bool) {
	l := s.lower
	var m []int
	for _, re := range []*text.Regexp{enDiet, enAllergy, enCant, enOnly} {
		if m = re.FindStringIndex(l); m != nil {
			break
		}
	}
	// "I can't eat right now", "I don't drink and drive": a moment or a clause, not a food.
	if m == nil || enDietNot.MatchString(l[m[1]-1:]) {
		return finding{}, false
	}
	said := clipRunes(thirdPerson(trimPunct(s.orig[m[0]:clauseEnd(l, m[1])])), offlinePhraseRunes)
	return finding{typ: "user", kind: "diet", slugKey: said, title: said,
		body:  said + ".\n\nThe person said: “" + saidText(s) + "”",
		start: s.start + m[0], end: s.end, rule: "en.diet"}, true
}

func enPrefRule(s *sentence, ps *profile) (finding, bool) {
	l := s.lower
	kind := ""
	var m []int
	objAt := -1 // where the tool a "uses" names starts
	switch {
	case enStack.MatchString(l):
		m, kind = enStack.FindStringIndex(l), "stack"
	case enTeamUses.MatchString(l):
		m, kind = enTeamUses.FindStringIndex(l), "stack"
	case enWeUse.MatchString(l):
		m = enWeUse.FindStringSubmatchIndex(l)
		if !capitalised(s, m[2]) && !isTool(l[m[2]:m[3]]) {
			return finding{}, false
		}
		kind = "stack"
	case enBigFan.MatchString(l):
		m, kind = enBigFan.FindStringIndex(l), "likes"
	case enProject.MatchString(l):
		m, kind = enProject.FindStringIndex(l), "project"
	case enUseWide.MatchString(l):
		m, kind = enUseWide.FindStringIndex(l), "uses"
	case enHabit.MatchString(l):
		m, kind = enHabit.FindStringIndex(l), "likes"
	case enEnv.MatchString(l):
		m, kind = enEnv.FindStringIndex(l), "env"
	case enSkill.MatchString(l):
		m, kind = enSkill.FindStringIndex(l), "skill"
	case enNeverLiked.MatchString(l):
		m, kind = enNeverLiked.FindStringIndex(l), "likes"
		if strings.Contains(l[m[0]:m[1]], "never") {
			kind = "dislikes"
		}
	case enDislike.MatchString(l):
		m, kind = enDislike.FindStringIndex(l), "dislikes"
		if enBadObject.MatchString(l[m[1]-1:]) {
			return finding{}, false // "I hate this bug", "I don't like the second option": the chat, not the person
		}
	case enLike.MatchString(l):
		m = enLike.FindStringSubmatchIndex(l)
		if enBadObject.MatchString(l[m[4]:]) || (l[m[2]:m[3]] == "like" && strings.HasPrefix(l[m[4]:], "to ")) {
			return finding{}, false
		}
		kind = "likes"
	case enFan.MatchString(l):
		m, kind = enFan.FindStringIndex(l), "likes"
		if m[1] < len(l) && enBadObject.MatchString(l[m[1]-1:]) {
			return finding{}, false
		}
	case enFav.MatchString(l):
		m, kind = enFav.FindStringIndex(l), "likes"
	case enUse.MatchString(l):
		m = enUse.FindStringSubmatchIndex(l)
		obj := l[m[2]:m[3]]
		// A tool the lexicon does not know is still one when the person sets it against
		// another ("I always use ripgrep instead of grep"): the contrast says it is a choice.
		if !capitalised(s, m[2]) && !isTool(obj) && !(enUseOver.MatchString(l[m[2]:]) && !chatPointer[strings.TrimRight(obj, ",")]) {
			return finding{}, false
		}
		kind, objAt = "uses", m[2]
	default:
		return finding{}, false
	}
	end := clauseEnd(l, m[1])
	if end < m[1] {
		end = m[1] // the match ends on the object's last character ("I mostly write Go.")
	}
	obj := clipRunes(thirdPerson(trimPunct(s.orig[m[0]:end])), offlinePhraseRunes)
	if obj == "" {
		return finding{}, false
	}
	if t, ok := usedAs(s, objAt, end); ok {
		obj = t
	}
	f := finding{typ: "user", kind: kind, slugKey: obj, title: obj,
		body:  obj + ".\n\nThe person said: “" + saidText(s) + "”",
		start: s.start + m[0], end: s.end, rule: "en." + kind}
	// A dislike's negation is its verb; elsewhere a negated or contrasted tool ("I use Go,
	// not Java") is not one the person uses.
	named := l[m[0]:end]
	if kind != "dislikes" {
		named = positiveOnly(l)[m[0]:end]
	}
	for _, t := range toolsIn(named) {
		switch kind {
		case "uses", "likes", "env", "stack":
			ps.add(SignalPreferredTool, t, s.orig)
			f.rel("uses", t)
		case "dislikes":
			f.rel("dislikes", t)
		case "skill":
			f.rel("knows", t)
		}
	}
	return f, true
}

// enHouseholdRule keeps the name of the person's pet or family member ("my dog is called
// Biscuit"): a fact of the person's life, unlike what that relative likes or does, which the
// third-person guard leaves out.
func enHouseholdRule(s *sentence) (finding, bool) {
	l := strings.TrimSpace(s.lower)
	m := enHousehold.FindStringSubmatchIndex(s.lower)
	if m == nil || strings.HasSuffix(l, "?") || !capitalised(s, m[2]) && !strings.Contains(l[:m[2]-m[0]], "called") && !strings.Contains(l[:m[2]-m[0]], "named") {
		return finding{}, false
	}
	name := s.orig[m[2]:m[3]]
	if nameStop[strings.ToLower(name)] || strings.EqualFold(name, "a") {
		return finding{}, false
	}
	said := clipRunes(trimPunct(s.orig[m[0]:clauseEnd(s.lower, m[3])]), offlinePhraseRunes)
	return finding{typ: "user", kind: "household", slugKey: said, title: "Household: " + said,
		body:  "Household: " + said + ".\n\nThe person said: “" + saidText(s) + "”",
		start: s.start + m[0], end: s.end, rule: "en.household"}, true
}

// chatPointer holds the words that point at the chat, not at a thing the person uses ("I use
// this instead of that", "I use it rather than nothing").
var chatPointer = map[string]bool{"this": true, "that": true, "it": true, "these": true, "those": true, "them": true,
	"the": true, "a": true, "an": true, "one": true, "something": true, "anything": true, "nothing": true, "what": true,
	"which": true, "mine": true, "yours": true, "both": true, "either": true, "neither": true, "whatever": true}
