package history

import (
	"sort"
	"strings"

	"engram/backend/memory"
)

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
			for _, blk := range memory.DailyBlocks(b.Body) {
				inBase[blk.Text] = true
			}
		}
	}
	blocks := memory.DailyBlocks(o.Body)
	have := map[string]bool{}
	for _, blk := range blocks {
		have[blk.Text] = true
	}
	added := 0
	for _, blk := range memory.DailyBlocks(t.Body) {
		if have[blk.Text] || inBase[blk.Text] {
			continue // ours has it, or ours deleted it since the base
		}
		have[blk.Text] = true
		blocks = append(blocks, blk)
		added++
	}
	if added == 0 {
		return ours, true
	}
	// Text before any heading stays first; then by time (stable: ours before theirs).
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].Time < blocks[j].Time })
	texts := make([]string, len(blocks))
	for i, blk := range blocks {
		texts[i] = blk.Text
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
