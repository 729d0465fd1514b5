package memory

import (
	"encoding/base64"
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The secret guard refuses writes that would put credentials into plain Markdown that every
// agent reads. It is a table of provider shapes (fixed prefixes, exact lengths) plus a few
// context rules judged by what the value looks like (an assignment to a password or key name,
// a URL with a password, a bare AWS secret next to an AWS word). Its table test
// (testdata/secrets.tsv) measures detection and false positives; see guard_test.go.
//
// A hand-written table was kept over gitleaks as a library: on the same table gitleaks found
// 60% of the shapes (67% after the same normalisation; this guard all of them, neither with a
// false positive), and it would add 58 modules (viper, cobra, archive readers, a wasm regexp
// runtime), 8 MB to the binary and a 0.2-0.6 s detector build; the figures and how they were
// measured are in the issue 8 report.

// secretRule is one shape. A rule runs only when the lowercased text holds one of its
// keywords, and then line by line (short inputs keep Go's regexp on its fast path); a whole
// rule sees the text at once because its shape or its context spans lines. valid, when set,
// judges a match (submatch indexes into the text the rule ran on) so look-alikes such as
// documented examples or placeholders pass.
type secretRule struct {
	kind     string
	re       *regexp.Regexp
	valid    func(text string, m []int) bool
	keywords []string
	whole    bool
	find     func(text string) [][]int // instead of re
}

func rule(kind, re string, keywords ...string) secretRule {
	return secretRule{kind: kind, re: regexp.MustCompile(re), keywords: keywords}
}

func judged(kind, re string, valid func(string, []int) bool, keywords ...string) secretRule {
	return secretRule{kind: kind, re: regexp.MustCompile(re), valid: valid, keywords: keywords}
}

func whole(r secretRule) secretRule { r.whole = true; return r }

// secretRules run in order; the first rule that matches names the kind. Provider shapes come
// before the context rules so a token assigned to a variable is named for its provider.
var secretRules = []secretRule{
	rule("pgp_private_key", `-----BEGIN PGP PRIVATE KEY BLOCK-----`, "-----begin"),
	rule("private_key", `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----|PuTTY-User-Key-File-\d+:`, "-----begin", "putty-user-key-file"),
	rule("age_secret_key", `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`, "age-secret-key-1"),
	// AWS documents AKIAIOSFODNN7EXAMPLE as its example id: examples end in EXAMPLE.
	judged("aws_access_key", `\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`, notExample, "akia", "asia", "abia", "acca", "a3t"),
	rule("github_token", `\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})\b`, "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
	rule("gitlab_token", `\b(?:glpat|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|glffct|gloas)-[A-Za-z0-9_-]{20,}|\bGR1348941[A-Za-z0-9_-]{20,}`, "gl", "gr1348941"),
	judged("huggingface_token", `\b(?:hf|api_org)_([A-Za-z]{34})\b`, mixedCase(1), "hf_", "api_org_"),
	rule("anthropic_key", `\bsk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_-]{20,}`, "sk-ant-"),
	judged("openai_key", `\bsk-(?:(?:proj|svcacct|admin|None)-)?([A-Za-z0-9_-]{20,})`, randomish(1), "sk-"),
	rule("groq_key", `\bgsk_[A-Za-z0-9]{48,}\b`, "gsk_"),
	rule("xai_key", `\bxai-[A-Za-z0-9]{70,}\b`, "xai-"),
	rule("perplexity_key", `\bpplx-[A-Za-z0-9]{40,}\b`, "pplx-"),
	rule("replicate_token", `\br8_[A-Za-z0-9]{37}\b`, "r8_"),
	rule("slack_token", `\bxox[abposr]-\d{6,}-[A-Za-z0-9-]{8,}|\bxoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{100,}|\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`, "xox", "xapp-"),
	rule("slack_webhook", `\bhooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}`, "hooks.slack.com"),
	rule("teams_webhook", `\.webhook\.office\.com/webhookb2/[A-Za-z0-9@-]+/IncomingWebhook/[A-Za-z0-9]+/[A-Za-z0-9-]+`, "webhook.office.com"),
	rule("discord_webhook", `https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{60,}`, "discord"),
	rule("google_api_key", `\bAIza[0-9A-Za-z_-]{35}\b`, "aiza"),
	rule("google_oauth_secret", `\bGOCSPX-[A-Za-z0-9_-]{28}\b`, "gocspx-"),
	rule("stripe_key", `\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{20,}\b|\bwhsec_[A-Za-z0-9]{32,}\b`, "k_live_", "k_test_", "whsec_"),
	{kind: "jwt", re: jwtRE, keywords: []string{"eyj"}},
	judged("jwt", `\bZXlK[A-Za-z0-9+/]{60,}={0,2}`, base64JWT, "zxlk"),
	rule("facebook_token", `\bEAA[A-Za-z0-9]{90,}|\b\d{15,16}(?:\||%7C)[A-Za-z0-9_-]{27}\b`, "eaa", "|", "%7c"),
	rule("azure_client_secret", `(?:^|[^A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?:$|[^A-Za-z0-9_~.-])`, "q~"),
	rule("alibaba_access_key", `\bLTAI[A-Za-z0-9]{20}\b`, "ltai"),
	rule("sourcegraph_token", `\bsgp_(?:[A-Fa-f0-9]{16}_|local_)?[A-Fa-f0-9]{40}\b`, "sgp_"),
	rule("npm_token", `\bnpm_[A-Za-z0-9]{36}\b`, "npm_"),
	rule("pypi_token", `\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`, "pypi-"),
	rule("sendgrid_key", `\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`, "sg."),
	rule("twilio_key", `\bSK[0-9a-fA-F]{32}\b`, "sk"),
	rule("telegram_bot_token", `\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b`, ":aa"),
	rule("azure_storage_key", `(?i)AccountKey=[A-Za-z0-9+/]{86}==`, "accountkey="),
	rule("digitalocean_token", `\bdo[por]_v1_[a-f0-9]{64}\b`, "_v1_"),
	rule("vault_token", `\bhv[sb]\.[A-Za-z0-9_-]{24,}`, "hvs.", "hvb."),
	rule("databricks_token", `\bdapi[a-f0-9]{32}(?:-\d)?\b`, "dapi"),
	rule("shopify_token", `\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`, "shp"),
	rule("linear_key", `\blin_api_[A-Za-z0-9]{40}\b`, "lin_api_"),
	rule("notion_token", `\bntn_[A-Za-z0-9]{40,}\b|\bsecret_[A-Za-z0-9]{43}\b`, "ntn_", "secret_"),
	rule("postman_key", `\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`, "pmak-"),
	rule("doppler_token", `\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`, "dp."),
	rule("supabase_token", `\bsbp_[a-f0-9]{40}\b`, "sbp_"),
	rule("grafana_token", `\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|\bglc_[A-Za-z0-9+/]{32,}`, "glsa_", "glc_"),
	rule("sentry_token", `\bsntry[su]_[A-Za-z0-9+/=_-]{40,}`, "sntry"),
	rule("atlassian_token", `\bATATT3[A-Za-z0-9_=-]{150,}`, "atatt3"),
	rule("heroku_token", `\bHRKU-[A-Za-z0-9_-]{60}\b`, "hrku-"),
	// An AWS secret is 40 base64 characters with no prefix: it is judged by its neighbourhood.
	{kind: "aws_secret_key", find: base64Runs, valid: bareAWSSecret, whole: true,
		keywords: []string{"aws", "amazon", "secret", "akia", "asia", "s3", "iam"}},
	{kind: "url_password", find: findURLPasswords, valid: urlPassword, keywords: []string{"://"}},
	judged("authorization_header", `(?i)\b(?:authorization|proxy-authorization)\s*["']?\s*[:=]\s*["']?(?:bearer|basic|token|bot|digest)\s+([A-Za-z0-9._~+/-]{16,}=*)`, randomish(1), "authorization"),
	judged("authorization_header", `\bBearer\s+([A-Za-z0-9._~+/-]{24,}=*)`, randomish(1), "bearer"),
	whole(judged("password_assignment", `(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S{6,})`, plainValue(1), "machine")),
	judged("password_assignment", `(?i)--(?:password|passwd|passphrase)[= ][ \t]*([^\s"']{6,})`, plainValue(1), "--pass"),
	whole(judged("password_assignment", `(?:^|\s)(?:-u|--user)[ =]?["']?([^\s"':]*):([^\s"']{4,})`, curlUser, "curl")),
	{find: findAssignments, valid: assignment, whole: true,
		keywords: []string{"pass", "secret", "token", "key", "credential", "密码", "口令", "密钥", "令牌"}},
}

// credentialNameRE is what makes `name: value` an assignment worth judging.
var credentialNameRE = regexp.MustCompile(`(?i)password|passwd|passphrase|secret|token|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|credentials?|密码|口令|密钥|令牌`)

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
	passwordNameRE = regexp.MustCompile(`(?i)password|passwd|passphrase|密码|口令`)
	strongNameRE   = regexp.MustCompile(`(?i)api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|client[_.-]?secret|secret[_.-]?key|credentials?|密钥`)
	// names that hold something about a credential, not the credential itself.
	metaNameRE = regexp.MustCompile(`(?i)(?:file|path|dir|url|uri|endpoint|env|var|name|length|len|min|max|policy|field|type|mode|hint|prompt|label|rules?|expiry|expires|ttl|count|header|param|reset|id|hash|store|manager|helper|source|secrets|tokens|keys|passwords)$|^(?:max|min)[_.-]|tokeni[sz]er|public|csrf|xsrf`)
	// weakWordRE finds "secret" or "token" as a word of a name: snake, kebab, dotted or camel
	// case, or anywhere in an all-caps name (PGTOKEN); "jsonwebtoken" does not count.
	weakWordRE    = regexp.MustCompile(`(?:^|[_.-])(?i:secret|token)|[A-Za-z0-9](?:Secret|Token)|^[A-Z0-9_.-]*(?:SECRET|TOKEN)[A-Z0-9_.-]*$`)
	placeholderRE = regexp.MustCompile(`(?i)^(?:![a-z]+|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\{[^}]*\}|\{\{.*\}\}|%\(?[a-z_]*\)?s|\*+|x+|\.+|-+|null|none|nil|undefined|true|false|changeme|change[_-]?me|password|secret|redacted|\[redacted\]|hidden|your[_-].*|example.*|.*example|dummy.*|fake.*|placeholder.*|todo|tbd|\?+)$`)
	codeValueRE   = regexp.MustCompile("[A-Za-z_][A-Za-z0-9_]*[(\\[]|^[A-Za-z_]+(?:\\.[A-Za-z_]+)+$|^(?:https?://|/|~/|\\./|\\.\\./|file:|`)")
	curlRE        = regexp.MustCompile(`\bcurl\b`)
	urlPasswordRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s:/@?#]*:([^\s/@?#]+)@[A-Za-z0-9.\[\]-]+`)
	redactedRE    = regexp.MustCompile(`(?i)redacted|\.\.\.|…`)
	jwtRE         = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`)
	awsContextRE  = regexp.MustCompile(`(?i)aws|amazon|secret.?access|akia|asia|\bs3\b|\biam\b`)
)

// notExample lets AWS's documented example credentials through.
func notExample(text string, m []int) bool {
	return !strings.Contains(strings.ToUpper(text[m[0]:m[1]]), "EXAMPLE")
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

// filler reports a made-up value: a run of six identical characters (xxxxxx, 000000, ######)
// or an alphabet or counting run of eight (abcdefgh, 12345678). Generated tokens hold neither.
func filler(s string) bool {
	same, up := 1, 1
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			same++
		} else {
			same = 1
		}
		if isAlnum(s[i]) && s[i] == s[i-1]+1 {
			up++
		} else {
			up = 1
		}
		// runs of A are base64 of zero bytes, which real keys hold (ssh, Twitter bearer tokens).
		if (same >= 6 && s[i] != '-' && s[i] != '=' && s[i] != 'A') || up >= 8 {
			return true
		}
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
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

// scanForm is the text the rules see: format characters (zero-width spaces and joiners, soft
// hyphens, bidi marks) removed and compatibility forms folded (fullwidth Ａ to A, ： to :), so
// a key split or disguised by them is still one key.
func scanForm(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) || r == '\u034f' || r == '\u115f' || r == '\u1160' || r == '\u3164' {
			return -1
		}
		return r
	}, s)
	return norm.NFKC.String(s)
}

// secretKind returns the kind of the first secret found in one text, or "".
func secretKind(s string) string {
	if s == "" {
		return ""
	}
	s = scanForm(s)
	lower := strings.ToLower(s)
	var lines, lowerLines []string
	for i := range secretRules {
		r := &secretRules[i]
		if !containsAny(lower, r.keywords) {
			continue
		}
		if r.whole {
			if k := r.match(s); k != "" {
				return k
			}
			continue
		}
		if lines == nil {
			lines, lowerLines = strings.Split(s, "\n"), strings.Split(lower, "\n")
		}
		for i, line := range lines {
			if !containsAny(lowerLines[i], r.keywords) {
				continue
			}
			if k := r.match(line); k != "" {
				return k
			}
		}
	}
	return ""
}

// match returns the kind the rule names if it finds a secret in text, else "".
func (r *secretRule) match(text string) string {
	var ms [][]int
	if r.find != nil {
		ms = r.find(text)
	} else {
		ms = r.re.FindAllStringSubmatchIndex(text, -1)
	}
	for _, m := range ms {
		if (r.valid != nil && !r.valid(text, m)) || filler(text[m[0]:m[1]]) {
			continue
		}
		if r.kind == "" {
			return assignmentKind(text[m[2]:m[3]])
		}
		return r.kind
	}
	return ""
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// base64Runs finds every maximal run of standard base64 characters of 40 or more.
func base64Runs(text string) [][]int {
	var out [][]int
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isAlnum(text[i]) || i < len(text) && (text[i] == '/' || text[i] == '+') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 40 {
			out = append(out, []int{start, i})
		}
		start = -1
	}
	return out
}

// findSecret returns the kind of the first secret found in any text, or "".
func findSecret(texts ...string) string {
	for _, t := range texts {
		if k := secretKind(t); k != "" {
			return k
		}
	}
	return ""
}

// textField is one named free-text value; the name is the frontmatter field it came from.
type textField struct{ name, text string }

// memoryFields lists every free-text value of a memory: a secret hidden in a tag, an alias or
// the source is as readable by agents as one in the body.
func memoryFields(m *Memory) []textField {
	fs := []textField{{"title", m.Title}, {"body", m.Body}, {"source_quote", m.SourceQuote},
		{"reasoning", m.Reasoning}, {"workdir", m.Workdir}, {"agent", m.Agent}}
	for _, l := range []struct {
		name string
		vs   []string
	}{{"aliases", m.Aliases}, {"tags", m.Tags}, {"supersedes", m.Supersedes}, {"conflicts_with", m.ConflictsWith}} {
		for _, v := range l.vs {
			fs = append(fs, textField{l.name, v})
		}
	}
	return append(fs, textField{"source.kind", m.Source.Kind}, textField{"source.agent", m.Source.Agent},
		textField{"source.session", m.Source.Session}, textField{"source.model", m.Source.Model})
}

// scanFields returns the kind of the first secret found and the field holding it.
func scanFields(fs ...textField) (kind, field string) {
	for _, f := range fs {
		if k := secretKind(f.text); k != "" {
			return k, f.name
		}
	}
	return "", ""
}

// secretErr refuses a write; it names the kind and the field and never echoes the secret.
func secretErr(kind, field string) error {
	return codeErr(CodeSecretDetected, map[string]any{"Kind": kind, "Field": field},
		"refused: the %s field looks like a secret (%s)", field, kind)
}

// checkMemory applies the frontmatter limits and the secret guard to a memory about to be
// written: every writer (write, update, import) passes here before its file is rendered.
func checkMemory(m *Memory) error {
	if err := checkLimits(m); err != nil {
		return err
	}
	if kind, field := scanFields(memoryFields(m)...); kind != "" {
		return secretErr(kind, field)
	}
	return nil
}

// riskyPatterns mark text that tries to steer an agent; such memories are kept but forced
// unreviewed so a person looks at them before they are trusted.
var riskyPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget)\b.{0,30}\b(?:previous|prior|above|earlier|all)\b.{0,20}\b(?:instructions?|rules?|prompts?)`),
	regexp.MustCompile(`(?i)\b(?:system prompt|developer message|jailbreak)\b`),
	regexp.MustCompile(`(?i)\b(?:always|must)\b.{0,40}\b(?:run|execute)\b.{0,40}(?:rm -rf|curl [^|]*\|\s*(?:ba)?sh|sudo )`),
	regexp.MustCompile(`(?i)(?:rm\s+-rf\s+[/~]|curl\s+[^|\n]*\|\s*(?:ba)?sh|wget\s+[^|\n]*\|\s*(?:ba)?sh)`),
	regexp.MustCompile(`(?:忽略|无视|忘记).{0,10}(?:之前|以上|先前|所有).{0,10}(?:指令|指示|规则|提示)`),
	regexp.MustCompile(`系统提示词`),
}

// isRisky reports whether any text looks like an instruction aimed at the agent.
func isRisky(texts ...string) bool {
	for _, t := range texts {
		for _, re := range riskyPatterns {
			if re.MatchString(t) {
				return true
			}
		}
	}
	return false
}
