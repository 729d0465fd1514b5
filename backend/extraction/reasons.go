package extraction

import (
	"context"

	"engram/backend/i18n"
)

// Reasonings the offline planner gives as catalog keys (PlanItem.ReasonKey): the Review queue
// shows a memory's reasoning, a stored text, so the service writes it in the person's language
// from Settings, never in one guessed from the script of the words (a person reading English
// got Chinese for a Chinese quote).
const (
	reasonOfflineRule = "extraction.item_reason.offline_rule" // {{.Rule}}: the rule that matched
	reasonProfile     = "extraction.item_reason.profile"      // the profile signals' item
)

// texts returns what writes a stored text from the catalog in the person's language of
// Settings (i18n.DefaultLanguage without Settings, or when they cannot be read). Without a
// catalog it writes nothing: "", the text left as it was.
func (s *Service) texts(ctx context.Context) func(key string, args map[string]any) string {
	if s.o.Catalog == nil {
		return func(string, map[string]any) string { return "" }
	}
	lang := i18n.DefaultLanguage
	if s.o.Settings != nil {
		if st, err := s.o.Settings.Get(ctx); err == nil {
			lang = st.Language
		}
	}
	return func(key string, args map[string]any) string { return s.o.Catalog.T(lang, key, args) }
}

// renderReasons writes the reasoning of the items that name a catalog message (ReasonKey)
// with say; a model's own reasoning is left as it wrote it.
func renderReasons(say func(string, map[string]any) string, items ...*PlanItem) {
	for _, it := range items {
		if it == nil || it.ReasonKey == "" {
			continue
		}
		if r := say(it.ReasonKey, it.ReasonArgs); r != "" {
			it.Reasoning = r
		}
		it.ReasonKey, it.ReasonArgs = "", nil
	}
}
