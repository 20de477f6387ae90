import { spawn } from 'node:child_process';
import { lowerProcessPriority, MEDIA_NICE, mediaScheduling } from '../../../lib/thread-priority.ts';

/**
 * The media binaries' launcher: a small process of its own (forked once by the server, ffmpeg.ts) that starts
 * every ffmpeg/ffprobe run. Starting a child is a fork(), and a fork copies the parent's page tables: from the
 * server (700 MB+ of RSS under load, most of it PGlite's heap) each one held its event loop 50–85 ms, eight
 * times per video. From this process it costs a millisecond. It also runs at a lower CPU priority, which
 * every binary it starts inherits: `SCHED_IDLE` (or only MEDIA_NICE with `MEDIA_SCHEDULING=nice`,
 * lib/thread-priority.ts), so a transcode runs on the cores the server's event loop leaves free.
 *
 * Requests are `{ op: 'run', id, binary, args, timeoutMs? }` and `{ op: 'abort', id }`; each run answers once,
 * `{ id, stdout, stderr }` or `{ id, error }`. When the server goes (even `kill -9`) the IPC channel closes and
 * every binary is killed with it.
 */
export type SpawnerRequest =
  | { op: 'run'; id: number; binary: string; args: string[]; timeoutMs?: number }
  | { op: 'abort'; id: number };

export type SpawnerReply = { id: number; stdout: Uint8Array; stderr: string } | { id: number; error: string };

/**
 * ffmpeg must not outlive us, even a `kill -9` of this process. Node cannot set PR_SET_PDEATHSIG, so each run
 * goes through a small POSIX sh watchdog: the binary runs in the background with stdin closed, and the
 * watchdog reads our stdin pipe; when this process dies the pipe closes and the watchdog kills the binary.
 * A SIGTERM to the sh (an abort or a timeout) kills both at once. Arguments pass as positional parameters
 * ("$@"), never interpolated into the script.
 *
 * The sh stays in our session (no `detached`, which is setsid): Linux's autogroup scheduling gives every
 * session a group of its own that shares the cores evenly with the server's, whatever the niceness or policy
 * of the tasks inside it. In a session of its own a transcode took a core's share from the event loop as if
 * it ran at the server's priority (ADR 0017).
 */
const WATCHDOG =
  'trap \'kill -KILL $c $w 2>/dev/null; exit 143\' TERM; exec 3<&0; "$0" "$@" </dev/null & c=$!; ' +
  '( while read -r _ <&3; do :; done; kill -KILL "$c" 2>/dev/null ) & w=$!; ' +
  'wait "$c"; s=$?; kill -KILL "$w" 2>/dev/null; exit "$s"';

/** Runs a binary with arguments (never a shell); answers with its stdout, or its stderr tail on a non-zero exit. */
function launch(
  request: Extract<SpawnerRequest, { op: 'run' }>,
  reply: (r: SpawnerReply) => void,
): () => void {
  const { id, binary, args } = request;
  const child = spawn('/bin/sh', ['-c', WATCHDOG, binary, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  /** Why we stopped the binary: its time ran out, or the caller aborted. */
  let killed: 'timeout' | 'abort' | null = null;
  const kill = (why: 'timeout' | 'abort' = 'abort') => {
    if (killed) return;
    killed = why;
    // The trap kills the binary and the reader; closing the pipe makes the reader kill it too, should the sh
    // be gone before it could.
    child.kill('SIGTERM');
    child.stdin.destroy();
  };
  const out: Buffer[] = [];
  let err = '';
  let answered = false;
  const answer = (r: SpawnerReply) => {
    if (answered) return;
    answered = true;
    reply(r);
  };
  child.stdin.on('error', () => undefined);
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    if (err.length > 64_000) err = err.slice(-32_000);
  });
  const timer = request.timeoutMs ? setTimeout(() => kill('timeout'), request.timeoutMs) : null;
  child.on('error', (error) => answer({ id, error: error.message }));
  child.on('close', (code, signal) => {
    if (timer) clearTimeout(timer);
    child.stdin.destroy();
    if (code === 0 && !killed) answer({ id, stdout: Buffer.concat(out), stderr: err });
    else if (killed === 'timeout')
      // Not the decoder's verdict on the input (a busy machine runs it slowly): worded apart from
      // "exited with", so the job is retried rather than failed as unreadable.
      answer({ id, error: `${binary} timed out after ${request.timeoutMs} ms` });
    else
      answer({
        id,
        error: `${binary} exited with ${killed ? 'SIGKILL' : (code ?? signal)}: ${err.slice(-600)}`,
      });
  });
  return () => kill('abort');
}

const lane = process.env.KADR_MEDIA_SPAWNER;
if ((lane === 'media' || lane === 'request') && process.send) {
  const send = process.send.bind(process);
  // The request lane keeps the server's priority: a request is waiting on what it runs (ffmpeg.ts).
  if (lane === 'media') lowerProcessPriority(MEDIA_NICE, mediaScheduling());
  const live = new Map<number, () => void>();
  process.on('message', (request: SpawnerRequest) => {
    if (request.op === 'abort') {
      live.get(request.id)?.();
      return;
    }
    const kill = launch(request, (reply) => {
      live.delete(request.id);
      send(reply);
    });
    live.set(request.id, kill);
  });
  // The server is gone (exit, crash or kill -9): nothing of ours keeps running.
  process.on('disconnect', () => {
    for (const kill of live.values()) kill();
    process.exit(0);
  });
}
