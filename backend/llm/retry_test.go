package llm_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

func TestRateLimitThenSuccess(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		var got rows
		c := v.client(t, srv, testKey, got.sink)
		srv.Push(llmtest.Status(429, "1"), llmtest.Status(503, ""), llmtest.Text("ok"))
		resp, err := c.Complete(context.Background(), llm.Request{Purpose: llm.PurposeExtraction, Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		if err != nil {
			t.Fatalf("Complete: %v", err)
		}
		if resp.Text != "ok" || len(srv.Requests()) != 3 {
			t.Fatalf("text %q after %d requests", resp.Text, len(srv.Requests()))
		}
		u := got.all()
		if len(u) != 3 || u[0].InputTokens != 0 || u[2].InputTokens != 10 {
			t.Fatalf("one row per call that reached the provider, got %+v", u)
		}
	})
}

func TestServerErrorsExhaustRetries(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		for range llm.MaxAttempts {
			srv.Push(llmtest.Status(500, ""))
		}
		_, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		e := wantCode(t, err, llm.CodeServerError)
		if e.Attempts != llm.MaxAttempts || len(srv.Requests()) != llm.MaxAttempts || e.Status != 500 {
			t.Fatalf("attempts %d, requests %d, status %d", e.Attempts, len(srv.Requests()), e.Status)
		}
	})
}

func TestRetryAfterBeyondTimeoutGivesUp(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Status(429, "3600"))
		_, err := c.Complete(context.Background(), llm.Request{Timeout: 20 * time.Second, Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		wantCode(t, err, llm.CodeRateLimited)
		if n := len(srv.Requests()); n != 1 {
			t.Fatalf("%d requests; a wait past the deadline must not be started", n)
		}
	})
}

func TestTimeout(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		var got rows
		c := v.client(t, srv, testKey, got.sink)
		srv.Push(llmtest.Hang())
		_, err := c.Complete(context.Background(), llm.Request{Timeout: 300 * time.Millisecond, Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		wantCode(t, err, llm.CodeTimeout)
		// A call that ran out of time was sent, and is counted.
		if u := got.all(); len(u) != 1 || u[0].InputTokens != 0 || u[0].OutputTokens != 0 {
			t.Fatalf("usage rows %+v, want one for the timed-out call", u)
		}
	})
}

func TestCancelMidCall(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Hang())
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := c.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
			errc <- err
		}()
		srv.WaitRequests(1)
		cancel()
		wantCode(t, <-errc, llm.CodeCanceled)
	})
}

func TestAuthFailureNeverShowsKey(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Reply{Status: 401, ErrorMsg: "Incorrect API key provided: " + testKey})
		_, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		e := wantCode(t, err, llm.CodeAuthFailed)
		if strings.Contains(err.Error(), testKey) || strings.Contains(e.Args["Detail"].(string), testKey) {
			t.Fatalf("the key leaked into the error: %v / %v", err, e.Args)
		}
		if len(srv.Requests()) != 1 {
			t.Fatalf("an auth failure is not retried")
		}
	})
}

func TestBadResponse(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		if v.streaming {
			return // a streamed 200 is parsed event by event; Raw covers the plain body
		}
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Raw("this is not json"))
		_, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		wantCode(t, err, llm.CodeBadResponse)
	})
}

func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, p := range []string{llm.ProviderOpenAI, llm.ProviderAnthropic} {
		c, err := llm.New(llm.Config{Provider: p, BaseURL: "http://" + addr + "/v1", Model: "m"}, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		wantCode(t, err, llm.CodeUnreachable)
		// Why, by a catalog key: the transport's text is Go's English in every language.
		var le *llm.Error
		if !errors.As(err, &le) || le.Args["DetailKey"] != "detail.net_refused" {
			t.Fatalf("%s: no reason key in %+v", p, le)
		}
	}
}

func TestTruncatedStreamIsBadResponse(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		if !v.streaming {
			return
		}
		srv := v.server(t)
		var got rows
		c := v.client(t, srv, testKey, got.sink)
		srv.Push(llmtest.Text("This answer is cut off").WithUsage(50, 9).Truncated())
		_, err := c.Complete(context.Background(), llm.Request{Purpose: llm.PurposeExtraction, Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		wantCode(t, err, llm.CodeBadResponse)
		// The call reached the provider: it is accounted for, with what was known of it.
		if u := got.all(); len(u) != 1 || len(srv.Requests()) != 1 {
			t.Fatalf("rows %+v after %d requests", u, len(srv.Requests()))
		}
	})
}

func TestErrorMidStream(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		if !v.streaming {
			return
		}
		overloaded, invalid := "overloaded_error", "invalid_request_error"
		if v.provider == llm.ProviderOpenAI {
			overloaded = "server_error"
		}
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		// A provider failing mid-answer is retried like the status its error stands for.
		srv.Push(llmtest.FailMidStream(overloaded), llmtest.Text("recovered"))
		resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		if err != nil || resp.Text != "recovered" || len(srv.Requests()) != 2 {
			t.Fatalf("after an overloaded stream: %q %v (%d requests)", resp.Text, err, len(srv.Requests()))
		}
		// Any other error inside a stream is an answer Engram cannot use, not retried.
		srv.Push(llmtest.FailMidStream(invalid))
		_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		wantCode(t, err, llm.CodeBadResponse)
		if n := len(srv.Requests()); n != 3 {
			t.Fatalf("%d requests", n)
		}
	})
}

// TestOutOfCreditIsSaidAndNotRetried: OpenAI answers an account without credit with 429
// "insufficient_quota", DeepSeek with 402 "Insufficient Balance". The first was retried as a
// rate limit, four calls, and said "the provider is limiting requests, wait a little": the
// person waited and it failed the same. Now neither is retried and the error says the account
// has no credit, with the provider's words.
func TestOutOfCreditIsSaidAndNotRetried(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		for _, r := range []llmtest.Reply{
			{Status: 429, ErrorType: "insufficient_quota", ErrorMsg: "You exceeded your current quota, please check your plan and billing details."},
			{Status: 402, ErrorMsg: "Insufficient Balance"},
		} {
			srv := v.server(t)
			c := v.client(t, srv, testKey, nil)
			srv.Push(r, llmtest.Text("not asked"))
			_, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
			e := wantCode(t, err, llm.CodeOutOfCredit)
			if n := len(srv.Requests()); n != 1 || e.Args["Detail"] != r.ErrorMsg || e.Status != r.Status {
				t.Fatalf("%d: %d requests, args %v", r.Status, n, e.Args)
			}
		}
		// A plain rate limit is still one, and still retried.
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Reply{Status: 429, ErrorType: "rate_limit_exceeded", ErrorMsg: "Rate limit reached", RetryAfter: "0.01"}, llmtest.Text("ok"))
		if resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}}); err != nil || resp.Text != "ok" {
			t.Fatalf("rate limit: %q %v", resp.Text, err)
		}
	})
}

// TestErrorAnsweredWith200: gateways and some compatible servers answer an error with status
// 200 and the provider's error body. Its words were lost ("the answer has no choices", "the
// answer is not a message") and an overloaded provider was not retried. Now the error says the
// provider's words, and a type that stands for a retryable status is retried.
func TestErrorAnsweredWith200(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		bodies := map[string][2]string{
			llm.ProviderOpenAI: {`{"error":{"message":"The model gpt-9 does not exist","type":"invalid_request_error","code":"model_not_found"}}`,
				`{"error":{"message":"Overloaded, try later","type":"server_error","code":null}}`},
			llm.ProviderAnthropic: {`{"type":"error","error":{"type":"not_found_error","message":"The model gpt-9 does not exist"}}`,
				`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded, try later"}}`},
		}[v.provider]
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Raw(bodies[0]))
		_, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		e := wantCode(t, err, llm.CodeBadResponse)
		if e.Args["Detail"] != "The model gpt-9 does not exist" || len(srv.Requests()) != 1 {
			t.Fatalf("detail %q after %d requests", e.Args["Detail"], len(srv.Requests()))
		}
		srv.Push(llmtest.Raw(bodies[1]), llmtest.Text("ok"))
		resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		if err != nil || resp.Text != "ok" {
			t.Fatalf("an overloaded answer with 200 is retried: %q %v", resp.Text, err)
		}
		if v.provider == llm.ProviderOpenAI {
			srv.Push(llmtest.Raw(`{"error":"model 'llama9' not found, try pulling it first"}`))
			_, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
			if e := wantCode(t, err, llm.CodeBadResponse); e.Args["Detail"] != "model 'llama9' not found, try pulling it first" {
				t.Fatalf("a bare string error: %v", e.Args)
			}
		}
	})
}
