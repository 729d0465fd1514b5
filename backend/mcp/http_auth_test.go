package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"engram/backend/mcp"
)

// An MCP request without the token in its Authorization header is told how to send it — as a
// header, where the token is, that one in the URL is not taken — in the person's language:
// it got the browser's words ("Copy the URL from engram serve or Settings → Remote access"),
// which sent the person to put the token in the URL, the one place /mcp refuses it.
func TestHTTPUnauthorizedSaysHowToSendTheToken(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	for name, tc := range map[string]struct{ url, auth string }{
		"token in the URL": {e.url + "?token=" + e.token, ""},
		"no token":         {e.url, ""},
		"wrong token":      {e.url, "Bearer nope"},
		"basic auth":       {e.url, "Basic " + e.token},
	} {
		req, _ := http.NewRequest(http.MethodPost, tc.url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		var got struct{ Code, Message string }
		if res.StatusCode != 401 || json.Unmarshal(body, &got) != nil || got.Code != "mcp_unauthorized" ||
			!strings.Contains(got.Message, "Authorization: Bearer") || strings.Contains(got.Message, "Copy the URL") {
			t.Fatalf("%s: %d %s", name, res.StatusCode, body)
		}
	}
}
