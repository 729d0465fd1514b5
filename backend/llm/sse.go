package llm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// sseEvent is one server-sent event: its name ("" when the stream names none) and its data
// lines joined by "\n".
type sseEvent struct {
	name string
	data []byte
}

// sseReader reads text/event-stream answers (both providers stream this way). Comments and
// fields other than event and data are skipped; an event ends at a blank line. An event cut
// off by the end of the stream is not returned: a truncated answer must not pass as complete.
type sseReader struct {
	r *bufio.Reader
	// total is the data read so far, bounded by maxStreamBytes.
	total int
}

func newSSEReader(r io.Reader) *sseReader { return &sseReader{r: bufio.NewReaderSize(r, 64<<10)} }

// errEventTooLarge stops a stream whose event grows past maxAnswerBytes.
var errEventTooLarge = errors.New("a streamed event is too large")

// maxStreamBytes bounds the data of all of one answer's events together. Each event was
// bounded, their sum was not: an endpoint streaming small events without end (a local model
// looping past its token limit, a hostile server) grew the answer in memory until the call's
// timeout, at the network's speed. A 64k-token answer is about 8 MB of events.
const maxStreamBytes = 4 * maxAnswerBytes

// errStreamTooLarge stops a stream whose events together pass maxStreamBytes.
var errStreamTooLarge = fmt.Errorf("the streamed answer is larger than %d bytes", maxStreamBytes)

// next returns the next event, or io.EOF when the stream ended.
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	var data bytes.Buffer
	seen := false
	for {
		line, err := s.readLine()
		if err != nil {
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if !seen {
				continue // blank lines between events
			}
			ev.data = data.Bytes()
			return ev, nil
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.name = string(value)
			seen = true
		case "data":
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			if data.Len()+len(value) > maxAnswerBytes {
				return sseEvent{}, errEventTooLarge
			}
			if s.total += len(value); s.total > maxStreamBytes {
				return sseEvent{}, errStreamTooLarge
			}
			data.Write(value)
			seen = true
		}
	}
}

// readLine reads one line without its "\n" or "\r\n", bounded by maxAnswerBytes.
func (s *sseReader) readLine() ([]byte, error) {
	var line []byte
	for {
		part, err := s.r.ReadSlice('\n')
		if len(line)+len(part) > maxAnswerBytes {
			return nil, errEventTooLarge
		}
		line = append(line, part...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				return nil, fmt.Errorf("the stream ended inside a line: %w", io.ErrUnexpectedEOF)
			}
			return nil, err
		}
		line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
		return line, nil
	}
}
