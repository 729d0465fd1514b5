package recall

import (
	"strings"

	"engram/backend/text"
)

// People type questions to an assistant as they text: "can u talk to me in spanish", "whats
// my day off", "remind urself how ur meant to talk to me". The facet forms are written in
// full words, so a question's texting words are read as the words they stand for before its
// facets are read (only there: search still looks for what was typed).
var reTexting = text.Lazy(`(?i)\b(?:u|ur|urself|im|ive|whats|wat|wats|wot|wheres|whos|hows|whens|dont|cant|wont|doesnt|pls|plz|thx)\b`)

var textingWords = map[string]string{
	"u": "you", "ur": "your", "urself": "yourself", "im": "i'm", "ive": "i've",
	"whats": "what's", "wat": "what", "wats": "what's", "wot": "what", "wheres": "where's", "whos": "who's", "hows": "how's", "whens": "when's",
	"dont": "don't", "cant": "can't", "wont": "won't", "doesnt": "doesn't", "pls": "please",
	"plz": "please", "thx": "thanks",
}

// foldTexting spells out a question's texting words (see above); CJK questions pass as they are.
func foldTexting(q string) string {
	if text.HasCJK(q) || !reTexting.MatchString(q) {
		return q
	}
	return reTexting.ReplaceAllStringFunc(q, func(w string) string { return textingWords[strings.ToLower(w)] })
}
