import { MemoryFS, type PGlite, protocol } from '@electric-sql/pglite';
import {
  AbortedTransactionError,
  type CompiledQuery,
  createQueryId,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  IdentifierNode,
  type Kysely,
  PGliteAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  RawNode,
  type TransactionSettings,
} from 'kysely';
import { bindAndRun, WireReader, type WireReply } from './pglite-wire.ts';

const wire = protocol.serialize;
const sync = wire.sync();

/**
 * How many statements are kept prepared in the backend (with their parameters' types), and how much of their
 * text in all: Kysely's texts repeat, but `in (…)` lists and multi-row inserts vary with their length, and a
 * long one must not hold megabytes. The least recently used go first. Each prepared statement holds its parse
 * tree and plans in the backend's memory, which a WASM instance never gives back, hence the modest count.
 */
const statementMemory = { statements: 256, characters: 1_000_000 };

/** A statement that can change what a column is, after which prepared statements and their types may be wrong. */
const schemaChange = /^\s*(alter|create|drop)\b/i;

/** Statements worth preparing: queries and data changes (utility statements, DDL and upkeep run unnamed). */
const preparable = /^\s*(select|insert|update|delete|with|values)\b/i;

/**
 * An ON CONFLICT whose arbiter index is named by a predicate with a parameter (`on conflict (user_id) where
 * status = $2`). Postgres infers the arbiter while planning: a custom plan sees the value and matches the
 * partial index, a generic plan cannot, and fails with 42P10 ("no unique or exclusion constraint matching the ON
 * CONFLICT specification") once Postgres tries one, at the sixth execution. Such statements run unnamed.
 */
const arbiterWithParameter = /\bon conflict\s*\([^)]*\)\s*where\b(?:(?!\bdo\b)[\s\S])*\$\d/i;

/** feature_not_supported: "cached plan must not change result type". */
const STALE_PREPARED = '0A000';

/** A statement the backend knows: its parameters' types, and its name when it is kept prepared there. */
interface Known {
  types: number[];
  name: string;
}

/**
 * Kysely over PGlite with one trip into the WASM backend per statement instead of PGlite's six.
 *
 * PGlite's own `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six calls, each a
 * turn of the backend's loop and a walk of its output: on Liftoff (`npm start`'s lean flags, ADR 0041)
 * those calls, not the statement, were most of an insert's time. Here they go as one buffer. The one
 * thing PGlite's first round trip learns, the parameters' types (which choose each value's text form:
 * JSON for json, `{…}` for arrays, ISO text for a Date), is remembered per statement text, so a text
 * seen before costs one call and a new one two. Queries and data changes are kept prepared in the backend by name
 * (ADR 0050), so a statement seen before skips Postgres' parse and analysis, and once Postgres settles on a
 * generic plan its planning too: 0.78–0.84× the server's CPU per message, for 1.4–2.5 KiB more RSS per idle socket
 * (`npm run bench -- sockets`: 92,000–116,000 per GiB against 124,000–135,000 unnamed; aim 80,000). The answer is
 * read by `WireReader` (pglite-wire.ts) straight from the backend's output: values through PGlite's own type
 * parsers, errors as PGlite's `DatabaseError` with `code` and `constraint`. The driver hands its one connection
 * to one statement or transaction at a time, first come first served (`OneConnectionAdapter`), and still takes
 * PGlite's locks: a statement holds its query lock, a transaction its transaction lock to the end, as PGlite's
 * `query` and `transaction` do.
 * Not supported: PGlite's `/dev/blob` (COPY to and from a Blob), which Kysely cannot pass.
 */
export class PGliteOneCallDialect implements Dialect {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  createAdapter() {
    return new OneConnectionAdapter();
  }

  createDriver(): Driver {
    return new OneCallDriver(this.#pglite);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own dialects take any database here.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

/**
 * PGlite's adapter, except that Kysely is told the driver hands out its one connection itself. Told otherwise,
 * Kysely serializes every statement through its `ConnectionMutex`, whose release wakes every waiter, each of
 * which awaits again but one: a queue of n statements costs n² promise turns to drain, just when a stall (a
 * mark-compact) has let one build up.
 */
class OneConnectionAdapter extends PGliteAdapter {
  override get supportsMultipleConnections() {
    return true;
  }
}

class OneCallDriver implements Driver {
  readonly #connection: OneCallConnection;
  readonly #pglite: PGlite;
  /** Whether a statement or transaction holds the connection. */
  #held = false;
  /** Those waiting for it, first come first served: a release hands it to the first. */
  readonly #waiting: Array<() => void> = [];

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
    this.#connection = new OneCallConnection(pglite);
  }

  async init() {
    await this.#pglite.waitReady;
  }

  /** The one connection, to one holder at a time (a statement, or a transaction from begin to its end). */
  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#held) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#held = true;
    return this.#connection;
  }

  async releaseConnection() {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    await (connection as OneCallConnection).begin(settings);
  }

  async commitTransaction(connection: DatabaseConnection) {
    await (connection as OneCallConnection).end('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await (connection as OneCallConnection).end('rollback');
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: SavepointCompiler) {
    await connection.executeQuery(compile(savepointNode('savepoint', name), createQueryId()));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: SavepointCompiler) {
    await connection.executeQuery(compile(savepointNode('rollback to', name), createQueryId()));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: SavepointCompiler) {
    await connection.executeQuery(compile(savepointNode('release', name), createQueryId()));
  }

  async destroy() {
    if (!this.#pglite.closed) await this.#pglite.close();
  }
}

type SavepointCompiler = Parameters<NonNullable<Driver['savepoint']>>[2];

/** `savepoint x` and its kin, as Kysely's own drivers build them (the name goes through as an identifier). */
function savepointNode(command: string, name: string) {
  return RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);
}

/**
 * Whether PGlite's `syncToFs` has work to do on this database's filesystem. On Node the files are on disk through
 * Emscripten's NODEFS, which writes each file through as Postgres writes it, or in memory (MEMFS): both keep the
 * base filesystem's empty `syncToFs`. Called anyway after every statement, it took PGlite's filesystem lock each
 * time (a closure and a chain of promises: ~9 % of what the server promoted to its old generation at 500 msg/s).
 */
function filesNeedSync(pglite: PGlite): boolean {
  return pglite.fs?.syncToFs !== MemoryFS.prototype.syncToFs;
}

class OneCallConnection implements DatabaseConnection {
  readonly #pglite: PGlite;
  /** Statements by text, least recently used first. */
  readonly #known = new Map<string, Known>();
  #knownCharacters = 0;
  /** Prepared statements let go of, closed at the head of the next call. */
  #closing: Uint8Array[] = [];
  #lastName = 0;
  /** Reads each call's answer (see pglite-wire.ts); calls never overlap, under PGlite's query lock. */
  readonly #reader = new WireReader();
  /** Resolves when the open transaction ends, releasing PGlite's transaction lock; null outside one. */
  #endTransaction: (() => void) | null = null;
  #transactionLock: Promise<void> | null = null;
  /** Known once the database is open (its filesystem is made then); see `filesNeedSync`. */
  #syncsFiles: boolean | undefined;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  /** Whether to call PGlite's `syncToFs` after a statement outside a transaction (see `filesNeedSync`). */
  #filesNeedSync(): boolean {
    this.#syncsFiles ??= filesNeedSync(this.#pglite);
    return this.#syncsFiles;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const run = () => this.#pglite._runExclusiveQuery(() => this.#run<R>(compiled));
    return this.#endTransaction ? run() : this.#pglite._runExclusiveTransaction(run);
  }

  // biome-ignore lint/correctness/useYield: PGlite answers a statement whole; Kysely's contract asks for the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by PGlite.');
  }

  async begin(settings: TransactionSettings) {
    let held = () => {};
    const acquired = new Promise<void>((resolve) => {
      held = resolve;
    });
    const ended = new Promise<void>((resolve) => {
      this.#endTransaction = resolve;
    });
    this.#transactionLock = this.#pglite._runExclusiveTransaction(async () => {
      held();
      await ended;
    });
    await acquired;
    try {
      await this.#exec(beginStatement(settings));
    } catch (err) {
      await this.#release();
      throw err;
    }
  }

  async end(how: 'commit' | 'rollback') {
    if (!this.#endTransaction) return; // a COMMIT that failed ended it already
    try {
      const result = await this.#exec(how);
      if (how === 'commit' && result.command === 'ROLLBACK') throw abortedCommit();
    } finally {
      await this.#release();
    }
  }

  async #release() {
    const lock = this.#transactionLock;
    this.#endTransaction?.();
    this.#endTransaction = null;
    this.#transactionLock = null;
    await lock;
    if (this.#filesNeedSync()) await this.#pglite.syncToFs();
  }

  #exec(text: string) {
    return this.#pglite._runExclusiveQuery(() => this.#call([wire.query(text)]));
  }

  async #run<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    if (schemaChange.test(sql)) this.#forgetAll();
    let known = this.#known.get(sql);
    if (known) {
      this.#known.delete(sql);
      this.#known.set(sql, known);
    } else if (parameters.length > 0 || preparable.test(sql)) known = await this.#prepare(sql);
    const types = known?.types ?? [];
    const serializers = this.#pglite.serializers;
    const values = parameters.map((value, i) => {
      if (value == null) return null;
      const serialize = serializers[types[i] as number];
      return serialize ? serialize(value) : String(value);
    });
    const parts = known?.name
      ? [bindAndRun(known.name, values)]
      : [wire.parse({ text: sql }), bindAndRun('', values)];
    let reply: WireReply<R>;
    try {
      reply = await this.#call<R>(parts);
    } catch (err) {
      // A change this connection did not see coming (DDL inside a function or a DO block) altered a prepared
      // statement's columns: Postgres refuses the stale statement, which is let go of and, outside a
      // transaction (which the refusal aborted), prepared again.
      if (!known?.name || (err as { code?: string }).code !== STALE_PREPARED) throw err;
      this.#forget(sql, known.name);
      if (this.#endTransaction) throw err;
      return this.#run({ sql, parameters } as CompiledQuery);
    }
    if (!this.#endTransaction && this.#filesNeedSync()) await this.#pglite.syncToFs();
    return { rows: reply.rows, numAffectedRows: BigInt(reply.affectedRows) };
  }

  /**
   * One call into the backend, headed by the closing of statements let go of since the last; its answer as read
   * by `WireReader` (rows through PGlite's type parsers; the first error thrown as PGlite's `DatabaseError`).
   */
  async #call<R>(parts: Uint8Array[]): Promise<WireReply<R>> {
    const closing = this.#closing;
    this.#closing = [];
    this.#reader.clear();
    const message =
      closing.length === 0 && parts.length === 1 ? (parts[0] as Uint8Array) : concat([...closing, ...parts]);
    await this.#pglite.execProtocolRawStream(message, {
      syncToFs: false,
      onRawData: this.#reader.collect,
    });
    return this.#reader.read<R>(this.#pglite.parsers);
  }

  /**
   * Parses a new statement text and learns its parameters' types (one call). A query or data change is kept
   * prepared under a name of its own, so the next time it skips Postgres' parse, analysis and, once a generic
   * plan is chosen, planning: on Liftoff those were over half of a small statement's time. A failed Parse
   * throws here and leaves nothing behind.
   */
  async #prepare(sql: string): Promise<Known> {
    this.#lastName += 1;
    const name = preparable.test(sql) && !arbiterWithParameter.test(sql) ? `kadr_${this.#lastName}` : '';
    const reply = await this.#call([
      wire.parse({ text: sql, name }),
      wire.describe({ type: 'S', name }),
      sync,
    ]);
    const known = { types: reply.parameterTypes, name };
    this.#known.set(sql, known);
    this.#knownCharacters += sql.length;
    for (const [oldest, { name: oldName }] of this.#known) {
      if (
        this.#known.size <= statementMemory.statements &&
        this.#knownCharacters <= statementMemory.characters
      )
        break;
      this.#forget(oldest, oldName);
    }
    return known;
  }

  #forget(sql: string, name: string) {
    this.#known.delete(sql);
    this.#knownCharacters -= sql.length;
    if (name) this.#closing.push(wire.close({ type: 'S', name }));
  }

  /** A schema change may alter a prepared statement's columns or parameters' types: all are let go of. */
  #forgetAll() {
    for (const [sql, { name }] of this.#known) this.#forget(sql, name);
  }
}

function beginStatement({ isolationLevel, accessMode }: TransactionSettings): string {
  if (!isolationLevel && !accessMode) return 'begin';
  return [
    'start transaction',
    isolationLevel && `isolation level ${isolationLevel}`,
    accessMode && accessMode,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * COMMIT found the transaction aborted and rolled it back: Kysely's error for that, which tells it the
 * connection is free, with the code PGlite's own `transaction` throws (in_failed_sql_transaction).
 */
function abortedCommit() {
  return Object.assign(new AbortedTransactionError(), { code: '25P02' });
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
