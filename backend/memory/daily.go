package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
)

// JournalDay is the journal date of t: the day rolls over at 04:00 local time, so a note
// written at 01:30 still belongs to the evening before. The rollover follows the wall clock,
// also on days when daylight saving time moves it.
func JournalDay(t time.Time, loc *time.Location) string {
	lt := t.In(loc)
	y, m, d := lt.Date()
	if lt.Hour() < DailyRolloverHour {
		d--
	}
	return time.Date(y, m, d, 12, 0, 0, 0, time.UTC).Format("2006-01-02")
}

// getDaily finds the journal of one day; an ordinary global memory may share the date as slug.
func getDaily(ctx context.Context, x execer, day string) (*Memory, error) {
	m, _, err := scanMemory(x.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM memory_meta
		WHERE scope = 'global' AND scope_key = '' AND slug = ? AND type = 'daily' AND archived = 0`, day))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, codeErr(CodeNotFound, map[string]any{"Ref": day}, "no journal for %s", day)
	}
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read journal %s: %w", day, err)
	}
	return m, nil
}

func (s *Store) opAppendDaily(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	text := strings.TrimSpace(it.Text)
	if text == "" {
		text = strings.TrimSpace(deref(it.Body))
	}
	if text == "" {
		return codeErr(CodeEmptyDaily, nil, "journal entry is empty")
	}
	if modelWritten(b.Actor) && len(text) > MaxAgentDailyEntry {
		return codeErr(CodeDailyEntryTooLong, map[string]any{"Size": len(text), "Max": MaxAgentDailyEntry},
			"a model's journal entry is %d bytes, at most %d", len(text), MaxAgentDailyEntry)
	}
	if kind, field := scanFields(textField{"text", text}); kind != "" {
		return secretErr(kind, field)
	}
	// A journal entry is text as a memory's body is: an escape code, a bell or a NUL would reach
	// the day's Markdown file (and a terminal showing it) as it does not from a memory.
	if hasControl(text) {
		return controlErr("text")
	}
	now := s.opts.Now()
	day := JournalDay(now, s.opts.Location)
	imported := b.Actor == ActorImport && dateRE.MatchString(it.Slug)
	if imported {
		day = it.Slug // an exported journal day goes back to its own date, verbatim
	}
	rel := relPath(ScopeGlobal, "", TypeDaily, day)
	m, err := getDaily(ctx, tx, day)
	switch {
	case errors.Is(err, ErrNotFound):
		// The file may exist but be unindexed (a hand edit with a broken header): never clobber it.
		if err := s.pathFree(ctx, tx, rel, day); err != nil {
			return err
		}
		m = &Memory{ID: ulid.Make().String(), Slug: day, Title: day, Scope: ScopeGlobal, Type: TypeDaily,
			Confidence: ConfidenceMedium, Reviewed: true, Created: now, Source: Source{Kind: b.Actor}}
		if imported { // a new day from an export keeps its id and timestamps
			if u, perr := ulid.ParseStrict(it.ID); perr == nil {
				// In Engram's own spelling (canonicalID): a lower-case copy is the same id.
				if _, gerr := getByID(ctx, tx, u.String()); errors.Is(gerr, ErrNotFound) {
					m.ID = u.String()
				}
			}
			if it.Created != nil && !it.Created.IsZero() {
				m.Created = *it.Created
			}
			if it.Updated != nil && !it.Updated.IsZero() {
				now = *it.Updated
			}
			// The line's source comes along: a day restored with --keep-review keeps its own
			// (source.kind user), else the import's (recordItem sets it).
			if it.Source != nil && it.Source.Kind != "" {
				m.Source = *it.Source
			}
		}
	case err != nil:
		return err
	default:
		if m, err = s.dailyOnDisk(m, day); err != nil {
			return err
		}
	}
	if imported && strings.Contains(m.Body, text) {
		s.fillResult(r, m, false) // re-importing an export must not double a day
		return nil
	}
	who := dailyAuthor(b.Actor, it.Source)
	// A line of the text shaped like an entry heading is escaped: an entry cannot forge
	// another below it, in someone else's name.
	entry := "## " + now.In(s.opts.Location).Format("15:04") + " · " + who + "\n\n" + escapeHeadings(text)
	if imported {
		entry = text
	}
	body := strings.TrimRight(m.Body, "\n")
	if body != "" {
		body += "\n\n"
	}
	m.Body = body + entry
	m.Updated = now
	m.Path = rel
	// An entry that reads like an instruction to the agent leaves the day for a person to
	// accept, as a write of it would be: every agent reads the journal, and it was kept
	// reviewed whatever an agent appended to it ("ignore all previous instructions…").
	if RiskOf(text) != nil {
		m.Reviewed = false
		r.Warnings = append(r.Warnings, Warning{Code: WarnRiskyUnreview})
	}
	data, err := Render(m)
	if err != nil {
		return err
	}
	if len(data) > MaxDailyBytes {
		// Said as what is over, not "full": one entry larger than the day says the day was
		// full when it was empty.
		return codeErr(CodeDailyFull, map[string]any{"Day": day, "Max": MaxDailyBytes, "Over": len(data) - MaxDailyBytes},
			"journal %s would be %d bytes over its %d", day, len(data)-MaxDailyBytes, MaxDailyBytes)
	}
	if modelWritten(b.Actor) && len(data) > DailyWarnBytes {
		// A model leaves the day's last bytes to the person, whose own entries are refused
		// only at MaxDailyBytes.
		return codeErr(CodeDailyAgentRoom, map[string]any{"Day": day, "Max": DailyWarnBytes, "Over": len(data) - DailyWarnBytes},
			"journal %s would be %d bytes over the %d a model may fill", day, len(data)-DailyWarnBytes, DailyWarnBytes)
	}
	if err := s.persist(ctx, tx, m); err != nil {
		return err
	}
	s.fillResult(r, m, false)
	if len(data) >= DailyWarnBytes {
		r.Warnings = append(r.Warnings, Warning{Code: WarnDailyNearFull, Args: map[string]any{"Size": len(data), "Max": MaxDailyBytes}})
	}
	detail := map[string]any{"day": day, "bytes": len(text)}
	if kind, name := authorOf(who); kind == AuthorAgent && name != "" && !imported {
		// The journal names the agent that wrote the entry; Activity must name the same one,
		// not the CLI or window that carried it.
		detail["agent"] = name
	}
	s.audit(ctx, tx, b, it, m.ID, "ok", detail)
	return nil
}

// Daily returns one journal day: the live one, or with archived the newest archived copy
// (a day moved under .archive/YYYY/daily/). The journal view reads days through it, so an
// ordinary global memory whose slug happens to be a date is never taken for the day.
func (s *Store) Daily(ctx context.Context, day string, archived bool) (*Memory, error) {
	m, _, err := scanMemory(s.db.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM memory_meta
		WHERE scope = 'global' AND scope_key = '' AND slug = ? AND type = 'daily' AND archived = ?
		ORDER BY updated DESC LIMIT 1`, day, archived))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, codeErr(CodeNotFound, map[string]any{"Ref": day}, "no journal for %s", day)
	}
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read journal %s: %w", day, err)
	}
	return m, nil
}

// modelWritten: what a model wrote — an agent's tool call or the extractor's plan. Both are
// capped in the journal alike (an entry, and the day's last bytes left to the person); the
// cap stood on tool calls alone while the extractor appends what a model planned too.
func modelWritten(actor string) bool { return actor == ActorTool || actor == ActorExtractor }

// dailyOnDisk is the day as its file holds it. A hand edit the watcher has not indexed yet
// (it waits for the editor to settle) is taken in, and the entry goes below it: an append adds
// to the day, so nothing in it conflicts, where it was refused with version_conflict ("reload
// it") for a second after every save — an agent's entries were refused while the person kept
// their journal open in an editor. A file that no longer parses is refused as one that holds
// the day's place; one that now names another memory stays a conflict.
func (s *Store) dailyOnDisk(m *Memory, day string) (*Memory, error) {
	data, err := os.ReadFile(s.abs(m.Path))
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read journal %s: %w", day, err)
	}
	v := Checksum(data)
	if v == m.Version {
		return m, nil
	}
	disk, err := parseHand(data, m.Path)
	if err != nil {
		return nil, codeErr(CodeSlugHeldByUnparsable, heldArgs(day, m.Path, faultOf(err)),
			"journal %s was edited into a file that cannot be read (%v)", day, err)
	}
	if disk.ID != m.ID || disk.Scope != ScopeGlobal || disk.Type != TypeDaily || disk.Slug != day {
		return nil, codeErr(CodeVersionConflict, map[string]any{"Expected": m.Version, "Actual": v},
			"journal %s was edited on disk and not yet reindexed; try again", day)
	}
	// The checks the reconcile gives a hand edit: a secret pasted into the day must not reach
	// the index (and every agent) through the append that takes the edit in.
	if pi, ok := parsePath(m.Path); ok {
		if code, why := handProblem(disk, pi, len(data)); code != "" {
			return nil, codeErr(CodeSlugHeldByUnparsable, heldArgs(day, m.Path, why),
				"journal %s was edited into a file that cannot be indexed (%s: %s)", day, code, why.text)
		}
	}
	disk.Path, disk.Version, disk.Archived = m.Path, v, false
	if disk.Reviewed && RiskOfMemory(disk) != nil {
		// As the reconcile would index it: the file cannot vouch for risky text it now holds
		// ("ignore all previous instructions…" put in by another program); only a person's
		// accept may.
		disk.Reviewed = false
	}
	return disk, nil
}
