/**
 * SQLite storage for the embedded service: opening the database file, pragmas and migrations.
 * Uses libsql's better-sqlite3-compatible synchronous API.
 */
import Database from 'libsql'

export type Db = InstanceType<typeof Database>

/** Ordered migrations; index + 1 is the schema version a migration brings the database to. */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE TABLE users (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE TABLE documents (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    url TEXT NOT NULL,
    from_page INTEGER,
    to_page INTEGER,
    metadata TEXT NOT NULL,
    authorization TEXT,
    splitter TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX documents_user ON documents(user_id, created_at DESC, seq DESC);
  CREATE TABLE prompts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    template TEXT NOT NULL,
    input_variables TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX prompts_user ON prompts(user_id, created_at DESC, seq DESC);
  CREATE TABLE tags (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX tags_user ON tags(user_id, created_at DESC, seq DESC);
  CREATE TABLE agents (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    llm_provider TEXT NOT NULL,
    llm_model TEXT NOT NULL,
    has_memory INTEGER NOT NULL,
    prompt_id TEXT REFERENCES prompts(id) ON DELETE SET NULL,
    document_id TEXT REFERENCES documents(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX agents_user ON agents(user_id, created_at DESC, seq DESC);
  CREATE INDEX agents_prompt ON agents(prompt_id);
  CREATE INDEX agents_document ON agents(document_id);
  CREATE TABLE agent_tags (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (agent_id, tag_id)
  );
  CREATE INDEX agent_tags_tag ON agent_tags(tag_id);
  CREATE TABLE tools (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    description TEXT NOT NULL,
    metadata TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX tools_user ON tools(user_id, created_at DESC, seq DESC);
  CREATE TABLE api_tokens (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    description TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE INDEX api_tokens_user ON api_tokens(user_id, created_at DESC, seq DESC);
  CREATE TABLE agent_documents (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    UNIQUE (agent_id, document_id)
  );
  CREATE INDEX agent_documents_user ON agent_documents(user_id, created_at DESC, seq DESC);
  CREATE INDEX agent_documents_document ON agent_documents(document_id);
  CREATE TABLE agent_tools (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    tool_id TEXT NOT NULL REFERENCES tools(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    UNIQUE (agent_id, tool_id)
  );
  CREATE INDEX agent_tools_user ON agent_tools(user_id, created_at DESC, seq DESC);
  CREATE INDEX agent_tools_tool ON agent_tools(tool_id);
  `
]

export const SCHEMA_VERSION = MIGRATIONS.length

function currentVersion(db: Db): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
  const row = db.prepare('SELECT version FROM schema_version LIMIT 1').get() as
    { version: number } | undefined
  if (!row) {
    db.prepare('INSERT INTO schema_version (version) VALUES (0)').run()
    return 0
  }
  return Number(row.version)
}

/** Opens (creating if needed) the database file, sets pragmas and applies pending migrations. */
export function openDatabase(file: string, busyTimeoutMs = 5000): Db {
  const db = new Database(file)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`)
  const version = currentVersion(db)
  if (version > SCHEMA_VERSION) {
    db.close()
    throw new Error(`Database schema version ${version} is newer than this service (${SCHEMA_VERSION})`)
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const sql = MIGRATIONS[v] as string
    const apply = db.transaction(() => {
      db.exec(sql)
      db.prepare('UPDATE schema_version SET version = ?').run(v + 1)
    })
    apply()
  }
  return db
}
