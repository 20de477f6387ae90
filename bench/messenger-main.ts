// The messenger bench in a process of its own: `npm run bench -- messenger` starts it with the load generator's
// heap flags (bench/run.ts, LOAD_GENERATOR_FLAGS) and shows what it prints.
import { messengerBench } from './messenger.bench.ts';

const engines = (process.env.MESSENGER_BENCH_ENGINES ?? 'pglite,postgres')
  .split(',')
  .filter((e): e is 'pglite' | 'postgres' => e === 'pglite' || e === 'postgres');
for (const line of await messengerBench(engines)) console.log(line);
