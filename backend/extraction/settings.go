package extraction

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"engram/backend/memory"
)

// Settings are the person's extraction choices (Settings → Extraction).
type Settings struct {
	// Enabled lets turns become memories at all; when false every request is skipped
	// ("disabled") and recorded, so the Activity view shows why nothing was learnt.
	Enabled bool `json:"enabled"`
	// Agents lists the agents whose turns are learnt from; empty means every agent.
	Agents []string `json:"agents"`
	// MinIntervalSeconds is the least time between two runs of one session (0–3600).
	MinIntervalSeconds int `json:"min_interval_seconds"`
	// MinGraphemes skips a user message shorter than this (yes/no confirmations excepted; 0–200).
	// A CJK character counts one and a half: Chinese says in five what English says in a dozen.
	MinGraphemes int `json:"min_graphemes"`
	// GreetingMaxGraphemes is the length up to which a greeting or thanks is skipped (0–200),
	// when nothing after it speaks of the person or asks for anything ("Hi, my name is Alice"
	// runs).
	GreetingMaxGraphemes int `json:"greeting_max_graphemes"`
}

// DefaultSettings are the settings of a fresh home (DESIGN §6's gate values).
func DefaultSettings() Settings {
	return Settings{Enabled: true, Agents: []string{}, MinIntervalSeconds: 30, MinGraphemes: 6, GreetingMaxGraphemes: 24}
}

// SettingsPatch changes some settings; nil leaves a field as it is.
type SettingsPatch struct {
	Enabled              *bool     `json:"enabled,omitempty"`
	Agents               *[]string `json:"agents,omitempty"`
	MinIntervalSeconds   *int      `json:"min_interval_seconds,omitempty"`
	MinGraphemes         *int      `json:"min_graphemes,omitempty"`
	GreetingMaxGraphemes *int      `json:"greeting_max_graphemes,omitempty"`
}

func invalidSetting(field, value string) *Error {
	return codeErr(CodeInvalidSettings, map[string]any{"Field": field, "Value": value},
		"unable to use %q for setting %s", value, field)
}

// Validate checks every field.
func (s Settings) Validate() error {
	rng := func(field string, v, lo, hi int) error {
		if v < lo || v > hi {
			return invalidSetting(field, strconv.Itoa(v))
		}
		return nil
	}
	for _, err := range []error{
		rng("min_interval_seconds", s.MinIntervalSeconds, 0, 3600),
		rng("min_graphemes", s.MinGraphemes, 0, 200),
		rng("greeting_max_graphemes", s.GreetingMaxGraphemes, 0, 200),
	} {
		if err != nil {
			return err
		}
	}
	if len(s.Agents) > 64 {
		return invalidSetting("agents", strconv.Itoa(len(s.Agents)))
	}
	for _, a := range s.Agents {
		if !memory.ValidAgent(a) {
			return invalidSetting("agents", a)
		}
	}
	return nil
}

// Apply returns s with p applied, validated. Agent names are trimmed and deduplicated.
func (s Settings) Apply(p SettingsPatch) (Settings, error) {
	if p.Enabled != nil {
		s.Enabled = *p.Enabled
	}
	if p.Agents != nil {
		seen := map[string]bool{}
		s.Agents = []string{}
		for _, a := range *p.Agents {
			a = strings.TrimSpace(a)
			if a != "" && !seen[a] {
				seen[a] = true
				s.Agents = append(s.Agents, a)
			}
		}
	}
	if p.MinIntervalSeconds != nil {
		s.MinIntervalSeconds = *p.MinIntervalSeconds
	}
	if p.MinGraphemes != nil {
		s.MinGraphemes = *p.MinGraphemes
	}
	if p.GreetingMaxGraphemes != nil {
		s.GreetingMaxGraphemes = *p.GreetingMaxGraphemes
	}
	return s, s.Validate()
}

// agentAllowed reports whether turns of agent are learnt from.
func (s Settings) agentAllowed(agent string) bool {
	if len(s.Agents) == 0 {
		return true
	}
	for _, a := range s.Agents {
		if a == agent {
			return true
		}
	}
	return false
}

// settingsKey is the row of the index's settings table the extraction settings live in.
const settingsKey = "extraction.settings"

func loadSettings(ctx context.Context, st *memory.Store) (Settings, error) {
	s := DefaultSettings()
	raw, ok, err := st.Setting(ctx, settingsKey)
	if err != nil || !ok {
		return s, err
	}
	if json.Unmarshal([]byte(raw), &s) != nil || s.Validate() != nil {
		return DefaultSettings(), nil // a damaged row falls back to defaults rather than stopping extraction
	}
	if s.Agents == nil {
		s.Agents = []string{}
	}
	return s, nil
}

func saveSettings(ctx context.Context, st *memory.Store, s Settings) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("extraction: unable to encode settings: %w", err)
	}
	return st.PutSetting(ctx, settingsKey, string(raw))
}

// Settings returns the extraction settings.
func (s *Service) Settings(ctx context.Context) (Settings, error) {
	return loadSettings(ctx, s.o.Store)
}

// UpdateSettings applies a patch; the next request is gated by the new values.
func (s *Service) UpdateSettings(ctx context.Context, p SettingsPatch) (Settings, error) {
	s.settingsMu.Lock()
	defer s.settingsMu.Unlock()
	cur, err := loadSettings(ctx, s.o.Store)
	if err != nil {
		return cur, err
	}
	next, err := cur.Apply(p)
	if err != nil {
		return cur, err
	}
	if err := saveSettings(ctx, s.o.Store, next); err != nil {
		return cur, err
	}
	return next, nil
}
