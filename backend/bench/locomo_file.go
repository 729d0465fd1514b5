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
	// The parts of a session date, in whatever order a file writes them: "1:56 pm on 8 May,
	// 2023" (the published files), "May 8th, 2023 13:56", "8 Sept 2023", "2023-05-08 13:56".
	reLocomoTime    = regexp.MustCompile(`(?i)\b(\d{1,2}):(\d{2})(?::\d{2})?\s*([ap]\.?m\.?)?`)
	reLocomoDayMon  = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\.?,?\s+(\d{4})\b`)
	reLocomoMonDay  = regexp.MustCompile(`(?i)\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	reLocomoISO     = regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`)
	reLocomoDateZH  = regexp.MustCompile(`(\d{4})年(\d{1,2})月(\d{1,2})日(?:\s*(上午|下午|晚上|中午)?\s*(\d{1,2})[:：](\d{2}))?`)
	locomoMonthName = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
		"jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
)

// locomoMonth reads an English month name, whole or cut short ("May", "Sept", "september").
func locomoMonth(name string) (time.Month, bool) {
	name = strings.ToLower(name)
	if m, ok := locomoMonthName[name]; ok {
		return m, true
	}
	if len(name) > 3 {
		if m, ok := locomoMonthName[name[:3]]; ok && strings.HasPrefix(strings.ToLower(m.String()), name) {
			return m, true
		}
	}
	return 0, false
}

// locomoDate reads a session date: "1:56 pm on 8 May, 2023" as the published files write it,
// the same parts in another order or form, or "2023年5月8日 下午1:56". A date without a time
// is taken at noon. A session whose date cannot be read has none (the zero time).
func locomoDate(s string) (time.Time, bool) {
	if m := reLocomoDateZH.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		h, mi := 12, 0
		if m[5] != "" {
			h, _ = strconv.Atoi(m[5])
			mi, _ = strconv.Atoi(m[6])
			if (m[4] == "下午" || m[4] == "晚上") && h < 12 {
				h += 12
			}
		}
		return locomoAt(y, time.Month(mo), d, h, mi)
	}
	var (
		y, d int
		mo   time.Month
		ok   bool
		rest = s
	)
	if m := reLocomoISO.FindStringSubmatch(s); m != nil {
		y, _ = strconv.Atoi(m[1])
		n, _ := strconv.Atoi(m[2])
		d, _ = strconv.Atoi(m[3])
		mo, ok = time.Month(n), true
		rest = strings.Replace(s, m[0], " ", 1)
	} else if m := reLocomoDayMon.FindStringSubmatch(s); m != nil {
		if mo, ok = locomoMonth(m[2]); ok {
			d, _ = strconv.Atoi(m[1])
			y, _ = strconv.Atoi(m[3])
			rest = strings.Replace(s, m[0], " ", 1)
		}
	}
	if !ok {
		if m := reLocomoMonDay.FindStringSubmatch(s); m != nil {
			if mo, ok = locomoMonth(m[1]); ok {
				d, _ = strconv.Atoi(m[2])
				y, _ = strconv.Atoi(m[3])
				rest = strings.Replace(s, m[0], " ", 1)
			}
		}
	}
	if !ok {
		return time.Time{}, false
	}
	h, mi := 12, 0
	if m := reLocomoTime.FindStringSubmatch(rest); m != nil {
		h, _ = strconv.Atoi(m[1])
		mi, _ = strconv.Atoi(m[2])
		switch strings.ToLower(strings.ReplaceAll(m[3], ".", "")) {
		case "pm":
			if h < 12 {
				h += 12
			}
		case "am":
			if h == 12 {
				h = 0
			}
		}
	}
	return locomoAt(y, mo, d, h, mi)
}

// locomoAt is the time when every part is in range (time.Date would roll "31 June" into July).
func locomoAt(y int, mo time.Month, d, h, mi int) (time.Time, bool) {
	t := time.Date(y, mo, d, h, mi, 0, 0, time.UTC)
	if t.Year() != y || t.Month() != mo || t.Day() != d || t.Hour() != h || t.Minute() != mi {
		return time.Time{}, false
	}
	return t, true
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
