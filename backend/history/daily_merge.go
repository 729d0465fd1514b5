package history

import (
	"regexp"
	"sort"
	"strings"

	"engram/backend/memory"
)

// dailyHead is an entry heading of a journal day ("## HH:MM · who", as the store appends).
var dailyHead = regexp.MustCompile(`^## (\d{2}:\d{2}) · .+$`)

// dailyBlock is one entry of a journal day as its file holds it: the heading and the text
// below it, verbatim (a hand edit's text before the first heading is a block with no time).
type dailyBlock struct {
	time string
	text string
}

// dailyBlocks splits a journal day's body at its entry headings; a heading inside fenced
// code is text (as memory.DailyEntries reads it).
func dailyBlocks(body string) []dailyBlock {
	var out []dailyBlock
	var cur []string
	at := ""
	flush := func() {
		t := strings.Trim(strings.Join(cur, "\n"), "\n")
		if strings.TrimSpace(t) != "" {
			out = append(out, dailyBlock{time: at, text: t})
		}
		cur = nil
	}
	fenced := false
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fenced = !fenced
		}
		if !fenced {
			if m := dailyHead.FindStringSubmatch(line); m != nil {
				flush()
				at = m[1]
			}
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// mergeDaily merges two machines' versions of one journal day against their common base
// (nil when the day began on both machines apart). Both were found merged line by line, which
// put the other machine's header lines ("id: …") into the day's text and took entries'
// headings away: a day is a header and entries, so it merges as entries. Ours keeps its header
// (updated to the later of the two); every entry of theirs that ours lacks is added, unless
// ours deleted it since the base; entries are ordered by their time, ours first at the same
// minute. ok is false when either side does not parse as a journal day: the caller keeps ours
// and reports the day, rather than guess.
func mergeDaily(base, ours, theirs []byte) (merged []byte, ok bool) {
	o, err := memory.Parse(ours)
	if err != nil {
		return nil, false
	}
	t, err := memory.Parse(theirs)
	if err != nil {
		return nil, false
	}
	inBase := map[string]bool{}
	if base != nil {
		if b, err := memory.Parse(base); err == nil {
			for _, blk := range dailyBlocks(b.Body) {
				inBase[blk.text] = true
			}
		}
	}
	blocks := dailyBlocks(o.Body)
	have := map[string]bool{}
	for _, blk := range blocks {
		have[blk.text] = true
	}
	added := 0
	for _, blk := range dailyBlocks(t.Body) {
		if have[blk.text] || inBase[blk.text] {
			continue // ours has it, or ours deleted it since the base
		}
		have[blk.text] = true
		blocks = append(blocks, blk)
		added++
	}
	if added == 0 {
		return ours, true
	}
	// Text before any heading stays first; then by time (stable: ours before theirs).
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].time < blocks[j].time })
	texts := make([]string, len(blocks))
	for i, blk := range blocks {
		texts[i] = blk.text
	}
	o.Body = strings.Join(texts, "\n\n") + "\n"
	if t.Updated.After(o.Updated) {
		o.Updated = t.Updated
	}
	out, err := memory.Render(o)
	if err != nil {
		return nil, false
	}
	return out, true
}
