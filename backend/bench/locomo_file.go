//go:build bench

package bench

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The LoCoMo file format: conversations of dated sessions of turns, and questions with the
// ids of their evidence turns.

// locomoSample is one conversation of the file.
type locomoSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []locomoQA                 `json:"qa"`
}

type locomoQA struct {
	Question string          `json:"question"`
	Evidence []string        `json:"evidence"`
	Category json.RawMessage `json:"category"`
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

var reDiaID = regexp.MustCompile(`D(\d+):(\d+)`)

// locomoEvidence normalises evidence ids: "D8:6; D9:17" holds two, "D30:05" is D30:5.
func locomoEvidence(ev []string) map[string]bool {
	out := map[string]bool{}
	for _, e := range ev {
		for _, m := range reDiaID.FindAllStringSubmatch(e, -1) {
			s, _ := strconv.Atoi(m[1])
			t, _ := strconv.Atoi(m[2])
			out[fmt.Sprintf("D%d:%d", s, t)] = true
		}
	}
	return out
}

var (
	reLocomoDateEN = regexp.MustCompile(`(?i)(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})`)
	reLocomoDateZH = regexp.MustCompile(`(\d{4})年(\d{1,2})月(\d{1,2})日(?:\s*(上午|下午)?\s*(\d{1,2}):(\d{2}))?`)
)

var locomoMonths = map[string]time.Month{"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
	"july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12}

// locomoDate reads a session date: "1:56 pm on 8 May, 2023" or "2023年5月8日 下午1:56".
func locomoDate(s string) (time.Time, bool) {
	if m := reLocomoDateEN.FindStringSubmatch(s); m != nil {
		h, _ := strconv.Atoi(m[1])
		mi, _ := strconv.Atoi(m[2])
		if strings.EqualFold(m[3], "pm") && h < 12 {
			h += 12
		}
		if strings.EqualFold(m[3], "am") && h == 12 {
			h = 0
		}
		d, _ := strconv.Atoi(m[4])
		y, _ := strconv.Atoi(m[6])
		mo, ok := locomoMonths[strings.ToLower(m[5])]
		if !ok {
			return time.Time{}, false
		}
		return time.Date(y, mo, d, h, mi, 0, 0, time.UTC), true
	}
	if m := reLocomoDateZH.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		h, mi := 12, 0
		if m[5] != "" {
			h, _ = strconv.Atoi(m[5])
			mi, _ = strconv.Atoi(m[6])
			if m[4] == "下午" && h < 12 {
				h += 12
			}
		}
		return time.Date(y, time.Month(mo), d, h, mi, 0, 0, time.UTC), true
	}
	return time.Time{}, false
}

// locomoDoc is one turn as imported.
type locomoDoc struct {
	dia     string
	session int
	turn    int
	speaker string
	date    time.Time
	text    string // spoken text plus image caption
}

func locomoDocs(conv map[string]json.RawMessage) ([]locomoDoc, error) {
	var docs []locomoDoc
	for n := 1; ; n++ {
		raw, ok := conv[fmt.Sprintf("session_%d", n)]
		if !ok {
			// Sessions are numbered from 1 without gaps; a few files skip one, so look ahead.
			if _, later := conv[fmt.Sprintf("session_%d", n+1)]; later {
				continue
			}
			break
		}
		var dateStr string
		_ = json.Unmarshal(conv[fmt.Sprintf("session_%d_date_time", n)], &dateStr)
		date, _ := locomoDate(dateStr)
		var turns []locomoTurn
		if err := json.Unmarshal(raw, &turns); err != nil {
			return nil, fmt.Errorf("bench: session_%d: %w", n, err)
		}
		for i, t := range turns {
			text := strings.TrimSpace(t.Text)
			if c := strings.TrimSpace(t.BlipCaption); c != "" {
				text += "\n\n(image: " + c + ")"
			}
			turn := i + 1
			if m := reDiaID.FindStringSubmatch(t.DiaID); m != nil {
				turn, _ = strconv.Atoi(m[2])
			}
			docs = append(docs, locomoDoc{dia: fmt.Sprintf("D%d:%d", n, turn), session: n, turn: turn,
				speaker: strings.TrimSpace(t.Speaker), date: date, text: text})
		}
	}
	return docs, nil
}

func locomoCategory(raw json.RawMessage) string {
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return strconv.Itoa(n)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return strings.TrimSpace(s)
}

// locomoSlug names a turn's memory: "d12-7".
func locomoSlug(d locomoDoc) string { return fmt.Sprintf("d%d-%d", d.session, d.turn) }
