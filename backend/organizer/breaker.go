package organizer

import "engram/backend/llm"

// CodeLLMStopped: a group the run did not ask the model about, because the model had failed an
// earlier call of the run in a way every later call would fail too (a refused key, no credit,
// nothing answering at the address) — planned offline instead.
const CodeLLMStopped = "organizer_llm_stopped"

// persistentFailures are the model failures no later call of the same run escapes: the key,
// the account, the address or the request itself is at fault, or the provider keeps refusing
// for now (a rate limit that outlasted the call's retries).
var persistentFailures = map[string]bool{
	llm.CodeAuthFailed: true, llm.CodeOutOfCredit: true, llm.CodeUnreachable: true, llm.CodeNoEndpoint: true,
	llm.CodeRedirected: true, llm.CodeRejected: true, llm.CodeRateLimited: true, llm.CodeInvalidConfig: true,
	llm.CodeNoModel: true, llm.CodeKeyStore: true, llm.CodeKeyEmpty: true, CodeLLMUnavailable: true,
}

// breaker stops a run from asking the model again once it has failed for good: a run over a
// full scope (60 groups) asked a provider that had refused its key 64 times, and one whose
// model timed out would have waited two minutes per group, two hours in all. It trips on the
// first persistent failure, or on the second timeout in a row; the rest of the run plans and
// groups offline, each such group saying why (CodeLLMStopped).
type breaker struct {
	timeouts int
	// tripped is the failure that stopped the model (nil: the model is still asked), and
	// group the cluster (or scope) it failed on.
	tripped *RunError
	group   string
}

// note records the outcome of one model call for group (err nil: it answered).
func (b *breaker) note(group string, err *RunError) {
	if b.tripped != nil {
		return
	}
	if err == nil {
		b.timeouts = 0
		return
	}
	if err.Code == CodeLLMTimeout {
		b.timeouts++
	}
	if persistentFailures[err.Code] || b.timeouts >= 2 {
		b.tripped, b.group = err, group
	}
}

// stopped is the error a group skipped after the breaker tripped records.
func (b *breaker) stopped() *RunError {
	return &RunError{Code: CodeLLMStopped, Args: map[string]any{"Group": b.group},
		Message: "the model was not asked: it failed group " + b.group + " in a way every call would"}
}
