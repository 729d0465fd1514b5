package api

import (
	"net/url"
	"strings"

	"engram/backend/memory"
	"engram/backend/settings"
)

// CodeSettingsSecret refuses a setting whose text looks like a secret: an API key pasted into
// a model's name or an address lands in the settings row, in every window's copy of the
// settings, in each usage row and in the source of every memory the model then writes. Keys
// have their own field, filed apart (llm.setKey, embeddings.setKey).
const CodeSettingsSecret = "settings_secret"

// settingsSecret checks the texts of a settings patch with the memories' secret guard; the
// refusal names the field and the kind of key, never the value.
func (a *API) settingsSecret(p settings.Patch) error {
	var fields []struct {
		name string
		v    *string
	}
	add := func(name string, v *string) {
		if v != nil {
			fields = append(fields, struct {
				name string
				v    *string
			}{name, v})
		}
	}
	if p.LLM != nil {
		add("llm.model", p.LLM.Model)
		add("llm.base_url", p.LLM.BaseURL)
	}
	if p.Embeddings != nil {
		add("embeddings.model", p.Embeddings.Model)
		add("embeddings.base_url", p.Embeddings.BaseURL)
		add("embeddings.vector_url", p.Embeddings.VectorURL)
	}
	for _, f := range fields {
		text := *f.v
		if strings.HasSuffix(f.name, "_url") {
			// Credentials and a query are refused by the settings' own check, which names the
			// address without them; what is left to read is the path.
			u, err := url.Parse(strings.TrimSpace(text))
			if err != nil || u.User != nil || u.RawQuery != "" {
				continue
			}
			text = u.Path
		}
		if kind := memory.SecretKind(text); kind != "" {
			return a.newError(CodeSettingsSecret, map[string]any{"Field": f.name, "Kind": kind})
		}
	}
	return nil
}
