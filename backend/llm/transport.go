package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxAnswerBytes bounds what is read of one answer (a whole message, or one streamed event):
// a provider, or whatever answers at a configured URL, never makes Engram buffer without end.
const maxAnswerBytes = 16 << 20

// post sends one JSON request to the provider and hands back a 2xx answer. It notes on the
// call's attempt (retry.go) whether the provider answered, with which status and headers, and
// for an error status the provider's own explanation, read (bounded) from the body. Credentials
// go only in the header the provider names; a keyless local endpoint gets none.
func (b *base) post(ctx context.Context, path string, header http.Header, body any, stream bool) (*http.Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, badRequest("unable to encode the request: %v", err)
	}
	target := strings.TrimRight(b.cfg.BaseURL, "/") + path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	req.Header.Set("User-Agent", "Engram")
	resp, err := b.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	at, _ := ctx.Value(attemptKey{}).(*attempt)
	if at != nil {
		at.reached = true
		at.status = resp.StatusCode
		at.header = resp.Header.Clone()
		at.url = target
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		if at != nil {
			at.message, at.kind = providerMessage(msg)
		}
		return nil, fmt.Errorf("the provider answered %d", resp.StatusCode)
	}
	return resp, nil
}

// isEventStream reports whether a streamed request was answered as a stream, by the answer's
// first byte rather than its Content-Type, which servers get wrong both ways: a server or
// gateway that does not stream answers the whole message as JSON (read as one, where the
// event reader found no event in it and called the answer cut short), and a stream may come
// labelled application/json. The bytes looked at stay in the body.
func isEventStream(resp *http.Response) bool {
	br := bufio.NewReaderSize(resp.Body, 4096)
	resp.Body = struct {
		io.Reader
		io.Closer
	}{br, resp.Body}
	for n := 1; n <= 4096; n++ {
		b, err := br.Peek(n)
		if len(b) < n || err != nil {
			return true
		}
		switch b[n-1] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return false
		}
		return true
	}
	return true
}

// decodeAnswer reads a whole JSON answer into v (bounded by maxAnswerBytes).
func decodeAnswer(resp *http.Response, v any) error {
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	if err != nil {
		return err
	}
	if len(data) > maxAnswerBytes {
		return fmt.Errorf("the answer is larger than %d bytes", maxAnswerBytes)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("the answer is not the JSON expected: %w", err)
	}
	return nil
}

// redirectError is a redirect the client refused to follow (stayOn).
type redirectError struct{ to string }

func (e *redirectError) Error() string { return "the endpoint redirected the call to " + e.to }

// stayOn is the client's redirect policy: a redirect is followed only to the base URL's own
// host, never from https to http. Go's client keeps custom headers across hosts — Anthropic's
// x-api-key went to whatever host an endpoint (a proxy, a captive portal, a hostile server on
// the network) redirected to — and keeps a bearer token on a downgrade to plain http; the
// conversation would follow as well. The key is filed for one endpoint and goes only there.
func stayOn(baseURL string) func(*http.Request, []*http.Request) error {
	base, _ := url.Parse(baseURL)
	return func(req *http.Request, via []*http.Request) error {
		to := req.URL
		where := to.Scheme + "://" + to.Host
		switch {
		case base == nil || !strings.EqualFold(to.Hostname(), base.Hostname()):
			return &redirectError{to: where}
		case base.Scheme == "https" && to.Scheme != "https":
			return &redirectError{to: where}
		case len(via) >= 5:
			return errors.New("stopped after 5 redirects")
		}
		return nil
	}
}
