package memory

import (
	"engram/backend/text"
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
	re       *text.Regexp
	valid    func(text string, m []int) bool
	keywords []string
	whole    bool
	find     func(text string) [][]int // instead of re
	// value, when set, is the first submatch group that may hold a context rule's value (the
	// first present one from there is it): a value that is one run (xxxxxx, 12345678) is a
	// made-up example, not a password. Provider shapes have none: a provider's prefix and
	// length make a key whatever its letters (sk-ant-api03-abcdef… too).
	value int
}

func rule(kind, re string, keywords ...string) secretRule {
	return secretRule{kind: kind, re: text.Lazy(re), keywords: keywords}
}

func judged(kind, re string, valid func(string, []int) bool, keywords ...string) secretRule {
	return secretRule{kind: kind, re: text.Lazy(re), valid: valid, keywords: keywords}
}

func whole(r secretRule) secretRule { r.whole = true; return r }

// valued marks group g as the value a context rule judges (see secretRule.value).
func valued(g int, r secretRule) secretRule { r.value = g; return r }

// secretRules run in order; the first rule that matches names the kind. Provider shapes come
// before the context rules so a token assigned to a variable is named for its provider.
var secretRules = []secretRule{
	rule("pgp_private_key", `-----BEGIN PGP PRIVATE KEY BLOCK-----`, "-----begin"),
	// The BEGIN line in any case, with four dashes or spaces inside them too: a key pasted
	// with its header retyped is still the key.
	rule("private_key", `(?i)-{4,5} ?BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY ?-{4,5}|PuTTY-User-Key-File-\d+:`, "----begin", "---- begin", "putty-user-key-file"),
	// A key block base64-wrapped whole, as a Kubernetes secret or a CI variable holds it
	// (`tls.key: LS0tLS1CRUdJTi…`): it decodes to a BEGIN … PRIVATE KEY line.
	judged("private_key", `\bLS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}`, base64PrivateKey, "ls0tls1crudjti"),
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
	// Mailgun's legacy key is key- and 32 hex digits, which a cache key named after an md5
	// also is: it takes Mailgun named on its line.
	rule("mailgun_key", `(?i)\bmailgun[^\n]*\bkey-[0-9a-f]{32}\b|\bkey-[0-9a-f]{32}\b[^\n]*\bmailgun`, "mailgun"),
	rule("mailchimp_key", `\b[0-9a-f]{32}-us\d{1,2}\b`, "-us"),
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
	{kind: "url_password", find: findURLPasswords, valid: urlPassword, keywords: []string{"://"}, value: 1},
	valued(1, judged("authorization_header", `(?i)\b(?:authorization|proxy-authorization)\s*["']?\s*[:=]\s*["']?(?:bearer|basic|token|bot|digest)\s+([A-Za-z0-9._~+/-]{16,}=*)`, randomish(1), "authorization")),
	valued(1, judged("authorization_header", `\bBearer\s+([A-Za-z0-9._~+/-]{24,}=*)`, randomish(1), "bearer")),
	valued(1, whole(judged("password_assignment", `(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S{6,})`, plainValue(1), "machine"))),
	valued(1, judged("password_assignment", `(?i)--(?:password|passwd|passphrase)[= ][ \t]*([^\s"']{6,})`, plainValue(1), "--pass")),
	// `mysql -uroot -pS3cret db`, `sshpass -p 'S3cret' ssh host`: a password given on the
	// command line of a tool whose -p is one.
	valued(1, judged("password_assignment", `(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p([^\s"']{6,})`, plainValue(1), "mysql", "mariadb")),
	valued(1, judged("password_assignment", `(?i)\bsshpass\s+-p\s*["']?([^\s"']{6,})`, plainValue(1), "sshpass")),
	// An Azure shared access signature: the sig of a SAS URL or connection string signs
	// access to the resource for whoever holds it.
	rule("azure_sas_token", `(?i)[?&;]sig=[A-Za-z0-9%+/]{40,}(?:=|%3D)*`, "sig="),
	valued(2, whole(judged("password_assignment", `(?:^|\s)(?:-u|--user)[ =]?["']?([^\s"':]*):([^\s"']{4,})`, curlUser, "curl"))),
	// In prose: "my password is Tr0ub4dor&3", "密码是 Zhang1988!" — said to an agent, kept by
	// the extractor as a note. The value must look made up (a digit, a symbol or a capital
	// past its first letter): "the password is required" and "is Incorrect" are not one.
	valued(1, judged("password_assignment", `(?i)\b(?:password|passwd|passphrase|passcode|pass|pwd)\s+(?:is|was|will be|=)\s+["'“‘]?([^\s"'”’]{6,})`, prosePassword(1), "pass", "pwd")),
	valued(1, judged("api_key_assignment", `(?i)\b(?:api[ _-]?key|access[ _-]?key|secret[ _-]?key|private[ _-]?key|token|secret)\s+(?:is|was|will be)\s+["'“‘]?([^\s"'”’]{6,})`, proseCredential(1), "key", "token", "secret")),
	// `pwd=Sup3rS3cret!`: the short names a password goes by on a command line, whose value is
	// no path (PWD=/home/me is the shell's folder) and looks made up.
	valued(1, judged("password_assignment", `(?i)(?:^|[\s,;(])(?:pwd|pass)\s*[=:]\s*["']?([^\s"',;]{6,})`, notPath(prosePassword(1), 1), "pwd", "pass")),
	// A PIN is short and all digits: named as one, four to twelve of them are the secret.
	judged("password_assignment", `(?i)\b(?:pin|pin code|pin number)\s+(?:is|was|=|:)\s+(\d{4,12})\b`, func(string, []int) bool { return true }, "pin"),
	valued(1, judged("password_assignment", `(?:密码|口令)\s*(?:是|为|改成了?|改为|设为|设成)\s*["'“‘]?([^\s"'”’，。；;,]{6,})`, prosePassword(1), "密码", "口令")),
	{find: findAssignments, valid: assignment, whole: true, value: 2,
		keywords: []string{"pass", "secret", "token", "key", "credential", "密码", "口令", "密钥", "令牌"}},
}
