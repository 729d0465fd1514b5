package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"engram/backend/api"
)

// llmSetFlags are `engram llm set`'s: each changes one field of Settings → LLM, and a field
// not named keeps its value. Before, a person with only the CLI could not choose a model at
// all (`llm status` pointed at a window they did not have).
type llmSetFlags struct {
	provider, baseURL, model optString
	streaming                optBool
	// keyStdin reads the endpoint's API key from stdin once the endpoint is saved (a key is
	// filed per endpoint): never from the command line, where the shell history and ps see it.
	keyStdin bool
}

func (f *llmSetFlags) define(fs *flag.FlagSet) {
	fs.Var(&f.provider, "provider", "openai (any OpenAI-compatible endpoint) | anthropic | none")
	fs.Var(&f.baseURL, "base-url", "the endpoint's base URL; \"\" for the provider's public API")
	fs.Var(&f.model, "model", "the model's name")
	fs.Var(&f.streaming, "streaming", "stream the answers (true | false)")
	fs.BoolVar(&f.keyStdin, "key-stdin", false, "then read the endpoint's API key from stdin")
}

// given reports whether any of the flags was on the command line.
func (f *llmSetFlags) given() bool {
	return f.provider.set || f.baseURL.set || f.model.set || f.streaming.set || f.keyStdin
}

// llmSet saves the named fields through settings.update (validated there: a provider it
// knows, an http(s) base URL without credentials, a model name), then the key when asked,
// and prints the status `llm status` prints.
func (r *runner) llmSet(f llmSetFlags) error {
	if !f.given() {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "llm set",
			"What": "--provider, --base-url, --model, --streaming or --key-stdin"}))
	}
	var p api.LLMPatch
	if f.provider.set {
		v := f.provider.v
		if v == "none" {
			v = "" // no model: the offline extractor and rules only
		}
		p.Provider = &v
	}
	if f.baseURL.set {
		p.BaseURL = &f.baseURL.v
	}
	if f.model.set {
		p.Model = &f.model.v
	}
	if f.streaming.set {
		p.Streaming = &f.streaming.v
	}
	if p != (api.LLMPatch{}) {
		if _, err := r.api.Settings.Update(api.SettingsPatch{LLM: &p}); err != nil {
			return err
		}
	}
	if f.keyStdin {
		key, err := r.readKey()
		if err != nil {
			return err
		}
		if _, err := r.api.LLM.SetKey(api.SetKeyParams{Key: key}); err != nil {
			return err
		}
	}
	st, err := r.api.LLM.Status(api.Empty{})
	if err != nil {
		return err
	}
	if !r.json {
		fmt.Fprintln(r.env.Stdout, r.t("cli.llm_saved", nil))
	}
	r.printLLMStatus(st)
	return nil
}

// readKey reads one API key line from stdin, after saying on stderr where it will be kept.
func (r *runner) readKey() (string, error) {
	fmt.Fprintln(r.env.Stderr, r.t("cli.llm_key_prompt", nil))
	if r.env.Stdin == nil {
		return "", nil
	}
	line, err := bufio.NewReader(io.LimitReader(r.env.Stdin, 8<<10)).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("%s", r.t("cli.read_file_failed", r.reason(map[string]any{"Path": "-"}, err)))
	}
	return strings.TrimSpace(line), nil
}

// optString is a string flag that knows whether it was given ("" is a value: --base-url "").
type optString struct {
	v   string
	set bool
}

func (o *optString) String() string     { return o.v }
func (o *optString) Set(v string) error { o.v, o.set = v, true; return nil }

// optBool is a boolean flag that knows whether it was given (--streaming=false is a change).
type optBool struct {
	v   bool
	set bool
}

func (o *optBool) String() string   { return strconv.FormatBool(o.v) }
func (o *optBool) IsBoolFlag() bool { return true }
func (o *optBool) settingValue()    {}
func (o *optBool) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return err
	}
	o.v, o.set = b, true
	return nil
}
