package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/oklog/ulid/v2"
)

// ImportPreview says what an import of the same JSONL would do, without doing any of it:
// Settings → Data shows it before the person applies the import.
type ImportPreview struct {
	Lines int `json:"lines"`
	// New memories would be written; Duplicates are already in the store with the same title
	// and text (the import refuses them as already_exists, harmlessly); Conflicts hold the id or
	// slug of a memory whose title or text differs (refused, the store's version is kept).
	New        int `json:"new"`
	Duplicates int `json:"duplicates"`
	Conflicts  int `json:"conflicts"`
	// Daily are journal lines (appended to their day); KV lines of agents' key-value facts.
	Daily int `json:"daily"`
	KV    int `json:"kv"`
	// Invalid lines would be refused (bad JSON, bad fields, secrets…); OverQuota new memories
	// would be refused because their scope fills up (quota_exhausted).
	Invalid   int `json:"invalid"`
	OverQuota int `json:"over_quota"`
	// Scopes is the quota impact per scope instance that would receive new memories.
	Scopes []ImportScopeImpact `json:"scopes"`
	// ConflictLines and Errors show the first of each (at most MaxPreviewLines).
	ConflictLines []ImportConflict `json:"conflict_lines"`
	// Errors are the refused lines; the api translates them into its own errors field.
	Errors []LineError `json:"-"`
}

// ImportScopeImpact is what an import would do to one scope instance's quota.
type ImportScopeImpact struct {
	Scope   Scope  `json:"scope"`
	Key     string `json:"key"`
	Workdir string `json:"workdir,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Used    int    `json:"used"`
	Limit   int    `json:"limit"`
	Adding  int    `json:"adding"`
	// After is the count once the import applied; Refused new memories do not fit.
	After   int    `json:"after"`
	Refused int    `json:"refused"`
	Level   string `json:"level"` // the ladder level after the import
}

// ImportConflict is one line naming a memory the store holds with other content.
type ImportConflict struct {
	Line int    `json:"line"`
	Slug string `json:"slug"`
	// ID is the store's memory the line collides with; Title its current title.
	ID    string `json:"id"`
	Title string `json:"title"`
	Scope Scope  `json:"scope"`
}

// MaxPreviewLines bounds the conflicts and errors a preview lists (the counts are complete).
const MaxPreviewLines = 50

// PreviewImport reads JSONL as ImportWith would and classifies every line against the store
// as it is now, writing nothing.
func (s *Store) PreviewImport(ctx context.Context, r io.Reader) (ImportPreview, error) {
	p := ImportPreview{Scopes: []ImportScopeImpact{}, ConflictLines: []ImportConflict{}, Errors: []LineError{}}
	lr := newLineReader(r, MaxImportLine)
	adding := map[scopeRef]*ImportScopeImpact{}
	seen := map[string]bool{} // scope/key/slug and ids already met in this file
	refuse := func(n int, le LineError) {
		p.Invalid++
		if len(p.Errors) < MaxPreviewLines {
			le.Line = n
			le.Message = fmt.Sprintf("line %d: %s", n, le.Message)
			p.Errors = append(p.Errors, le)
		}
	}
	n := 0
	for {
		raw, tooLong, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			refuse(n+1, LineError{Code: CodeParseError, Args: map[string]any{"Detail": err.Error()}, Message: err.Error()})
			break
		}
		if err := ctx.Err(); err != nil {
			return p, err
		}
		n++
		if tooLong {
			p.Lines++
			refuse(n, LineError{Code: CodeLineTooLong, Args: map[string]any{"Line": n, "Max": MaxImportLine},
				Message: fmt.Sprintf("longer than %d bytes", MaxImportLine)})
			continue
		}
		line := strings.TrimSpace(string(raw))
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		p.Lines++
		if kvKind(line) == KVRecordKind {
			if _, err := decodeKVLine(line); err != nil {
				code, args := lineJSONError(err, line)
				refuse(n, LineError{Code: code, Args: args, Message: "invalid JSON: " + err.Error()})
			} else {
				p.KV++
			}
			continue
		}
		var rec Record
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			code, args := lineJSONError(err, line)
			refuse(n, LineError{Code: code, Args: args, Message: "invalid JSON: " + err.Error()})
			continue
		}
		if le := s.checkRecord(rec); le != nil {
			refuse(n, *le)
			continue
		}
		if rec.Type == TypeDaily {
			p.Daily++
			continue
		}
		m, key, err := s.previewMemory(rec)
		if err != nil {
			le := LineError{Code: CodeOf(err), Message: err.Error()}
			var ce *Error
			if errors.As(err, &ce) {
				le.Args = ce.Args
			}
			refuse(n, le)
			continue
		}
		// The import's own refusals, counted as it will count them (opWrite): an id that is no
		// ULID, and a slug the person rejected in the last seven days.
		if rec.ID != "" {
			if _, err := ulid.ParseStrict(rec.ID); err != nil {
				refuse(n, LineError{Code: CodeParseError, Args: map[string]any{"Detail": "id"},
					Message: fmt.Sprintf("id %q is not a ULID", clip(rec.ID, 80))})
				continue
			}
		}
		if err := s.classify(ctx, &p, n, m, key, rec.ID, seen); err != nil {
			return p, err
		}
		if m.ID == "" {
			rej, err := s.rejected(ctx, s.db, m.Scope, key, m.Slug)
			if err != nil {
				return p, err
			}
			if rej {
				p.New--
				refuse(n, LineError{Code: CodeRejectedSlug, Args: map[string]any{"Slug": m.Slug},
					Message: fmt.Sprintf("slug %s was rejected by the user in the last 7 days", m.Slug)})
				continue
			}
		}
		if m.ID == "" { // classify leaves a new memory without an id
			ref := scopeRef{m.Scope, key}
			im := adding[ref]
			if im == nil {
				used, err := usedIn(ctx, s.db, m.Scope, key)
				if err != nil {
					return p, err
				}
				im = &ImportScopeImpact{Scope: m.Scope, Key: key, Workdir: m.Workdir, Agent: m.Agent, Used: used, Limit: s.opts.QuotaLimit}
				adding[ref] = im
			}
			// A write is refused once the scope is exhausted (headroom ≤ 5), as opWrite decides.
			if LadderLevel(im.Limit-(im.Used+im.Adding)) == LevelExhausted {
				im.Refused++
				p.OverQuota++
				p.New--
			} else {
				im.Adding++
			}
		}
	}
	for _, im := range adding {
		im.After = im.Used + im.Adding
		im.Level = LadderLevel(im.Limit - im.After)
		p.Scopes = append(p.Scopes, *im)
	}
	sort.Slice(p.Scopes, func(i, j int) bool {
		if p.Scopes[i].Scope != p.Scopes[j].Scope {
			return p.Scopes[i].Scope < p.Scopes[j].Scope
		}
		return p.Scopes[i].Key < p.Scopes[j].Key
	})
	return p, nil
}

// previewMemory checks a record the way opWrite would (scope, type, slug, text, field limits,
// secrets) and returns the memory it would write, with its scope key.
func (s *Store) previewMemory(rec Record) (*Memory, string, error) {
	if !rec.Scope.Valid() {
		return nil, "", codeErr(CodeInvalidScope, map[string]any{"Scope": string(rec.Scope)}, "invalid scope %q", rec.Scope)
	}
	if !rec.Type.Writable() {
		return nil, "", codeErr(CodeInvalidType, map[string]any{"Type": string(rec.Type)}, "invalid type %q", rec.Type)
	}
	if !ValidSlug(rec.Slug) {
		return nil, "", codeErr(CodeInvalidSlug, map[string]any{"Slug": rec.Slug}, "invalid slug %q", rec.Slug)
	}
	wd, ag, key, err := s.scopeKey(rec.Scope, rec.Workdir, rec.Agent)
	if err != nil {
		return nil, "", err
	}
	title, body := strings.TrimSpace(rec.Title), strings.TrimSpace(rec.Body)
	if err := validateText(title, body); err != nil {
		return nil, "", err
	}
	if body == "" {
		return nil, "", codeErr(CodeMissingBody, nil, "body is required")
	}
	if rec.Confidence != "" && !rec.Confidence.Valid() {
		return nil, "", codeErr(CodeInvalidConf, map[string]any{"Confidence": string(rec.Confidence)}, "invalid confidence %q", rec.Confidence)
	}
	conf, _ := ApplyEvidence(rec.Confidence, strings.TrimSpace(rec.SourceQuote))
	m := &Memory{Slug: rec.Slug, Title: title, Scope: rec.Scope, Workdir: wd, Agent: ag, Type: rec.Type, Confidence: conf,
		SourceQuote: strings.TrimSpace(rec.SourceQuote), Reasoning: strings.TrimSpace(rec.Reasoning),
		Aliases: cleanList(rec.Aliases), Tags: cleanList(rec.Tags), Supersedes: cleanList(rec.Supersedes),
		ConflictsWith: cleanList(rec.ConflictsWith), Body: body, projectKey: key}
	if rec.Source != nil {
		m.Source = *rec.Source
	}
	if err := checkMemory(m); err != nil {
		return nil, "", err
	}
	return m, key, nil
}

// classify counts one valid memory line as new, duplicate or conflicting. It leaves m.ID empty
// for a new memory and sets it to the colliding memory's id otherwise. A slug or id met
// earlier in the same file is a conflict: the import writes the first and refuses the rest.
func (s *Store) classify(ctx context.Context, p *ImportPreview, n int, m *Memory, key, id string, seen map[string]bool) error {
	slugKey := string(m.Scope) + "/" + key + "/" + m.Slug
	var have *Memory
	if id != "" {
		if got, err := getByID(ctx, s.db, id); err == nil {
			have = got
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	if have == nil {
		if got, err := getBySlug(ctx, s.db, m.Scope, key, m.Slug); err == nil {
			have = got
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	repeated := seen[slugKey] || (id != "" && seen["id:"+id])
	seen[slugKey] = true
	if id != "" {
		seen["id:"+id] = true
	}
	switch {
	case have != nil && have.Title == m.Title && strings.TrimSpace(have.Body) == m.Body:
		p.Duplicates++
		m.ID = have.ID
	case have != nil || repeated:
		p.Conflicts++
		c := ImportConflict{Line: n, Slug: m.Slug, Scope: m.Scope}
		if have != nil {
			c.ID, c.Title = have.ID, have.Title
			m.ID = have.ID
		} else {
			m.ID = "repeated"
		}
		if len(p.ConflictLines) < MaxPreviewLines {
			p.ConflictLines = append(p.ConflictLines, c)
		}
	default:
		p.New++
	}
	return nil
}
