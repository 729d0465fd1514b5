package llm

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSSEReader(t *testing.T) {
	in := ": a comment\r\n\r\nevent: message_start\r\ndata: {\"a\":1}\r\n\r\n" +
		"data: line one\ndata: line two\nid: 7\nretry: 10\n\n\n" +
		"event: ping\ndata:\n\n" +
		"data: [DONE]\n\n" +
		"event: cut\ndata: {\"never\":"
	r := newSSEReader(strings.NewReader(in))
	want := []sseEvent{
		{name: "message_start", data: []byte(`{"a":1}`)},
		{data: []byte("line one\nline two")},
		{name: "ping", data: []byte("")},
		{data: []byte("[DONE]")},
	}
	for i, w := range want {
		got, err := r.next()
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if got.name != w.name || string(got.data) != string(w.data) {
			t.Fatalf("event %d: got %q %q, want %q %q", i, got.name, got.data, w.name, w.data)
		}
	}
	// An event the stream cut off is never handed out as if whole.
	if _, err := r.next(); err == nil || errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a cut event: %v", err)
	}
	if _, err := newSSEReader(strings.NewReader("")).next(); err != io.EOF {
		t.Fatalf("empty stream: %v", err)
	}
}

// A hostile endpoint streaming one endless line is stopped, not buffered without end.
func TestSSEReaderBoundsAnEvent(t *testing.T) {
	endless := io.MultiReader(strings.NewReader("data: "), &repeat{b: 'x', n: maxAnswerBytes + 10})
	if _, err := newSSEReader(endless).next(); !errors.Is(err, errEventTooLarge) {
		t.Fatalf("got %v, want errEventTooLarge", err)
	}
}

type repeat struct {
	b byte
	n int
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n)
	for i := range n {
		p[i] = r.b
	}
	r.n -= n
	return n, nil
}

// An endpoint streaming small events without end (a local model looping past its token
// limit, a hostile server) is stopped once their data passes maxStreamBytes: each event was
// bounded, their sum was not, and the answer grew in memory until the call's timeout.
func TestSSEReaderBoundsTheWholeStream(t *testing.T) {
	event := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + strings.Repeat("x", 1000) + "\"}}]}\n\n"
	r := newSSEReader(&repeatString{s: event, n: 2 * maxStreamBytes / len(event)})
	for n := 0; ; n++ {
		_, err := r.next()
		if errors.Is(err, errStreamTooLarge) {
			if n < maxStreamBytes/len(event)-1 {
				t.Fatalf("stopped after %d events, before the bound", n)
			}
			return
		}
		if err != nil {
			t.Fatalf("after %d events: %v, want errStreamTooLarge", n, err)
		}
	}
}

type repeatString struct {
	s   string
	n   int
	off int
}

func (r *repeatString) Read(p []byte) (int, error) {
	w := 0
	for w < len(p) {
		if r.n == 0 {
			if w == 0 {
				return 0, io.EOF
			}
			break
		}
		c := copy(p[w:], r.s[r.off:])
		w += c
		if r.off += c; r.off == len(r.s) {
			r.off, r.n = 0, r.n-1
		}
	}
	return w, nil
}
