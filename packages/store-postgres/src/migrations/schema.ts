/**
 * The schema, as numbered migrations: each is applied once, in order, in one transaction with the
 * version row that records it. Never edit a released migration; add the next one.
 */
export function migrations(prefix: string): readonly string[] {
  return [
    // 1: events keyed by (log, index): the primary key is the compare-and-swap of an append.
    `CREATE TABLE ${prefix}events (
       log_id text NOT NULL,
       idx integer NOT NULL CHECK (idx >= 0),
       event_id text NOT NULL,
       body text NOT NULL,
       appended_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (log_id, idx),
       UNIQUE (log_id, event_id)
     );
     CREATE FUNCTION ${prefix}notify_event() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM pg_notify('${prefix}events', NEW.log_id || ' ' || NEW.idx);
       RETURN NULL;
     END $$;
     CREATE TRIGGER ${prefix}events_notify AFTER INSERT ON ${prefix}events
       FOR EACH ROW EXECUTE FUNCTION ${prefix}notify_event();
     CREATE TABLE ${prefix}leases (
       lease_key text PRIMARY KEY,
       generation bigint NOT NULL,
       owner text NOT NULL,
       expires_at timestamptz NOT NULL
     );
     CREATE TABLE ${prefix}conversations (
       conversation_id text PRIMARY KEY,
       status text NOT NULL DEFAULT 'idle',
       title text,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now(),
       snapshot text
     );
     CREATE INDEX ${prefix}conversations_updated ON ${prefix}conversations (updated_at DESC, conversation_id);
     CREATE INDEX ${prefix}conversations_status ON ${prefix}conversations (status, updated_at DESC);`,
    // 2: files for PostgresFileStore (snapshots, metadata), ordered by code point whatever the database's locale.
    `CREATE TABLE ${prefix}files (
       path text COLLATE "C" PRIMARY KEY,
       data bytea NOT NULL,
       updated_at timestamptz NOT NULL DEFAULT now()
     );`,
    // 3: the tamper-evident chain (as @x/store's slot claims): every row links to the one before it, set by
    // the database in the insert itself, so every writer (any replica, any version from 3 on) chains alike.
    `ALTER TABLE ${prefix}events ADD COLUMN prev_hash text, ADD COLUMN hash text;
     CREATE FUNCTION ${prefix}chain_event() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NEW.idx > 0 THEN
         SELECT hash INTO NEW.prev_hash FROM ${prefix}events WHERE log_id = NEW.log_id AND idx = NEW.idx - 1;
       ELSE
         NEW.prev_hash := NULL;
       END IF;
       NEW.hash := encode(sha256(convert_to(
         'x-chain-v1' || chr(10) || NEW.idx || chr(10) || coalesce(NEW.prev_hash, '') || chr(10) || NEW.body,
         'UTF8')), 'hex');
       RETURN NEW;
     END $$;
     CREATE TRIGGER ${prefix}events_chain BEFORE INSERT ON ${prefix}events
       FOR EACH ROW EXECUTE FUNCTION ${prefix}chain_event();
     CREATE TABLE ${prefix}chain_heads (
       log_id text PRIMARY KEY,
       length integer NOT NULL,
       hash text NOT NULL,
       signature text NOT NULL,
       public_key text NOT NULL
     );`,
    // 4: listings by creation time (the server's CREATED_AT sort orders) use an index too.
    `CREATE INDEX ${prefix}conversations_created ON ${prefix}conversations (created_at, conversation_id);`,
    // 5: fork links, so a conversation's forks are found with one indexed query (the server's tree graph).
    `ALTER TABLE ${prefix}conversations ADD COLUMN forked_from_conversation_id text, ADD COLUMN forked_from_event_id text;
     CREATE INDEX ${prefix}conversations_forked_from ON ${prefix}conversations (forked_from_conversation_id, created_at, conversation_id)
       WHERE forked_from_conversation_id IS NOT NULL;`,
  ];
}
