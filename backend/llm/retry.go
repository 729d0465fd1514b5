package llm

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"engram/backend/coded"
)

// maxBackoff caps one wait between retries when the provider names none.
const maxBackoff = 8 * time.Second

// attempt is what the transport saw of one call: whether the provider answered at all, with
// which status, Retry-After and error message (post in transport.go fills it). One attempt is
// one HTTP exchange.
type attempt struct {
	reached bool
	status  int
	header  http.Header
	message string
	// kind is the error's type or code as the provider names it (insufficient_quota, …).
	kind string
	// url is where the call went.
	url string
}

type attemptKey struct{}

// providerMessage pulls error.message out of either provider's error body, and the error's
// code (else its type) as kind.
func providerMessage(body []byte) (msg, kind string) {
	var e struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		kind = e.Error.Type
		if c, ok := e.Error.Code.(string); ok && c != "" {
			kind = c
		}
		return e.Error.Message, kind
	}
	return strings.TrimSpace(string(body)), ""
}

// outOfCredit reports an answer saying the account has no credit or quota left: OpenAI's 429
// "insufficient_quota", a 402 Payment Required (DeepSeek's "Insufficient Balance"). Waiting
// does not end it.
func outOfCredit(at *attempt) bool {
	return at.status == http.StatusPaymentRequired ||
		(at.status == http.StatusTooManyRequests && (at.kind == "insufficient_quota" || at.kind == "billing_hard_limit_reached"))
}

// complete runs once under the request's timeout, retrying 429 and 5xx answers with
// exponential backoff (or the provider's Retry-After) while the deadline allows, and records
// a usage row for every attempt the provider answered.
func (b *base) complete(ctx context.Context, req Request, once func(ctx context.Context) (Response, error)) (Response, error) {
	timeout := b.timeout(req)
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	deadline, _ := callCtx.Deadline()
	for n := 1; ; n++ {
		at := &attempt{}
		resp, err := once(context.WithValue(callCtx, attemptKey{}, at))
		if at.reached {
			model := resp.Model
			if model == "" {
				model = b.cfg.Model
			}
			resp.Usage.CostUSD = UsageCost(model, resp.Usage)
			b.record(ctx, req.Purpose, model, resp.Usage)
		}
		if err == nil {
			resp.Provider = b.cfg.Provider
			if resp.Model == "" {
				resp.Model = b.cfg.Model
			}
			return resp, nil
		}
		e := b.classify(ctx, callCtx, timeout, at, err)
		e.Attempts = n
		if e.Code == CodeTimeout && !at.reached {
			// A call that ran out of time was sent and may be billed: it is counted, with
			// the tokens no answer reported (none).
			b.record(ctx, req.Purpose, b.cfg.Model, Usage{})
		}
		if !retryable(e.Code) || n >= MaxAttempts {
			return Response{}, e
		}
		wait := retryAfter(at.header)
		if wait <= 0 {
			wait = backoff(b.cfg.Backoff, n)
		}
		if time.Now().Add(wait).After(deadline) {
			// Waiting would outlive the call's own bound: the answer is the provider's refusal.
			return Response{}, e
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-callCtx.Done():
			t.Stop()
			e2 := b.classify(ctx, callCtx, timeout, &attempt{}, callCtx.Err())
			e2.Attempts = n
			return Response{}, e2
		}
	}
}

func retryable(code string) bool { return code == CodeRateLimited || code == CodeServerError }

// classify turns a failed attempt into a coded error. Order matters: the caller's cancel and
// the call's deadline explain a transport error better than the error itself does.
func (b *base) classify(ctx, callCtx context.Context, timeout time.Duration, at *attempt, err error) *Error {
	secs := int(timeout.Round(time.Second) / time.Second)
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Code: CodeTimeout, Args: map[string]any{"Seconds": secs}, Msg: "the call ran out of time", Err: ctx.Err()}
	case ctx.Err() != nil:
		return &Error{Code: CodeCanceled, Msg: "the call was cancelled", Err: ctx.Err()}
	case callCtx.Err() != nil:
		return &Error{Code: CodeTimeout, Args: map[string]any{"Seconds": secs}, Msg: "the call ran out of time", Err: callCtx.Err()}
	}
	detail := b.redact(at.message)
	if detail == "" {
		detail = b.redact(err.Error())
	}
	if len(detail) > 300 {
		detail = detail[:300] + "…"
	}
	args := map[string]any{"Status": at.status, "Detail": detail, "Provider": b.cfg.Provider}
	// The transport's error is kept out of the chain: its text may quote the request.
	mk := func(code, msg string) *Error {
		return &Error{Code: code, Args: args, Msg: msg + ": " + detail, Status: at.status}
	}
	var redirect *redirectError
	switch {
	case errors.As(err, &redirect):
		args["URL"], args["To"] = b.redact(b.cfg.BaseURL), b.redact(redirect.to)
		return mk(CodeRedirected, "the endpoint redirected the call to "+redirect.to)
	case !at.reached:
		args["URL"] = b.redact(b.cfg.BaseURL)
		if key := coded.NetReasonKey(err); key != "" {
			args["DetailKey"] = key // said in the person's language; Detail keeps Go's words
		}
		return mk(CodeUnreachable, "unable to reach "+b.cfg.BaseURL)
	case at.status == http.StatusUnauthorized || at.status == http.StatusForbidden:
		return mk(CodeAuthFailed, "the provider refused the key")
	case at.status == http.StatusNotFound:
		// A base URL without /v1 (or Anthropic's with it), or a model the server does not
		// have: "rejected the request (HTTP 404): 404 page not found" (Ollama) or ": Not
		// Found" (Anthropic) never said which address was called or what to check.
		args["URL"] = b.redact(at.url)
		return mk(CodeNoEndpoint, "nothing answers at "+at.url)
	case outOfCredit(at):
		// Retried as a rate limit and said to be one ("wait a little"), an account without
		// credit failed four times over and never said why.
		return mk(CodeOutOfCredit, "the account has no credit or quota left")
	case at.status == http.StatusTooManyRequests:
		return mk(CodeRateLimited, "rate limited")
	case at.status >= 500:
		return mk(CodeServerError, "the provider failed with "+strconv.Itoa(at.status))
	case at.status >= 400:
		return mk(CodeRejected, "the provider rejected the request with "+strconv.Itoa(at.status))
	}
	return mk(CodeBadResponse, "unable to read the answer")
}

// retryAfter reads retry-after-ms, then Retry-After (seconds or an HTTP date); 0 when absent.
func retryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t)
	}
	return 0
}

// backoff is first·2^(n-1) with ±20 % jitter (so callers that failed together do not retry
// together), capped at maxBackoff.
func backoff(first time.Duration, n int) time.Duration {
	d := first << (n - 1)
	if d > maxBackoff || d <= 0 {
		d = maxBackoff
	}
	j := 0.8 + 0.4*rand.Float64()
	return time.Duration(float64(d) * j)
}

// noteStreamError reads an error the provider sent inside a streamed 200 answer (Anthropic's
// "event: error", OpenAI's data line with an "error" object) and records it on the attempt as
// the HTTP status it stands for, so an overloaded provider mid-stream is retried like a 529.
func noteStreamError(ctx context.Context, data []byte) {
	at, _ := ctx.Value(attemptKey{}).(*attempt)
	if at == nil {
		return
	}
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) != nil {
		return
	}
	at.message = e.Error.Message
	switch e.Error.Type {
	case "overloaded_error":
		at.status = 529
	case "api_error", "server_error":
		at.status = http.StatusInternalServerError
	case "rate_limit_error", "rate_limit_exceeded":
		at.status = http.StatusTooManyRequests
	}
}

// hasError reports whether an answer's "error" field holds one (not absent, not null).
func hasError(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t != "" && t != "null" && t != "{}" && t != `""`
}

// answeredError is an error a provider sent as a 200 answer's "error" field: its message (a
// bare string, or the object's message) is noted on the attempt for the person to read, and
// its type as the status it stands for, as noteStreamError does for one sent mid-stream.
func answeredError(ctx context.Context, raw json.RawMessage) error {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw, _ = json.Marshal(map[string]any{"error": map[string]string{"message": s}})
	} else {
		raw, _ = json.Marshal(map[string]json.RawMessage{"error": raw})
	}
	noteStreamError(ctx, raw)
	return errors.New("the provider answered with an error")
}
