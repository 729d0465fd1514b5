package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// batchMerger holds the SDK's answer to a batch from which this server took the calls to
// methods it does not have (checkBatch answers them -32601, as stdio does), and adds those
// answers to it: into the JSON array, or as events after the stream's. A batch whose other
// elements were all notifications gets the SDK's 202; it is then answered with these alone.
// Anything else the request gets (a refusal of its shape) goes out as it was.
type batchMerger struct {
	w      http.ResponseWriter
	header http.Header
	status int
	body   bytes.Buffer
	apart  []json.RawMessage
}

func newBatchMerger(w http.ResponseWriter, apart []json.RawMessage) *batchMerger {
	return &batchMerger{w: w, header: http.Header{}, apart: apart}
}

func (m *batchMerger) Header() http.Header { return m.header }

func (m *batchMerger) WriteHeader(status int) {
	if m.status == 0 {
		m.status = status
	}
}

func (m *batchMerger) Write(b []byte) (int, error) {
	if m.status == 0 {
		m.status = http.StatusOK
	}
	return m.body.Write(b)
}

// Flush is held until finish: the answer is complete only with the calls taken apart.
func (m *batchMerger) Flush() {}

// finish writes the SDK's answer with the calls taken apart added.
func (m *batchMerger) finish() {
	out := m.w.Header()
	for k, v := range m.header {
		out[k] = v
	}
	ct := m.header.Get("Content-Type")
	switch {
	case m.status == http.StatusAccepted:
		out.Set("Content-Type", "application/json")
		out.Del("Content-Length")
		m.w.WriteHeader(http.StatusOK)
		_, _ = m.w.Write(mustJSON(m.apart))
		return
	case m.status == http.StatusOK && strings.HasPrefix(ct, "application/json"):
		var answers []json.RawMessage
		if json.Unmarshal(m.body.Bytes(), &answers) != nil {
			var one json.RawMessage
			if json.Unmarshal(m.body.Bytes(), &one) != nil {
				break
			}
			answers = []json.RawMessage{one}
		}
		out.Del("Content-Length")
		m.w.WriteHeader(http.StatusOK)
		_, _ = m.w.Write(mustJSON(append(answers, m.apart...)))
		return
	case m.status == http.StatusOK && strings.HasPrefix(ct, "text/event-stream"):
		out.Del("Content-Length")
		m.w.WriteHeader(http.StatusOK)
		_, _ = m.w.Write(m.body.Bytes())
		for _, a := range m.apart {
			_, _ = fmt.Fprintf(m.w, "event: message\ndata: %s\n\n", a)
		}
		if f, ok := m.w.(http.Flusher); ok {
			f.Flush()
		}
		return
	}
	if m.status == 0 {
		m.status = http.StatusOK
	}
	m.w.WriteHeader(m.status)
	_, _ = m.w.Write(m.body.Bytes())
}
