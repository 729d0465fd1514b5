package memory

import (
	"encoding/base64"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"engram/backend/text"
)

// credentialNameRE is what makes `name: value` an assignment worth judging.
var credentialNameRE = text.Lazy(`(?i)password|passwd|passphrase|secret|token|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|credentials?|密码|口令|密钥|令牌`)

// findAssignments finds `name: value`, `name = "value"`, `"name": "value"`, `name := value`
// and `name => value` where name mentions a password or a credential. Each match is
// [start, end, name, double-quoted value, single-quoted value, bare value] as submatch
// indexes, -1 for the value forms absent. It walks from each separator instead of running a
// regexp whose leading name class would be tried from every position (quadratic).
func findAssignments(text string) [][]int {
	var out [][]int
	for p := 0; p < len(text); p++ {
		c := text[p]
		if c != ':' && c != '=' {
			continue
		}
		sepEnd := p + 1
		switch {
		case c == ':' && sepEnd < len(text) && text[sepEnd] == '=', c == '=' && sepEnd < len(text) && text[sepEnd] == '>':
			sepEnd++
		case c == '=' && (sepEnd < len(text) && text[sepEnd] == '=' || p > 0 && strings.IndexByte("=!<>", text[p-1]) >= 0):
			continue // a comparison
		}
		// name ["']? [ \t]* separator
		q := p
		for q > 0 && (text[q-1] == ' ' || text[q-1] == '\t') {
			q--
		}
		if q > 0 && (text[q-1] == '"' || text[q-1] == '\'') {
			q--
		}
		nameEnd, nameStart := q, q
		for nameStart > 0 {
			r, size := utf8.DecodeLastRuneInString(text[:nameStart])
			if !(r < utf8.RuneSelf && (isAlnum(byte(r)) || r == '_' || r == '.' || r == '-') || r >= utf8.RuneSelf && unicode.IsLetter(r)) {
				break
			}
			nameStart -= size
		}
		if nameStart == nameEnd || !credentialNameRE.MatchString(text[nameStart:nameEnd]) {
			continue
		}
		v := sepEnd
		for v < len(text) && (text[v] == ' ' || text[v] == '\t') {
			v++
		}
		m := []int{nameStart, 0, nameStart, nameEnd, -1, -1, -1, -1, -1, -1}
		if v < len(text) && (text[v] == '"' || text[v] == '\'') {
			end := strings.IndexAny(text[v+1:], string(text[v])+"\n")
			if end < 6 || text[v+1+end] != text[v] {
				continue
			}
			g := 4
			if text[v] == '\'' {
				g = 6
			}
			m[g], m[g+1], m[1] = v+1, v+1+end, v+2+end
		} else {
			end := v
			for end < len(text) && strings.IndexByte(" \t\r\n\v\f\"',;", text[end]) < 0 {
				end++
			}
			if utf8.RuneCountInString(text[v:end]) < 6 {
				continue
			}
			m[8], m[9], m[1] = v, end, end
		}
		out = append(out, m)
	}
	return out
}

// findURLPasswords finds scheme://user:password@host around each "://"; group 1 is the
// password.
func findURLPasswords(text string) [][]int {
	var out [][]int
	for off := 0; ; {
		i := strings.Index(text[off:], "://")
		if i < 0 {
			return out
		}
		i += off
		start := i
		for start > 0 && i-start < 21 && (isAlnum(text[start-1]) || strings.IndexByte("+.-", text[start-1]) >= 0) {
			start--
		}
		if m := urlPasswordRE.FindStringSubmatchIndex(text[start:]); m != nil {
			for k := range m {
				if m[k] >= 0 {
					m[k] += start
				}
			}
			out = append(out, m)
		}
		off = i + 3
	}
}

var (
	passwordNameRE = text.Lazy(`(?i)password|passwd|passphrase|密码|口令`)
	strongNameRE   = text.Lazy(`(?i)api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|client[_.-]?secret|secret[_.-]?key|credentials?|密钥`)
	// names that hold something about a credential, not the credential itself.
	metaNameRE = text.Lazy(`(?i)(?:file|path|dir|url|uri|endpoint|env|var|name|length|len|min|max|policy|field|type|mode|hint|prompt|label|rules?|expiry|expires|ttl|count|header|param|reset|id|hash|store|manager|helper|source|secrets|tokens|keys|passwords)$|^(?:max|min)[_.-]|tokeni[sz]er|public|csrf|xsrf`)
	// weakWordRE finds "secret" or "token" as a word of a name: snake, kebab, dotted or camel
	// case, or anywhere in an all-caps name (PGTOKEN); "jsonwebtoken" does not count.
	weakWordRE    = text.Lazy(`(?:^|[_.-])(?i:secret|token)|[A-Za-z0-9](?:Secret|Token)|^[A-Z0-9_.-]*(?:SECRET|TOKEN)[A-Z0-9_.-]*$`)
	placeholderRE = text.Lazy(`(?i)^(?:![a-z]+|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\{[^}]*\}|\{\{.*\}\}|%\(?[a-z_]*\)?s|\*+|x+|\.+|-+|null|none|nil|undefined|true|false|changeme|change[_-]?me|password|secret|redacted|\[redacted\]|hidden|your[_-].*|example.*|.*example|dummy.*|fake.*|placeholder.*|todo|tbd|\?+)$`)
	codeValueRE   = text.Lazy("[A-Za-z_][A-Za-z0-9_]*[(\\[]|^[A-Za-z_]+(?:\\.[A-Za-z_]+)+$|^(?:https?://|/|~/|\\./|\\.\\./|file:|`)")
	curlRE        = text.Lazy(`\bcurl\b`)
	urlPasswordRE = text.Lazy(`^[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s:/@?#]*:([^\s/@?#]+)@[A-Za-z0-9.\[\]-]+`)
	redactedRE    = text.Lazy(`(?i)redacted|\.\.\.|…`)
	jwtRE         = text.Lazy(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`)
	awsContextRE  = text.Lazy(`(?i)aws|amazon|secret.?access|akia|asia|\bs3\b|\biam\b`)
)

// notExample lets AWS's documented example credentials through, and a placeholder id whose
// sixteen characters are one run (AKIAXXXXXXXXXXXXXXXX).
func notExample(text string, m []int) bool {
	v := text[m[0]:m[1]]
	return !strings.Contains(strings.ToUpper(v), "EXAMPLE") && !(len(v) == 20 && placeholderRun(v[4:]))
}

// mixedCase accepts a match whose group g holds both cases in good measure, as generated
// tokens do and camelCase identifiers (an uppercase letter per word) do not.
func mixedCase(g int) func(string, []int) bool {
	return func(text string, m []int) bool {
		v := text[m[2*g]:m[2*g+1]]
		var upper, lower int
		for _, r := range v {
			if unicode.IsUpper(r) {
				upper++
			} else if unicode.IsLower(r) {
				lower++
			}
		}
		return upper*5 >= len(v) && lower*5 >= len(v)
	}
}

// randomish accepts a match whose group g looks generated: letters and digits mixed, with the
// character spread of random text. Kebab-case words and prose fail it.
func randomish(g int) func(string, []int) bool {
	return func(text string, m []int) bool { return looksRandom(text[m[2*g]:m[2*g+1]]) }
}

func looksRandom(v string) bool {
	if len(v) < 12 || notExampleValue(v) {
		return false
	}
	var upper, lower, digit bool
	for _, r := range v {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= '0' && r <= '9':
			digit = true
		}
	}
	if !digit || !(upper || lower) {
		return false
	}
	return entropy(v) >= 3.0
}

func notExampleValue(v string) bool { return strings.Contains(strings.ToUpper(v), "EXAMPLE") }

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h, n := 0.0, float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// bareAWSSecret accepts a run of exactly 40 base64 characters that looks random and has an
// AWS word within 100 characters. Longer runs (base64 images, hashes) are not secrets, and
// neither are hex digests (one case only) or runs followed by base64 padding.
func bareAWSSecret(text string, m []int) bool {
	start, end := m[0], m[1]
	if end-start != 40 || (end < len(text) && strings.IndexByte("=-_", text[end]) >= 0) ||
		(start > 0 && strings.IndexByte("-_", text[start-1]) >= 0) {
		return false
	}
	v := text[start:end]
	var upper, lower, digit bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9', c == '+':
			digit = true
		}
	}
	if !upper || !lower || !digit || entropy(v) < 4.0 || notExampleValue(v) {
		return false
	}
	lo, hi := max(0, start-100), min(len(text), end+100)
	return awsContextRE.MatchString(text[lo:start]) || awsContextRE.MatchString(text[end:hi])
}

// placeholderRun reports a made-up value: one character repeated (xxxxxx, 000000, ######) or
// one counting run (abcdefgh, 123456). Only a whole value counts, so every beginning of it
// that a rule still matches — a quote cut short — gets the same verdict as the whole.
func placeholderRun(v string) bool {
	if len(v) < 6 {
		return false
	}
	same, up := true, true
	for i := 1; i < len(v); i++ {
		same = same && v[i] == v[0]
		up = up && isAlnum(v[i]) && v[i] == v[i-1]+1
	}
	return same || up
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// base64PrivateKey accepts base64 text whose start decodes to a private key's BEGIN line.
func base64PrivateKey(text string, m []int) bool {
	v := strings.TrimRight(text[m[0]:m[1]], "=")
	v = v[:min(len(v), 120)/4*4]
	dec, err := base64.StdEncoding.DecodeString(v)
	return err == nil && strings.Contains(string(dec), "PRIVATE KEY")
}

// base64JWT accepts base64 text that decodes to a JWT.
func base64JWT(text string, m []int) bool {
	v := strings.TrimRight(text[m[0]:m[1]], "=")
	v = v[:len(v)/4*4]
	dec, err := base64.StdEncoding.DecodeString(v)
	return err == nil && jwtRE.Match(dec)
}

// curlUser accepts `curl -u user:password` with a real password (not $VAR, not a placeholder).
func curlUser(text string, m []int) bool {
	if !curlRE.MatchString(text[max(0, m[0]-300):m[0]]) {
		return false
	}
	user, pw := text[m[2]:m[3]], text[m[4]:m[5]]
	return !strings.ContainsAny(user+pw, "<>[]{}") && credentialValue(pw)
}

// urlPassword accepts a URL whose password is not a placeholder or a port-like number.
func urlPassword(text string, m []int) bool {
	pw := text[m[2]:m[3]]
	if placeholderRE.MatchString(pw) || strings.HasPrefix(pw, "$") || strings.HasPrefix(pw, "%") {
		return false
	}
	// postgres://postgres:postgres@localhost, amqp://guest:guest@rabbit: a local service's
	// default login, its password its user's name, is in every compose file and README.
	if u := text[m[0]:m[2]]; strings.HasSuffix(u, "://"+pw+":") {
		host := text[m[3]+1 : m[1]]
		if h := strings.Trim(host, "[]"); h == "localhost" || h == "127.0.0.1" || h == "::1" || !strings.Contains(h, ".") {
			return false
		}
	}
	allDigits := strings.Trim(pw, "0123456789") == ""
	return !(allDigits && len(pw) <= 5)
}

// plainValue accepts group g unless it is a placeholder, a reference to where the secret
// lives (a variable, a path, a call) or a lowercase word such as a type name.
func plainValue(g int) func(string, []int) bool {
	return func(text string, m []int) bool { return credentialValue(text[m[2*g]:m[2*g+1]]) }
}

func credentialValue(v string) bool {
	v = strings.TrimRight(strings.TrimSpace(v), ".,;")
	if utf8.RuneCountInString(v) < 6 || placeholderRE.MatchString(v) || codeValueRE.MatchString(v) ||
		strings.HasPrefix(v, "$") || notExampleValue(v) || redactedRE.MatchString(v) {
		return false
	}
	// "password: required", "api_key: string": a plain lowercase word is a schema, not a value.
	if len(v) < 12 && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz") == "" {
		return false
	}
	return true
}

// proseCredential accepts a key or token named in a sentence when it looks made up: beyond
// credentialValue, a digit, a symbol or a capital after its first letter, and not a reference.
func proseCredential(g int) func(string, []int) bool { return proseValue(g, proseReference) }

// prosePassword is proseCredential for a password: a password is typed by a person, and one
// shaped like a variable's name ("my password is MY_SECRET_2024") is a password, not the name
// of where it lives; only a location or a kind is a reference.
func prosePassword(g int) func(string, []int) bool { return proseValue(g, passwordReference) }

func proseValue(g int, reference *text.Regexp) func(string, []int) bool {
	return func(text string, m []int) bool {
		v := strings.TrimRight(text[m[2*g]:m[2*g+1]], ".,;!?")
		if !credentialValue(v) || reference.MatchString(v) {
			return false
		}
		for i, r := range v {
			if unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || (i > 0 && unicode.IsUpper(r)) {
				return true
			}
		}
		return false
	}
}

// proseReference is what a sentence names a credential by rather than gives: where it lives
// (vault://prod/db), the variable or header that carries it (OPENAI_API_KEY, X-Auth-Token),
// or what kind it is ("the token is JWT-encoded", "OAuth2-based").
var passwordReference = text.Lazy(`^[A-Za-z][A-Za-z0-9+.-]*://|` + credentialKind)

// credentialKind is a word saying what kind a credential is ("JWT-encoded", "OAuth2-based").
const credentialKind = `(?i)^[a-z][a-z0-9]*-(?:based|encoded|prefixed|signed|scoped|style|like|only|specific|compatible|formatted|protected|bound|enabled|free|safe|aware|wide|backed|driven|generated|issued|managed|rotated|shaped)$`

var proseReference = text.Lazy(`^[A-Za-z][A-Za-z0-9+.-]*://|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+$|` +
	`(?i)^[a-z][a-z0-9]*-(?:based|encoded|prefixed|signed|scoped|style|like|only|specific|compatible|formatted|protected|bound|enabled|free|safe|aware|wide|backed|driven|generated|issued|managed|rotated|shaped)$`)

// notPath refuses a value that is a path (a folder's name ends in a slash or starts with one),
// then asks valid.
func notPath(valid func(string, []int) bool, g int) func(string, []int) bool {
	return func(text string, m []int) bool {
		v := text[m[2*g]:m[2*g+1]]
		if strings.ContainsAny(v, "/\\") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".") {
			return false
		}
		return valid(text, m)
	}
}

// assignment judges `name: value`. A password name takes any credential-like value; a key or
// credential name too; a bare "secret" or "token" name needs a value that looks generated.
func assignment(text string, m []int) bool {
	name := text[m[2]:m[3]]
	var v string
	for g := 2; g <= 4; g++ {
		if m[2*g] >= 0 {
			v = text[m[2*g]:m[2*g+1]]
		}
	}
	if metaNameRE.MatchString(name) {
		return false
	}
	if passwordNameRE.MatchString(name) || strongNameRE.MatchString(name) {
		return credentialValue(v)
	}
	return weakWordRE.MatchString(name) && credentialValue(v) && looksRandom(v)
}

func assignmentKind(name string) string {
	if passwordNameRE.MatchString(name) {
		return "password_assignment"
	}
	return "api_key_assignment"
}
