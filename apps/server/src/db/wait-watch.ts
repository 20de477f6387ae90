import type { DatabaseConnection, Dialect, Driver } from 'kysely';

/**
 * How long the oldest call still waiting on the database has waited: the measure of a backed-up database
 * that backpressure reads (a send is refused with 429 past it instead of joining seconds of queue).
 * Calls are kept in the order they started, so the oldest is the first still there.
 */
export function waitWatch(now: () => number = () => performance.now()) {
  const started = new Map<number, number>();
  let next = 0;
  return {
    /** Counts from now until `work` settles. */
    track<T>(work: () => Promise<T>): Promise<T> {
      const id = next++;
      started.set(id, now());
      let promise: Promise<T>;
      try {
        promise = work();
      } catch (err) {
        started.delete(id);
        throw err;
      }
      return promise.finally(() => started.delete(id));
    },
    /** Age of the oldest call not yet settled, ms; 0 when none is. */
    waitingMs(): number {
      for (const at of started.values()) return now() - at;
      return 0;
    },
  };
}

export type WaitWatch = ReturnType<typeof waitWatch>;

/** One holder at a time, in the order asked; `lock` answers the holder's release. */
function mutex() {
  let tail = Promise.resolve();
  return {
    async lock(): Promise<() => void> {
      let release = () => {};
      const before = tail;
      tail = new Promise<void>((resolve) => {
        release = resolve;
      });
      await before;
      return release;
    },
  };
}

/**
 * The dialect with its connections' hand-out watched: a statement's wait for a connection is the queue it
 * met. PostgreSQL's pool hands out many (a slow statement on one delays no one); PGlite has one, for which
 * Kysely itself would queue callers out of sight, so the queue is kept here instead, where it is seen (the
 * adapter then tells Kysely not to keep its own). A transaction holds the connection to its end.
 */
export function watchedDialect(dialect: Dialect, watch: WaitWatch): Dialect {
  const adapter = dialect.createAdapter();
  const single = !adapter.supportsMultipleConnections;
  return {
    createAdapter: () =>
      single ? Object.create(adapter, { supportsMultipleConnections: { value: true } }) : adapter,
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      const turn = single ? mutex() : null;
      let release: (() => void) | null = null;
      return {
        init: (options) => driver.init(options),
        async acquireConnection(options): Promise<DatabaseConnection> {
          return watch.track(async () => {
            const unlock = turn ? await turn.lock() : null;
            try {
              const connection = await driver.acquireConnection(options);
              release = unlock;
              return connection;
            } catch (err) {
              unlock?.();
              throw err;
            }
          });
        },
        async releaseConnection(connection, options) {
          try {
            await driver.releaseConnection(connection, options);
          } finally {
            release?.();
            release = null;
          }
        },
        beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
        ...(driver.savepoint && {
          savepoint: (connection, name, compile) =>
            driver.savepoint?.(connection, name, compile) as Promise<void>,
        }),
        ...(driver.rollbackToSavepoint && {
          rollbackToSavepoint: (connection, name, compile) =>
            driver.rollbackToSavepoint?.(connection, name, compile) as Promise<void>,
        }),
        ...(driver.releaseSavepoint && {
          releaseSavepoint: (connection, name, compile) =>
            driver.releaseSavepoint?.(connection, name, compile) as Promise<void>,
        }),
        destroy: (options) => driver.destroy(options),
      };
    },
  };
}
