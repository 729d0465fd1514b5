package organizer

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"engram/backend/memory"
)

// Mode is how boldly scheduled runs apply decisions on their own.
type Mode string

// Modes. Manual runs never apply anything by themselves, whatever the mode.
const (
	// ModeConservative auto-applies only low-risk decisions at confidence ≥ 0.9, never a delete.
	ModeConservative Mode = "conservative"
	// ModeStandard auto-applies low-risk decisions at confidence ≥ 0.8.
	ModeStandard Mode = "standard"
	// ModeAggressive also auto-applies medium-risk decisions at confidence ≥ 0.9.
	ModeAggressive Mode = "aggressive"
)

// Valid reports whether m is a known mode.
func (m Mode) Valid() bool { return m == ModeConservative || m == ModeStandard || m == ModeAggressive }

// Trigger says who started a run.
type Trigger string

// Triggers.
const (
	// TriggerScheduled runs come from the timer (or a Run Now asking for a scheduled run) and
	// auto-apply what the gate allows.
	TriggerScheduled Trigger = "scheduled"
	// TriggerManual runs store a report for review and apply nothing until ApplyReport.
	TriggerManual Trigger = "manual"
)

// Valid reports whether t is a known trigger.
func (t Trigger) Valid() bool { return t == TriggerScheduled || t == TriggerManual }

// Settings are the user's organizer choices (Settings → Organizer).
type Settings struct {
	// Enabled arms the scheduling timer; when false no timer exists at all.
	Enabled bool `json:"enabled"`
	// FrequencyHours is the time between scheduled runs (1–720).
	FrequencyHours int `json:"frequency_hours"`
	// Mode decides what scheduled runs apply on their own.
	Mode Mode `json:"mode"`
	// MinHoursBetweenRuns skips a scheduled run that comes sooner than this after the last
	// finished scheduled run (0–720).
	MinHoursBetweenRuns int `json:"min_hours_between_runs"`
	// MinNewMemories skips a scheduled run unless at least this many memories were created
	// since the last finished scheduled run (0–100000).
	MinNewMemories int `json:"min_new_memories"`
	// ReviewAfterDays is the age after which a low-confidence unreviewed memory is proposed for
	// review (1–3650).
	ReviewAfterDays int `json:"review_after_days"`
}

// DefaultSettings are the settings of a fresh home.
func DefaultSettings() Settings {
	return Settings{Enabled: true, FrequencyHours: 24, Mode: ModeStandard, MinHoursBetweenRuns: 12,
		MinNewMemories: 5, ReviewAfterDays: 30}
}

// SettingsPatch changes some settings; nil leaves a field as it is.
type SettingsPatch struct {
	Enabled             *bool `json:"enabled,omitempty"`
	FrequencyHours      *int  `json:"frequency_hours,omitempty"`
	Mode                *Mode `json:"mode,omitempty"`
	MinHoursBetweenRuns *int  `json:"min_hours_between_runs,omitempty"`
	MinNewMemories      *int  `json:"min_new_memories,omitempty"`
	ReviewAfterDays     *int  `json:"review_after_days,omitempty"`
}

func invalidSetting(field, value string) *Error {
	return codeErr(CodeInvalidSetting, map[string]any{"Field": field, "Value": value},
		"unable to use %q for setting %s", value, field)
}

// Validate checks every field's range.
func (s Settings) Validate() error {
	rng := func(field string, v, lo, hi int) error {
		if v < lo || v > hi {
			return invalidSetting(field, strconv.Itoa(v))
		}
		return nil
	}
	if !s.Mode.Valid() {
		return invalidSetting("mode", string(s.Mode))
	}
	for _, err := range []error{
		rng("frequency_hours", s.FrequencyHours, 1, 720),
		rng("min_hours_between_runs", s.MinHoursBetweenRuns, 0, 720),
		rng("min_new_memories", s.MinNewMemories, 0, 100000),
		rng("review_after_days", s.ReviewAfterDays, 1, 3650),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// Apply returns s with p applied, validated.
func (s Settings) Apply(p SettingsPatch) (Settings, error) {
	if p.Enabled != nil {
		s.Enabled = *p.Enabled
	}
	if p.FrequencyHours != nil {
		s.FrequencyHours = *p.FrequencyHours
	}
	if p.Mode != nil {
		s.Mode = *p.Mode
	}
	if p.MinHoursBetweenRuns != nil {
		s.MinHoursBetweenRuns = *p.MinHoursBetweenRuns
	}
	if p.MinNewMemories != nil {
		s.MinNewMemories = *p.MinNewMemories
	}
	if p.ReviewAfterDays != nil {
		s.ReviewAfterDays = *p.ReviewAfterDays
	}
	return s, s.Validate()
}

func (s Settings) frequency() time.Duration { return time.Duration(s.FrequencyHours) * time.Hour }

// schedule is the timer's persisted state, shared by every process on the home.
type schedule struct {
	NextRunAt time.Time `json:"next_run_at"`
	// LastCheckAt and LastSkip record the newest timer tick and why it did not start a run.
	LastCheckAt time.Time `json:"last_check_at"`
	LastSkip    string    `json:"last_skip,omitempty"`
}

// Keys of the organizer's rows in the index's settings table.
const (
	settingsKey = "organizer.settings"
	scheduleKey = "organizer.schedule"
)

func loadJSON(ctx context.Context, st *memory.Store, key string, into any) (bool, error) {
	raw, ok, err := st.Setting(ctx, key)
	if err != nil || !ok {
		return false, err
	}
	if err := json.Unmarshal([]byte(raw), into); err != nil {
		return false, nil // a damaged row falls back to defaults rather than locking the user out
	}
	return true, nil
}

func saveJSON(ctx context.Context, st *memory.Store, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("organizer: unable to encode %s: %w", key, err)
	}
	return st.PutSetting(ctx, key, string(raw))
}
