// Package keyring keeps the API keys of language-model endpoints in one file beside the bridge
// token, $ENGRAM_HOME/llm.keys (mode 0600, written atomically), and nowhere else: not in
// memory files, the index, settings, logs or exports. Keys are filed per endpoint (the
// normalised base URL, the provider's public URL when none is set), so a key given for one
// endpoint is never sent to another.
package keyring

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"engram/backend/llm"
	"engram/backend/memory"
)

// File is the key file's name in the home.
const File = "llm.keys"

// MaxKeyLen bounds a key; real ones are far shorter.
const MaxKeyLen = 1024

// Ring reads and writes the home's key file. Safe for concurrent use within a process; writes
// are atomic, so another process never reads half a file.
type Ring struct {
	path string
	mu   sync.Mutex
}

// Open returns the ring of home (the file is created on the first Set).
func Open(home string) *Ring { return &Ring{path: filepath.Join(home, File)} }

// Path is where the keys live.
func (r *Ring) Path() string { return r.path }

type fileFormat struct {
	Version int `json:"version"`
	// Keys maps an endpoint (normalised base URL) to its key.
	Keys map[string]string `json:"keys"`
}

// Endpoint is the name a key is filed under: the base URL without trailing slashes, scheme and
// host in lower case; the provider's public URL when baseURL is empty.
func Endpoint(provider, baseURL string) string {
	if strings.TrimSpace(baseURL) == "" {
		if provider == llm.ProviderAnthropic {
			baseURL = llm.AnthropicBaseURL
		} else {
			baseURL = llm.OpenAIBaseURL
		}
	}
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return strings.TrimRight(baseURL, "/")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String()
}

func storeErr(msg string, err error) error {
	e := &llm.Error{Code: llm.CodeKeyStore, Msg: msg, Err: err}
	detail := msg
	var pe *fs.PathError
	if errors.As(err, &pe) {
		detail = msg + ": " + pe.Err.Error()
	}
	e.Args = map[string]any{"Detail": detail}
	return e
}

func (r *Ring) load() (fileFormat, error) {
	f := fileFormat{Version: 1, Keys: map[string]string{}}
	data, err := os.ReadFile(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, storeErr("unable to read "+File, err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		// The decoder's message may quote the file's content: it is not passed on.
		return f, storeErr(File+" is not valid JSON", nil)
	}
	if f.Keys == nil {
		f.Keys = map[string]string{}
	}
	return f, nil
}

// Get returns the key filed for the endpoint, "" when none is.
func (r *Ring) Get(provider, baseURL string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := r.load()
	if err != nil {
		return "", err
	}
	return f.Keys[Endpoint(provider, baseURL)], nil
}

// Has reports whether a key is filed for the endpoint.
func (r *Ring) Has(provider, baseURL string) (bool, error) {
	k, err := r.Get(provider, baseURL)
	return k != "", err
}

// CheckKey refuses an empty key, one with spaces or control characters inside (a paste that
// caught a line break), one with any other character outside printable ASCII, or one over
// MaxKeyLen. The message never repeats the key. A byte-order mark before it (a key file saved
// by Notepad as "UTF-8 with BOM") is not part of it: it was kept and sent, and the provider
// refused a right key. Invisible characters a copy from a web page carries (zero-width
// spaces, word joiners) are refused the same way, since no provider's key has them and the
// header would carry them.
func CheckKey(key string) (string, error) {
	key = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(key), "\ufeff"))
	if key == "" {
		return "", &llm.Error{Code: llm.CodeKeyEmpty, Msg: "the key is empty"}
	}
	if len(key) > MaxKeyLen {
		return "", &llm.Error{Code: llm.CodeInvalidConfig, Args: map[string]any{"Detail": fmt.Sprintf("the key is over %d characters", MaxKeyLen), "DetailKey": "detail.key_too_long", "Max": MaxKeyLen}, Msg: "key too long"}
	}
	for _, c := range key {
		if unicode.IsSpace(c) || unicode.IsControl(c) {
			return "", &llm.Error{Code: llm.CodeInvalidConfig, Args: map[string]any{"Detail": "the key contains spaces or control characters", "DetailKey": "detail.key_spaces"}, Msg: "key has spaces"}
		}
	}
	for _, c := range key {
		if c < '!' || c > '~' {
			return "", &llm.Error{Code: llm.CodeInvalidConfig, Args: map[string]any{"Detail": "the key contains a character that is not printable ASCII (an invisible one a copy carried?)", "DetailKey": "detail.key_not_ascii"}, Msg: "key is not ASCII"}
		}
	}
	return key, nil
}

// Set files key for the endpoint, replacing any earlier one.
func (r *Ring) Set(provider, baseURL, key string) error {
	key, err := CheckKey(key)
	if err != nil {
		return err
	}
	return r.update(func(f *fileFormat) { f.Keys[Endpoint(provider, baseURL)] = key })
}

// Delete removes the endpoint's key; deleting a key that is not there is not an error.
func (r *Ring) Delete(provider, baseURL string) error {
	return r.update(func(f *fileFormat) { delete(f.Keys, Endpoint(provider, baseURL)) })
}

func (r *Ring) update(change func(*fileFormat)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := r.load()
	if err != nil {
		return err
	}
	change(&f)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return storeErr("unable to encode the keys", nil)
	}
	if err := os.MkdirAll(filepath.Dir(r.path), 0o700); err != nil {
		return storeErr("unable to create the home", err)
	}
	if err := memory.WriteFileAtomic(r.path, append(data, '\n')); err != nil {
		return storeErr("unable to write "+File, err)
	}
	// The temp file is created 0600 already; this also narrows a file an older copy or a
	// person left wider.
	if err := os.Chmod(r.path, 0o600); err != nil {
		return storeErr("unable to protect "+File, err)
	}
	return nil
}
