// Package token moved to engram/backend/text, the one segmenter. It forwards the two names
// recall/search.go and recall/context.go still use, because those files change on other
// branches at the same time; switch them to text and delete this package.
//
// Deprecated: use engram/backend/text.
package token

import "engram/backend/text"

// Token is text.Token.
//
// Deprecated: use text.Token.
type Token = text.Token

// Split is text.Split.
//
// Deprecated: use text.Split.
func Split(s string) []Token { return text.Split(s) }

// HasCJK is text.HasCJK.
//
// Deprecated: use text.HasCJK.
func HasCJK(s string) bool { return text.HasCJK(s) }
