package memory

import "strings"

// laterMigrations are the steps from 20 on, kept apart only for the files' length: the
// rules of migrations (schema.go) hold for them.
var laterMigrations = []migration{
	// A cold process's first search starts from a snapshot of the stored vectors beside the
	// index (vector_log.go): every change a load of the vectors could see becomes a row of the
	// vector change log, each row with a random tag. The marker row makes the log's newest row
	// a tagged one from the start. Any later migration that rewrites memory_vec or memory_meta
	// with these triggers away must log VectorLogReload itself.
	{20, "vector change log, whole", `
DROP TRIGGER recall_vec_ins;
DROP TRIGGER recall_vec_upd;
DROP TRIGGER recall_vec_del;
ALTER TABLE recall_vec_log ADD COLUMN tag INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER recall_vec_ins AFTER INSERT ON memory_vec BEGIN INSERT INTO recall_vec_log(rid, tag) VALUES (NEW.rid, random()); END;
CREATE TRIGGER recall_vec_upd AFTER UPDATE ON memory_vec BEGIN INSERT INTO recall_vec_log(rid, tag) VALUES (NEW.rid, random()); END;
CREATE TRIGGER recall_vec_del AFTER DELETE ON memory_vec BEGIN INSERT INTO recall_vec_log(rid, tag) VALUES (OLD.rid, random()); END;
` + strings.Join(vectorTriggers, ";\n") + `;
` + logReload + `;
`, false},
	// The word index's tokens are made in Go (text.WordTokens, the rules of "porter unicode61
	// remove_diacritics 2") and the table splits them at spaces only: FTS5's tokenizing was
	// ~2.3 s of the single writer's ~18 s in a 100k reindex (issue 14 item 6), and the readers
	// beside it can do it. Queries fold and stem their words the same way (QuoteWords). The old table's
	// terms are the same for nearly all text, but it is rebuilt from the files all the same.
	{21, "word tokens made in Go", `
DROP TABLE memory_fts;
CREATE VIRTUAL TABLE memory_fts USING fts5(title, body, aliases, content = '', contentless_delete = 1,
  tokenize = 'ascii');
INSERT INTO memory_fts(memory_fts, rank) VALUES('pgsz', 16000);
`, true},
	// A note written by hand without an id, or without any header, is indexed now (parseHand):
	// the parse problems recorded for such files are dropped, so the next reconcile reads those
	// paths again and indexes what it can (and records the rest again). No reindex. A memory
	// file that had lost its id before this step cannot be told from such a note any more
	// (lostID needs the row or a lost_id problem): it comes back, unreviewed, under the id of
	// its path, its text whole.
	{22, "hand notes without an id", `
DELETE FROM memory_problems WHERE code = 'parse_error';
`, false},
	// A problem keeps the catalog key and arguments of its reason (detail.*) as they were made
	// where the reason was found, beside the English detail: before, doctor read them back
	// from the English. Every problem's stamp is forgotten, so the next reconcile reads those
	// files again and records their reasons with the key (the rows stay until then, lost_id
	// ones included, which that reading needs). No reindex.
	{23, "problem detail keys", `
ALTER TABLE memory_problems ADD COLUMN detail_key TEXT NOT NULL DEFAULT '';
ALTER TABLE memory_problems ADD COLUMN detail_args TEXT NOT NULL DEFAULT '';
UPDATE memory_problems SET mtime = -1;
`, false},
	// Entity names keep math symbols and combining marks in their key (wikilink.Norm): "C++"
	// and "C" were one entity, so "- [[Bob]] uses [[C]]" was drawn as a relation to C++. The
	// keys (and the ids made from them) of such names change, so the graph is rebuilt from
	// the files. The same rebuild reads the relation lines written with an ideographic or
	// no-break space (they were mentions only), drops the entities "[[#Heading]]" made and keeps
	// every label a memory gives one entity (only the first was kept).
	{24, "graph name keys keep symbols", `
UPDATE graph_state SET gen = gen + 1 WHERE k = 1;
`, true},
	// A message over MaxTurnContent was stored cut with nothing saying so: a person reading
	// the session, or an agent searching its history, took the first 16 KiB for the whole.
	// Each stored message now records how many bytes it lost (0: it is whole).
	{25, "session turns record their cut", `
ALTER TABLE session_turns ADD COLUMN cut_bytes INTEGER NOT NULL DEFAULT 0;
`, false},
	// A '#' that ends a name or stands before punctuation is part of it ("[[C#]]", "[[F#]]",
	// "[[C#/.NET]]"), and the name key keeps it (wikilink.HeadingAt, Norm): such links were read
	// as headings of C and F, so C# and C were one entity. Only a '#' directly before a letter,
	// digit or '^' starts a heading ("[[Acme#History]]"). The graph is rebuilt from the files.
	{26, "graph names keep a trailing #", `
UPDATE graph_state SET gen = gen + 1 WHERE k = 1;
`, true},
	// A transcript entry is handed to extraction once per agent, whichever session's
	// transcript holds it (a resumed or forked Claude Code session copies the old one's
	// entries, uuids and all): the claim looks the uuid up across sessions.
	{27, "transcript entries by uuid", `
CREATE INDEX IF NOT EXISTS transcript_seen_uuid ON transcript_seen(source, uuid, session);
`, false},
	// A session is the agent's, but one session id may be used from two projects (a Claude
	// Code session that moved, an MCP session's agent in another folder): its stored messages
	// had no project, so an extraction in project B took project A's messages as its earlier
	// turns, and history search in A found B's. Each message now keeps the project (key and
	// workdir) it was recorded in, and only that project's runs and searches read it. The
	// messages stored before this step cannot be placed: they take the project the session was
	// first seen with, which is where every reader looked for them before.
	{28, "session turns keep their project", `
ALTER TABLE session_turns ADD COLUMN scope_key TEXT NOT NULL DEFAULT '';
ALTER TABLE session_turns ADD COLUMN workdir TEXT NOT NULL DEFAULT '';
UPDATE session_turns SET (scope_key, workdir) = (SELECT s.scope_key, s.workdir FROM sessions s
  WHERE s.agent = session_turns.agent AND s.id = session_turns.session)
  WHERE EXISTS (SELECT 1 FROM sessions s WHERE s.agent = session_turns.agent AND s.id = session_turns.session);
CREATE INDEX session_turns_scope ON session_turns(agent, scope_key);
`, false},
	// A session used from two projects kept one summary, its first project's: the other
	// project's messages left the session with the fold unsummarised, so what was said there
	// was gone from its history. Each other project's folded messages now make that project's
	// own summary; the first project's stays in sessions.summary, where it always was.
	{29, "sessions keep a summary per project", `
CREATE TABLE IF NOT EXISTS session_summaries (
  agent TEXT NOT NULL,
  session TEXT NOT NULL,
  scope_key TEXT NOT NULL,
  workdir TEXT NOT NULL DEFAULT '',
  summary TEXT NOT NULL DEFAULT '',
  summarized INTEGER NOT NULL DEFAULT 0,
  updated TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (agent, session, scope_key)
);
CREATE INDEX IF NOT EXISTS session_summaries_scope ON session_summaries(agent, scope_key);
`, false},
}
