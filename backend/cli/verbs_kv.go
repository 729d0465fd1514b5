package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"engram/backend/api"
)

// maxKVStdin bounds a value read from stdin: a value is at most 64 KiB once compacted, so a
// little more lets the api say "too large" with the real size instead of a truncated value.
const maxKVStdin = 1 << 20

// kv reads and changes an agent's key-value namespace: one api method per sub-verb.
//
//	engram kv get KEY --agent A
//	engram kv set KEY VALUE|- --agent A [--json-value]
//	engram kv delete KEY --agent A
//	engram kv list --agent A [--prefix P] [--limit N] [--cursor K]
func (r *runner) kv(_ context.Context, args []string) error {
	var agent, prefix, cursor string
	var limit int
	var asJSON bool
	pos, err := r.flags("kv", args, func(fs *flag.FlagSet) {
		fs.StringVar(&agent, "agent", "", "the agent whose keys these are")
		fs.StringVar(&prefix, "prefix", "", "list only keys starting with this")
		fs.StringVar(&cursor, "cursor", "", "list keys after this one (the previous page's next_cursor)")
		fs.IntVar(&limit, "limit", 0, "keys per page (default 100, at most 1000)")
		fs.BoolVar(&asJSON, "json-value", false, "read VALUE as JSON (default: a string)")
	})
	if err != nil {
		return err
	}
	usage := r.t("cli.kv.usage", nil)
	if err := r.need("kv", usage, pos, 1); err != nil {
		return err
	}
	if agent == "" {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "kv " + pos[0], "What": "--agent"}))
	}
	switch pos[0] {
	case "get":
		if err := r.need("kv get", "KEY", pos, 2); err != nil {
			return err
		}
		res, err := r.api.KV.Get(api.KVKeyParams{Agent: agent, Key: pos[1]})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) { fmt.Fprintln(w, kvText(res.Value)) })
	case "set":
		if err := r.need("kv set", "KEY VALUE|-", pos, 3); err != nil {
			return err
		}
		value, err := r.kvValue(pos[2], asJSON)
		if err != nil {
			return err
		}
		res, err := r.api.KV.Set(api.KVSetParams{Agent: agent, Key: pos[1], Value: value})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			key := "cli.kv.set"
			if !res.Changed {
				key = "cli.kv.unchanged"
			}
			fmt.Fprintln(w, r.t(key, map[string]any{"Agent": agent, "Key": res.Key}))
		})
	case "delete":
		if err := r.need("kv delete", "KEY", pos, 2); err != nil {
			return err
		}
		// Removing a key that is not there changes nothing: the api answers deleted: false.
		res, err := r.api.KV.Delete(api.KVKeyParams{Agent: agent, Key: pos[1]})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			key := "cli.kv.deleted"
			if !res.Deleted {
				key = "cli.kv.nothing_deleted"
			}
			fmt.Fprintln(w, r.t(key, map[string]any{"Agent": agent, "Key": res.Key}))
		})
	case "list":
		res, err := r.api.KV.List(api.KVListParams{Agent: agent, Prefix: prefix, Cursor: cursor, Limit: limit})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			if res.Total == 0 {
				fmt.Fprintln(w, r.t("cli.kv.none", nil))
				return
			}
			for _, e := range res.Entries {
				fmt.Fprintf(w, "%s\t%s\n", e.Key, oneLine(e.Value))
			}
			fmt.Fprintln(r.env.Stderr, r.t("cli.kv.total", map[string]any{"Shown": len(res.Entries), "Total": res.Total}))
			if res.NextCursor != "" {
				fmt.Fprintln(r.env.Stderr, r.t("cli.kv.more", map[string]any{"Agent": agent, "Cursor": res.NextCursor}))
			}
		})
	default:
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "kv", "What": usage}))
	}
	return nil
}

// kvValue turns VALUE (or stdin for "-") into a JSON value: a string unless asJSON. A value
// read from stdin loses one trailing newline, which echo and editors add.
func (r *runner) kvValue(arg string, asJSON bool) (json.RawMessage, error) {
	text := arg
	if arg == "-" {
		b, err := r.stdinText(maxKVStdin)
		if err != nil {
			return nil, err
		}
		text = strings.TrimSuffix(strings.TrimSuffix(b, "\n"), "\r")
	}
	if asJSON {
		// Not checked here: the api refuses what is not JSON with a translated error.
		return json.RawMessage(text), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(text); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes())), nil
}

// kvText is a value as a person reads it: a string as itself, anything else as JSON.
func kvText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// oneLine is a value for one line of a listing: compact JSON, so strings keep their quotes and
// a newline inside a value cannot break the listing.
func oneLine(v json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return string(v)
	}
	return buf.String()
}
