package memory

import "strings"

// migration is one numbered step. Each runs in its own transaction; NeedsReindex asks for the
// memory tables to be rebuilt from the files after it (the index is disposable, history is not).
type migration struct {
	version      int
	name         string
	sql          string
	needsReindex bool
}

// migrations are append-only: never edit a shipped step, add a new one. That includes its name:
// an index whose recorded step has another name is taken for another build's and rebuilt from
// the files (checkSteps, TestShippedStepNamesNeverChange).
var migrations = append([]migration{
	{1, "initial schema", `
CREATE TABLE memory_meta (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  path TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  scope TEXT NOT NULL,
  scope_key TEXT NOT NULL DEFAULT '',
  workdir TEXT NOT NULL DEFAULT '',
  agent TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  confidence TEXT NOT NULL DEFAULT 'medium',
  auto_downgraded INTEGER NOT NULL DEFAULT 0,
  reviewed INTEGER NOT NULL DEFAULT 0,
  source_quote TEXT NOT NULL DEFAULT '',
  reasoning TEXT NOT NULL DEFAULT '',
  aliases TEXT NOT NULL DEFAULT '[]',
  tags TEXT NOT NULL DEFAULT '[]',
  supersedes TEXT NOT NULL DEFAULT '[]',
  conflicts_with TEXT NOT NULL DEFAULT '[]',
  source TEXT NOT NULL DEFAULT '{}',
  created TEXT NOT NULL,
  updated TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  archived INTEGER NOT NULL DEFAULT 0,
  version TEXT NOT NULL,
  mtime INTEGER NOT NULL,
  size INTEGER NOT NULL
);
CREATE INDEX memory_meta_scope ON memory_meta(scope, scope_key, archived, type);
CREATE INDEX memory_meta_slug ON memory_meta(scope, scope_key, slug);
CREATE INDEX memory_meta_updated ON memory_meta(updated);
CREATE VIRTUAL TABLE memory_fts USING fts5(title, body, aliases, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE memory_fts_tri USING fts5(text, tokenize = 'trigram');
CREATE TABLE memory_vec (
  rid INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  dim INTEGER NOT NULL,
  vec BLOB NOT NULL,
  content_version TEXT NOT NULL DEFAULT ''
);
CREATE TABLE memory_problems (
  path TEXT PRIMARY KEY,
  mtime INTEGER NOT NULL,
  size INTEGER NOT NULL,
  code TEXT NOT NULL,
  detail TEXT NOT NULL,
  seen_at TEXT NOT NULL
);
CREATE TABLE projects (
  key TEXT PRIMARY KEY,
  workdir TEXT NOT NULL,
  first_seen TEXT NOT NULL
);
CREATE TABLE memory_audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  ts TEXT NOT NULL,
  op TEXT NOT NULL,
  actor TEXT NOT NULL,
  memory_id TEXT NOT NULL DEFAULT '',
  slug TEXT NOT NULL DEFAULT '',
  scope TEXT NOT NULL DEFAULT '',
  scope_key TEXT NOT NULL DEFAULT '',
  session TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  result TEXT NOT NULL DEFAULT 'ok',
  detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX memory_audit_memory ON memory_audit_log(memory_id, seq);
CREATE TABLE memory_rejections (
  scope TEXT NOT NULL,
  scope_key TEXT NOT NULL,
  slug TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  rejected_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (scope, scope_key, slug)
);
CREATE TABLE memory_organize_runs (
  id TEXT PRIMARY KEY,
  trigger TEXT NOT NULL,
  mode TEXT NOT NULL,
  status TEXT NOT NULL,
  phase TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL,
  finished_at TEXT,
  initial_count INTEGER NOT NULL DEFAULT 0,
  final_count INTEGER NOT NULL DEFAULT 0,
  compression_ratio REAL NOT NULL DEFAULT 0,
  quota_headroom_at_start INTEGER NOT NULL DEFAULT 0,
  token_usage_total INTEGER NOT NULL DEFAULT 0,
  report TEXT NOT NULL DEFAULT '{}',
  error TEXT NOT NULL DEFAULT ''
);
CREATE TABLE extraction_runs (
  id TEXT PRIMARY KEY,
  session TEXT NOT NULL DEFAULT '',
  agent TEXT NOT NULL DEFAULT '',
  workdir TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  skip_reason TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL,
  finished_at TEXT,
  model TEXT NOT NULL DEFAULT '',
  items_applied INTEGER NOT NULL DEFAULT 0,
  items_rejected INTEGER NOT NULL DEFAULT 0,
  report TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE graph_entities (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  norm TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'concept',
  scope TEXT NOT NULL,
  scope_key TEXT NOT NULL DEFAULT '',
  UNIQUE (scope, scope_key, norm)
);
CREATE TABLE graph_relations (
  id INTEGER PRIMARY KEY,
  src INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
  dst INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
  rel TEXT NOT NULL,
  memory_rid INTEGER,
  UNIQUE (src, dst, rel, memory_rid)
);
CREATE TABLE graph_mentions (
  entity INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
  memory_rid INTEGER NOT NULL,
  PRIMARY KEY (entity, memory_rid)
);
CREATE TABLE llm_usage (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ts TEXT NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  purpose TEXT NOT NULL,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0
);
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`, true},
	{2, "access tracking kept across reindex", `
CREATE TABLE memory_access (
  id TEXT PRIMARY KEY,
  access_count INTEGER NOT NULL DEFAULT 0,
  last_access TEXT NOT NULL
);
`, false},
	// Porter stemming makes "painting" find "painted" and "paints". It wraps unicode61, so CJK
	// bigrams and diacritic folding behave as before; the word index is rebuilt from the files.
	{3, "stemmed word index", `
DROP TABLE memory_fts;
CREATE VIRTUAL TABLE memory_fts USING fts5(title, body, aliases, tokenize = 'porter unicode61 remove_diacritics 2');
`, true},
	// Recall support: a change log of memory_vec that lets every process refresh its in-memory
	// vector cache incrementally; an index per overview bucket (newest first); and an index on
	// the source session and turn so that neighbouring turns of a conversation are found fast.
	{4, "recall support", `
CREATE TABLE recall_vec_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  rid INTEGER NOT NULL
);
CREATE TRIGGER recall_vec_ins AFTER INSERT ON memory_vec BEGIN
  INSERT INTO recall_vec_log(rid) VALUES (NEW.rid);
END;
CREATE TRIGGER recall_vec_upd AFTER UPDATE ON memory_vec BEGIN
  INSERT INTO recall_vec_log(rid) VALUES (NEW.rid);
END;
CREATE TRIGGER recall_vec_del AFTER DELETE ON memory_vec BEGIN
  INSERT INTO recall_vec_log(rid) VALUES (OLD.rid);
END;
CREATE INDEX memory_meta_bucket ON memory_meta(scope, scope_key, archived, type, updated);
CREATE INDEX memory_meta_turn ON memory_meta(json_extract(source, '$.session'), json_extract(source, '$.turn'));
`, false},
	// Edits that put size and mtime back (cp -p, rsync -a) are caught by ctime and the inode.
	// Rows start at 0, which differs from any real stamp: the next reconcile re-reads each file
	// once, finds the same checksum and records the stamp, so no reindex is needed.
	{5, "file ctime and inode", `
ALTER TABLE memory_meta ADD COLUMN ctime INTEGER NOT NULL DEFAULT 0;
ALTER TABLE memory_meta ADD COLUMN ino INTEGER NOT NULL DEFAULT 0;
ALTER TABLE memory_problems ADD COLUMN ctime INTEGER NOT NULL DEFAULT 0;
ALTER TABLE memory_problems ADD COLUMN ino INTEGER NOT NULL DEFAULT 0;
`, false},
	// The usage view sums a range of days; without this every summary scans every call ever made.
	{6, "llm usage by time", `
CREATE INDEX llm_usage_ts ON llm_usage(ts);
`, false},
	// Extraction run records (issue 10): the hash of the user message a run covered and its
	// token use, so that a one-shot process (the CLI, an agent's hook) can apply the "same
	// message already covered" and "30 s since the last run" gates across processes, and the
	// Activity view lists runs per session without reading every report.
	{7, "extraction run gates", `
ALTER TABLE extraction_runs ADD COLUMN message_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE extraction_runs ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE extraction_runs ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
CREATE INDEX extraction_runs_session ON extraction_runs(session, started_at);
CREATE INDEX extraction_runs_started ON extraction_runs(started_at);
`, false},
	// Sessions: each conversation an agent fed extraction (its recent messages, bounded by
	// compaction into a summary), the transcript entries the hook already forwarded (so a turn
	// read twice is extracted once) and where in each transcript the next read begins. All are
	// history the files cannot rebuild.
	{8, "sessions and transcript dedupe", `
CREATE TABLE sessions (
  agent TEXT NOT NULL,
  id TEXT NOT NULL,
  workdir TEXT NOT NULL DEFAULT '',
  scope_key TEXT NOT NULL DEFAULT '',
  turns_received INTEGER NOT NULL DEFAULT 0,
  next_seq INTEGER NOT NULL DEFAULT 1,
  first_seen TEXT NOT NULL,
  last_activity TEXT NOT NULL,
  summary TEXT NOT NULL DEFAULT '',
  summarized INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (agent, id)
);
CREATE INDEX sessions_activity ON sessions(last_activity);
CREATE INDEX sessions_scope ON sessions(agent, scope_key);
CREATE TABLE session_turns (
  agent TEXT NOT NULL,
  session TEXT NOT NULL,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  msg_id TEXT NOT NULL DEFAULT '',
  at TEXT NOT NULL,
  PRIMARY KEY (agent, session, seq)
);
CREATE INDEX session_turns_msg ON session_turns(agent, session, msg_id);
CREATE TABLE transcript_seen (
  source TEXT NOT NULL,
  session TEXT NOT NULL,
  uuid TEXT NOT NULL,
  seen_at TEXT NOT NULL,
  PRIMARY KEY (source, session, uuid)
);
CREATE INDEX transcript_seen_at ON transcript_seen(seen_at);
CREATE TABLE transcript_offsets (
  source TEXT NOT NULL,
  session TEXT NOT NULL,
  path TEXT NOT NULL,
  offset INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (source, session, path)
);
`, false},
	// The knowledge graph (issue 13): the frontmatter subject relation lines are about, each
	// mention's label and entity-type hint, lookups by memory for keeping the graph in step with
	// every write, each mention's spelling (the most common names an entity), and a generation counter every graph change bumps so each process knows when
	// its cached graph is stale. The graph is rebuilt from the files.
	{9, "knowledge graph", `
ALTER TABLE memory_meta ADD COLUMN subject TEXT NOT NULL DEFAULT '';
ALTER TABLE graph_mentions ADD COLUMN label TEXT NOT NULL DEFAULT '';
ALTER TABLE graph_mentions ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE graph_mentions ADD COLUMN spelling TEXT NOT NULL DEFAULT '';
CREATE INDEX graph_mentions_memory ON graph_mentions(memory_rid);
CREATE INDEX graph_relations_memory ON graph_relations(memory_rid);
CREATE INDEX graph_relations_dst ON graph_relations(dst);
CREATE TABLE graph_state (
  k INTEGER PRIMARY KEY CHECK (k = 1),
  gen INTEGER NOT NULL DEFAULT 0
);
INSERT INTO graph_state(k, gen) VALUES (1, 0);
`, true},
	// Settings → Storage (issue 12): one sample a day of the store's size, history the files
	// cannot rebuild; and the scope instance a run was asked for (the quota banner's button
	// organizes only the scope that is filling up), as JSON, empty for every scope.
	{10, "storage history and organizer run scope", `
CREATE TABLE storage_samples (
  day TEXT PRIMARY KEY,
  at TEXT NOT NULL,
  memories INTEGER NOT NULL,
  archived INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  index_bytes INTEGER NOT NULL
);
ALTER TABLE memory_organize_runs ADD COLUMN scope_filter TEXT NOT NULL DEFAULT '';
`, false},
	// Recall's graph hop (issue 13) looks entities up by name alone, across scope instances;
	// the unique key leads with the scope, so without this every search scanned the table.
	{11, "graph entity names", `
CREATE INDEX graph_entities_norm ON graph_entities(norm);
`, false},
	// A lean index (issue 14): the bodies are stored once, in memory_meta. Both full-text tables
	// become contentless (they keep only the index; contentless_delete lets a row be replaced or
	// removed by rowid, in the same transaction as its memory_meta row), and the trigram table
	// indexes only what substring search earns its size on: titles, slugs, aliases and tags,
	// and bodies of at most trigramBodyMax characters. Both are rebuilt from the files.
	{12, "lean full-text index", `
DROP TABLE memory_fts;
DROP TABLE memory_fts_tri;
CREATE VIRTUAL TABLE memory_fts USING fts5(title, body, aliases, content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE memory_fts_tri USING fts5(text, content = '', contentless_delete = 1, tokenize = 'trigram');
INSERT INTO memory_fts(memory_fts, rank) VALUES('pgsz', 16000);
INSERT INTO memory_fts_tri(memory_fts_tri, rank) VALUES('pgsz', 16000);
DROP INDEX memory_meta_scope;
`, true},
	// Project identities (issue 15): a project is keyed by its id file or git remote, so clones
	// at different paths (and machines syncing the memory folder) share its memories. The
	// projects table remembers each key's identity ("remote:host/owner/repo") and, for a path
	// key whose memories moved to an identity key, where they went (moved_to). Moving is done
	// by the store when a workdir first resolves to an identity (project_move.go), not here:
	// a migration cannot read the project folders.
	{13, "project identities", `
ALTER TABLE projects ADD COLUMN identity TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN moved_to TEXT NOT NULL DEFAULT '';
`, false},
	// A leaner index (issue 14): the turn index holds only the memories recorded from a
	// conversation turn. Both queries that use it (TurnRIDs, the session compaction's lookup)
	// ask for a session by equality, which implies it is not NULL, so SQLite still picks it;
	// a memory written by hand or by the organizer no longer costs an entry (1 MiB at 100k
	// such memories). The index is rebuilt from the table: no reindex.
	{14, "turn index only for turns", `
DROP INDEX memory_meta_turn;
CREATE INDEX memory_meta_turn ON memory_meta(json_extract(source, '$.session'), json_extract(source, '$.turn'))
  WHERE json_extract(source, '$.session') IS NOT NULL;
`, false},
	// A cold open (a CLI call with no watching process) compares every file's stamp with the
	// index's: read from this covering index, in path order, the stamps cost a few MB of index
	// pages (about 70 bytes a memory) instead of the table's, which hold the bodies
	// (fresh_open.go).
	{15, "covering index of file stamps", `
CREATE INDEX memory_meta_stamp ON memory_meta(path, mtime, size, ctime, ino);
`, false},
	// A leaner memory_meta (issue 14: the index must stay within twice the Markdown). Created
	// and updated become Unix milliseconds (6 bytes, not 30 characters: 9 MiB at 100k memories
	// across the table and the two indexes that end in updated). And the path is kept once in
	// an index instead of twice: the UNIQUE constraint on path had its own index beside the
	// stamps' covering index, which begins with the path; the covering index now carries the
	// path lookups, and two triggers keep paths unique over it (SQLite has no UNIQUE on a
	// prefix). The store already replaces another memory's row at a path before writing
	// (upsertText): the triggers are a safety net, as the constraint was. The rows keep their
	// rids (vectors, graph rows and the full-text tables are keyed by them): no reindex.
	{16, "lean memory rows", `
CREATE TABLE memory_meta_new (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  path TEXT NOT NULL,
  slug TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  scope TEXT NOT NULL,
  scope_key TEXT NOT NULL DEFAULT '',
  workdir TEXT NOT NULL DEFAULT '',
  agent TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  confidence TEXT NOT NULL DEFAULT 'medium',
  auto_downgraded INTEGER NOT NULL DEFAULT 0,
  reviewed INTEGER NOT NULL DEFAULT 0,
  source_quote TEXT NOT NULL DEFAULT '',
  reasoning TEXT NOT NULL DEFAULT '',
  aliases TEXT NOT NULL DEFAULT '[]',
  tags TEXT NOT NULL DEFAULT '[]',
  supersedes TEXT NOT NULL DEFAULT '[]',
  conflicts_with TEXT NOT NULL DEFAULT '[]',
  source TEXT NOT NULL DEFAULT '{}',
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  archived INTEGER NOT NULL DEFAULT 0,
  version TEXT NOT NULL,
  mtime INTEGER NOT NULL,
  size INTEGER NOT NULL,
  ctime INTEGER NOT NULL DEFAULT 0,
  ino INTEGER NOT NULL DEFAULT 0,
  subject TEXT NOT NULL DEFAULT ''
);
INSERT INTO memory_meta_new SELECT rid, id, path, slug, title, scope, scope_key, workdir, agent, type, confidence,
  auto_downgraded, reviewed, source_quote, reasoning, aliases, tags, supersedes, conflicts_with, source,
  COALESCE(CAST(round(unixepoch(created, 'subsec') * 1000) AS INTEGER), 0),
  COALESCE(CAST(round(unixepoch(updated, 'subsec') * 1000) AS INTEGER), 0),
  body, archived, version, mtime, size, ctime, ino, subject
  FROM memory_meta ORDER BY rid;
DROP TABLE memory_meta;
ALTER TABLE memory_meta_new RENAME TO memory_meta;
CREATE INDEX memory_meta_path ON memory_meta(path, mtime, size, ctime, ino);
CREATE TRIGGER memory_meta_path_insert BEFORE INSERT ON memory_meta
  WHEN EXISTS (SELECT 1 FROM memory_meta WHERE path = NEW.path)
  BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: memory_meta.path'); END;
CREATE TRIGGER memory_meta_path_update BEFORE UPDATE OF path ON memory_meta
  WHEN NEW.path IS NOT OLD.path AND EXISTS (SELECT 1 FROM memory_meta WHERE path = NEW.path)
  BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: memory_meta.path'); END;
CREATE INDEX memory_meta_slug ON memory_meta(scope, scope_key, slug);
CREATE INDEX memory_meta_updated ON memory_meta(updated);
CREATE INDEX memory_meta_bucket ON memory_meta(scope, scope_key, archived, type, updated);
CREATE INDEX memory_meta_turn ON memory_meta(json_extract(source, '$.session'), json_extract(source, '$.turn'))
  WHERE json_extract(source, '$.session') IS NOT NULL;
`, false},
	// Recall's facet path lists the user memories of every visible scope, most recent first:
	// without this it walks the updated index over every row and reads each to test its type.
	// Partial, so that it costs the index only the user memories' entries (issue 14 keeps the
	// index under twice the Markdown).
	{17, "user memories by date", `
CREATE INDEX memory_meta_user ON memory_meta(archived, updated) WHERE type = 'user';
`, false},
	// A lone Chinese or Japanese character is searched through the word index (issue 14: the
	// list's search box and recall read every body for one, ~30 ms at 10k memories and ten
	// times that at 100k): each memory's word columns now end with the characters that begin
	// none of its tokens (text.SegmentCJKDoc), so a prefix query finds every memory holding a
	// character. The old rows lack them, and the full-text tables are rebuilt from the files.
	{18, "every CJK character begins a token", `
INSERT INTO memory_fts(memory_fts) VALUES('delete-all');
`, true},
	// A cold process's open reads the index's stamps from a snapshot beside the index while
	// it is current (stamp_snapshot.go): the version changes with every change of a path or
	// stamp, in the same transaction.
	{19, "stamp version", `
CREATE TABLE stamp_version (id INTEGER PRIMARY KEY CHECK (id = 1), v INTEGER NOT NULL);
INSERT INTO stamp_version VALUES (1, random());
` + strings.Join(stampTriggers, ";\n") + `;
`, false},
}, laterMigrations...)

// SchemaVersion is the newest migration this build knows.
func SchemaVersion() int { return migrations[len(migrations)-1].version }
