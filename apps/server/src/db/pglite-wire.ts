import { messages, protocol } from '@electric-sql/pglite';

/** A parser of one column's text, as PGlite keeps them by type OID (`pglite.parsers`). */
type TypeParser = (text: string, typeId: number) => unknown;

/** What one call's answer held: the first statement's rows and command, or the parameters' types it asked for. */
export interface WireReply<R> {
  rows: R[];
  /** The first command's tag word (`INSERT`, `COMMIT`, `ROLLBACK`), as PGlite's `parseResults` gives it. */
  command: string | undefined;
  /** Rows the first command inserted, updated, deleted, copied or merged; 0 for any other command. */
  affectedRows: number;
  /** A Describe of a statement: its parameters' type OIDs. */
  parameterTypes: number[];
}

/** What follows every Bind: Describe the portal (its columns), Execute it, Sync (end of the call). */
const runTail = Buffer.concat([
  protocol.serialize.describe({ type: 'P' }),
  protocol.serialize.execute({}),
  protocol.serialize.sync(),
]);

/**
 * A Bind of the statement's parameters (text, or null), then Describe, Execute and Sync: one call's message for a
 * prepared statement, written in one buffer. PGlite's serializer (`pg-protocol`) builds each message in a growing
 * writer and the driver joined them, ~2 % of the server's thread at 500 msg/s.
 */
export function bindAndRun(statement: string, values: Array<string | null>): Uint8Array {
  const sizes = values.map((value) => (value === null ? -1 : Buffer.byteLength(value)));
  // length, portal "" and the statement's name, no format codes (all text), the values, no result format codes
  let length = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 + 2;
  for (const size of sizes) length += 4 + Math.max(size, 0);
  const out = Buffer.allocUnsafe(1 + length + runTail.byteLength);
  out[0] = 0x42;
  out.writeInt32BE(length, 1);
  out[5] = 0;
  let at = 6 + out.write(statement, 6);
  out[at] = 0;
  at = out.writeInt16BE(0, at + 1);
  at = out.writeInt16BE(values.length, at);
  for (const [i, size] of sizes.entries()) {
    at = out.writeInt32BE(size, at);
    if (size > 0) at += out.write(values[i] as string, at);
  }
  at = out.writeInt16BE(0, at);
  runTail.copy(out, at);
  return out;
}

/** The answer buffer is kept between calls up to this size; a larger one is let go of after its call. */
const KEPT_BYTES = 256 * 1024;

/** ErrorResponse fields by their one-byte codes, named as `pg-protocol` names them on `DatabaseError`. */
const errorFields: Record<string, string> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/** Command tags that end in the number of rows they changed (`INSERT 0 5`, `UPDATE 3`). */
const changing = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * The backend's answer to one call, read here instead of by PGlite (`execProtocolRawStream`). PGlite's own reading
 * (`execProtocolStream`, then `parseResults`) copies every string it decodes into a new ArrayBuffer, builds a
 * message object per protocol message and a field list per row, then builds the rows from those: at 500 msg/s
 * that was ~10 % of the server's thread beside the statements themselves. Here the chunks the backend writes are
 * copied into one buffer kept between calls, and the rows are built from it directly with PGlite's type parsers,
 * so values come out as PGlite's own query gives them. An ErrorResponse becomes PGlite's `DatabaseError` with
 * every field its parser sets (`code`, `constraint`, `detail` …). Notices and notifications are skipped (Kysely
 * has no LISTEN; PGlite only logs notices when debugging); COPY's data messages are not expected (Kysely cannot
 * pass a Blob).
 */
export class WireReader {
  #bytes: Buffer = Buffer.allocUnsafeSlow(KEPT_BYTES);
  #view: DataView = new DataView(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.byteLength);
  #length = 0;

  /** PGlite's `onRawData`: a chunk is a view of the backend's memory, valid only during the call, so it is copied. */
  readonly collect = (chunk: Uint8Array) => {
    const needed = this.#length + chunk.byteLength;
    if (needed > this.#bytes.byteLength) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.#bytes.byteLength * 2));
      this.#bytes.copy(grown, 0, 0, this.#length);
      this.#use(grown);
    }
    this.#bytes.set(chunk, this.#length);
    this.#length = needed;
  };

  #use(bytes: Buffer) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Forgets what a call that failed before its answer was read left collected. */
  clear() {
    this.#length = 0;
  }

  /** Reads what was collected since the last read (and forgets it); throws the first error the backend sent. */
  read<R>(parsers: Record<number, TypeParser | undefined>): WireReply<R> {
    const bytes = this.#bytes;
    const view = this.#view;
    const end = this.#length;
    this.#length = 0;
    if (bytes.byteLength > KEPT_BYTES) this.#use(Buffer.allocUnsafeSlow(KEPT_BYTES));

    const reply: WireReply<R> = { rows: [], command: undefined, affectedRows: 0, parameterTypes: [] };
    let names: string[] = [];
    let types: number[] = [];
    let done = false;
    let error: Error | undefined;
    let at = 0;
    while (at < end) {
      const code = bytes[at] as number;
      const length = at + 5 <= end ? view.getInt32(at + 1) : -1;
      const start = at + 5;
      const next = at + 1 + length;
      // The backend writes whole messages: a torn one means the answer is not what was asked, never a short result.
      if (length < 4 || next > end) throw new Error('PGlite answered with a torn protocol message');
      if (error || done) {
        // After the first command only an error counts (PGlite's reading keeps the first result set too).
        if (code === 0x45 && !error) error = databaseError(bytes, start, next, length);
      } else if (code === 0x44) {
        // DataRow
        const count = view.getInt16(start);
        const row: Record<string, unknown> = {};
        let p = start + 2;
        for (let i = 0; i < count; i++) {
          const size = view.getInt32(p);
          p += 4;
          let value: unknown = null;
          if (size >= 0) {
            const text = bytes.toString('utf8', p, p + size);
            const type = types[i] as number;
            const parser = parsers[type];
            value = parser ? parser(text, type) : text;
            p += size;
          }
          const name = names[i] as string;
          // A column named __proto__ is a property of the row, as Object.fromEntries makes it, not its prototype.
          if (name === '__proto__')
            Object.defineProperty(row, name, { value, enumerable: true, writable: true });
          else row[name] = value;
        }
        reply.rows.push(row as R);
      } else if (code === 0x54) {
        // RowDescription: name, table OID, column number, type OID, type size, type modifier, format
        const count = view.getInt16(start);
        names = new Array<string>(count);
        types = new Array<number>(count);
        let p = start + 2;
        for (let i = 0; i < count; i++) {
          const zero = bytes.indexOf(0, p);
          names[i] = bytes.toString('utf8', p, zero);
          types[i] = view.getInt32(zero + 7);
          p = zero + 19;
        }
      } else if (code === 0x43) {
        // CommandComplete
        const tag = bytes.toString('latin1', start, next - 1);
        const space = tag.indexOf(' ');
        const command = space < 0 ? tag : tag.slice(0, space);
        reply.command = command;
        if (changing.has(command))
          reply.affectedRows = Number.parseInt(tag.slice(tag.lastIndexOf(' ') + 1), 10);
        done = true;
      } else if (code === 0x74) {
        // ParameterDescription
        const count = view.getInt16(start);
        for (let i = 0; i < count; i++) reply.parameterTypes.push(view.getInt32(start + 2 + 4 * i));
      } else if (code === 0x45) {
        error = databaseError(bytes, start, next, length);
      }
      at = next;
    }
    if (error) throw error;
    return reply;
  }
}

/** An ErrorResponse as PGlite's parser makes it: its `DatabaseError`, the message and each field it names. */
function databaseError(bytes: Buffer, start: number, next: number, length: number): Error {
  const fields: Record<string, string> = {};
  let p = start;
  while (p < next && bytes[p] !== 0) {
    const key = String.fromCharCode(bytes[p] as number);
    const zero = bytes.indexOf(0, p + 1);
    fields[key] = bytes.toString('utf8', p + 1, zero);
    p = zero + 1;
  }
  const error = new messages.DatabaseError(fields.M as string, length, 'error') as unknown as Record<
    string,
    unknown
  >;
  for (const [key, name] of Object.entries(errorFields)) error[name] = fields[key];
  return error as unknown as Error;
}
