package api

// Text translates a catalog key in the app's language, for transports that show a page of
// their own (the bridge's "web UI not built" page) rather than an api error.
func (a *API) Text(key string, args map[string]any) string { return a.t(key, args) }

// Language is the app's UI language ("en", "zh-CN"), for such a page's lang attribute.
func (a *API) Language() string { return a.language() }
