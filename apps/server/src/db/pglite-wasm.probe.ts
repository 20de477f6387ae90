// Run by pglite-wasm.test.ts in a Node of its own, with the server's V8 flags and V8's compile trace: opens PGlite
// as the server does, writes and reads for a moment (argv: ms of statements, ms to wait for the background compiles),
// and says whether the module was the hinted one.
import { PGlite } from '@electric-sql/pglite';
import { pgliteWasmOptions } from './pglite-wasm.ts';

const wasm = await pgliteWasmOptions();
const db = new PGlite({ ...wasm });
await db.waitReady;
await db.exec(`
  create table chats (id serial primary key, total int not null default 0);
  create table messages (id serial primary key, chat int not null references chats (id), body text not null);
  create index on messages (chat, id);
  insert into chats (total) select 0 from generate_series(1, 50);`);
const [loopMs = 1500, waitMs = 1500] = process.argv.slice(2).map(Number);
const until = performance.now() + loopMs;
for (let i = 0; performance.now() < until; i++) {
  const chat = (i % 50) + 1;
  await db.query('insert into messages (chat, body) values ($1, $2), ($1, $3)', [
    chat,
    `привет ${i}`,
    `ещё ${i}`,
  ]);
  await db.query('update chats set total = total + 2 where id = $1', [chat]);
  await db.query('select id, body from messages where chat = $1 order by id desc limit 5', [chat]);
}
// The optimizing compiles run in the background: give them a moment to finish and be traced.
await new Promise((resolve) => setTimeout(resolve, waitMs));
await db.close();
console.log(`probe: ${wasm.pgliteWasmModule ? 'hinted' : 'plain'}`);
