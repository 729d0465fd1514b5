// Package settings keeps Engram's typed, versioned settings in the index's settings table.
package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
)

// CurrentVersion is bumped whenever Settings gains a field that needs a migration step.
const CurrentVersion = 1

// Settings are the user's choices. Zero values are filled from Defaults on load.
type Settings struct {
	Version  int    `json:"version"`
	Language string `json:"language"`
	Theme    string `json:"theme"`
	// RemoteEnabled runs the localhost bridge inside the desktop app.
	RemoteEnabled bool `json:"remote_enabled"`
	// RemoteAddr is where that bridge listens (loopback only from the UI).
	RemoteAddr string `json:"remote_addr"`
	// LLM is the language model Engram calls (none by default).
	LLM LLM `json:"llm"`
	// Embeddings choose the embedder and the vector store (the local embedder by default).
	Embeddings Embeddings `json:"embeddings"`
	// SyncMinutes is how often the desktop app and engram serve sync the memory folder's git
	// history with its remote (0: only on demand). Read at each round, so a change takes effect
	// without a restart.
	SyncMinutes int `json:"sync_minutes"`
}

// DefaultSyncMinutes is the sync schedule of a fresh home; MaxSyncMinutes (a day) bounds it.
const (
	DefaultSyncMinutes = 15
	MaxSyncMinutes     = 24 * 60
)

// Defaults are the settings of a fresh home.
func Defaults(language string) Settings {
	if language == "" {
		language = "en"
	}
	return Settings{Version: CurrentVersion, Language: language, Theme: "system", RemoteAddr: "127.0.0.1:47821",
		SyncMinutes: DefaultSyncMinutes}
}

// Patch changes some fields; nil leaves a field as it is.
type Patch struct {
	Language *string `json:"language,omitempty"`
	Theme    *string `json:"theme,omitempty"`
	// RemoteEnabled turns the desktop app's bridge on or off.
	RemoteEnabled *bool `json:"remote_enabled,omitempty"`
	// RemoteAddr must be a loopback host:port.
	RemoteAddr *string `json:"remote_addr,omitempty"`
	// LLM changes the language model's provider, base URL, model or streaming.
	LLM *LLMPatch `json:"llm,omitempty"`
	// Embeddings change the embedder or the vector store; vectors are then computed again in
	// the background.
	Embeddings *EmbeddingsPatch `json:"embeddings,omitempty"`
	// SyncMinutes: 0 (only on demand) or 1 to MaxSyncMinutes.
	SyncMinutes *int `json:"sync_minutes,omitempty"`
}

// CodeInvalid is the code of a refused value; its i18n key is "error.invalid_setting".
const CodeInvalid = "invalid_setting"

// ErrInvalid is wrapped by validation failures.
var ErrInvalid = errors.New("settings: invalid value")

// InvalidError names the field and value refused.
type InvalidError struct {
	Field, Value string
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("settings: invalid %s %q", e.Field, e.Value)
}

// Unwrap lets errors.Is(err, ErrInvalid) work.
func (e *InvalidError) Unwrap() error { return ErrInvalid }

// ErrorCode is the stable code the api translates as "error.<code>".
func (e *InvalidError) ErrorCode() string { return CodeInvalid }

// ErrorArgs name the field and the value refused.
// DetailKey names, for the person, what the field expects: the message read "Invalid value
// “not a url” for setting llm.base_url".
func (e *InvalidError) ErrorArgs() map[string]any {
	args := map[string]any{"Field": e.Field, "Value": e.Value, "Detail": e.Field}
	if k, ok := settingDetail[e.Field]; ok {
		args["DetailKey"] = k
	}
	return args
}

// settingDetail is the catalog key of what each setting expects, by field.
var settingDetail = map[string]string{
	"language":                  "detail.setting_language",
	"theme":                     "detail.setting_theme",
	"remote_addr":               "detail.setting_remote_addr",
	"sync_minutes":              "detail.setting_sync_minutes",
	"llm.provider":              "detail.setting_llm_provider",
	"llm.base_url":              "detail.setting_llm_base_url",
	"llm.model":                 "detail.setting_llm_model",
	"embeddings.provider":       "detail.setting_embeddings_provider",
	"embeddings.base_url":       "detail.setting_embeddings_base_url",
	"embeddings.model":          "detail.setting_embeddings_model",
	"embeddings.vector_backend": "detail.setting_embeddings_vector_backend",
	"embeddings.vector_url":     "detail.setting_embeddings_vector_url",
}

// Rows is where settings are kept: the index's settings table, which only the memory store
// touches (*memory.Store satisfies it).
type Rows interface {
	Setting(ctx context.Context, key string) (value string, ok bool, err error)
	PutSetting(ctx context.Context, key, value string) error
}

// Service loads and saves settings and tells listeners when they change.
type Service struct {
	rows     Rows
	fallback string
	mu       sync.Mutex
	onChange []func(Settings)
}

// New returns a settings service over the index's settings rows; fallbackLang is the language
// of a fresh home (from the environment).
func New(rows Rows, fallbackLang string) *Service {
	return &Service{rows: rows, fallback: fallbackLang}
}

// OnChange registers fn to be called after each successful update.
func (s *Service) OnChange(fn func(Settings)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onChange = append(s.onChange, fn)
}

const key = "app.settings"

// Get returns the current settings.
func (s *Service) Get(ctx context.Context) (Settings, error) {
	st := Defaults(s.fallback)
	raw, ok, err := s.rows.Setting(ctx, key)
	if err != nil {
		return st, fmt.Errorf("settings: unable to read: %w", err)
	}
	if !ok {
		return st, nil
	}
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		// A damaged row must not lock the user out of the app: fall back to defaults.
		return Defaults(s.fallback), nil
	}
	st.Version = CurrentVersion
	if st.SyncMinutes < 0 || st.SyncMinutes > MaxSyncMinutes {
		st.SyncMinutes = DefaultSyncMinutes // a row edited out of range elsewhere
	}
	return st, nil
}

// Update validates and applies p, then notifies listeners.
func (s *Service) Update(ctx context.Context, p Patch) (Settings, error) {
	s.mu.Lock()
	st, err := s.Get(ctx)
	if err != nil {
		s.mu.Unlock()
		return st, err
	}
	if p.Language != nil {
		if *p.Language != "en" && *p.Language != "zh-CN" {
			s.mu.Unlock()
			return st, &InvalidError{Field: "language", Value: *p.Language}
		}
		st.Language = *p.Language
	}
	if p.Theme != nil {
		switch *p.Theme {
		case "light", "dark", "system":
			st.Theme = *p.Theme
		default:
			s.mu.Unlock()
			return st, &InvalidError{Field: "theme", Value: *p.Theme}
		}
	}
	if p.RemoteEnabled != nil {
		st.RemoteEnabled = *p.RemoteEnabled
	}
	if p.RemoteAddr != nil {
		host, port, err := net.SplitHostPort(*p.RemoteAddr)
		ip := net.ParseIP(host)
		// The port is a number the bridge can listen on ("127.0.0.1:99999" was saved, and
		// the bridge then failed to start with an internal error).
		n, perr := strconv.Atoi(port)
		if err != nil || perr != nil || n < 0 || n > 65535 || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
			s.mu.Unlock()
			return st, &InvalidError{Field: "remote_addr", Value: *p.RemoteAddr}
		}
		st.RemoteAddr = *p.RemoteAddr
	}
	if p.SyncMinutes != nil {
		if *p.SyncMinutes < 0 || *p.SyncMinutes > MaxSyncMinutes {
			s.mu.Unlock()
			return st, &InvalidError{Field: "sync_minutes", Value: strconv.Itoa(*p.SyncMinutes)}
		}
		st.SyncMinutes = *p.SyncMinutes
	}
	if err := applyLLM(&st.LLM, p.LLM); err != nil {
		s.mu.Unlock()
		return st, err
	}
	if err := applyEmbeddings(&st.Embeddings, p.Embeddings); err != nil {
		s.mu.Unlock()
		return st, err
	}
	raw, _ := json.Marshal(st)
	if err := s.rows.PutSetting(ctx, key, string(raw)); err != nil {
		s.mu.Unlock()
		return st, fmt.Errorf("settings: unable to save: %w", err)
	}
	fns := append([]func(Settings){}, s.onChange...)
	s.mu.Unlock()
	for _, fn := range fns {
		fn(st)
	}
	return st, nil
}
