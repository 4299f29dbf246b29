/**
 * Atrium as a child process (`node dist/src/main.js`) on a free loopback port: the service
 * under load has its own event loop and its own RSS, and autocannon (in this process) does
 * not steal its CPU time slices on the same thread.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { nodeFlags } from '../src/env/node-flags';

export interface RunningServer {
  url: string;
  pid: number;
  /** The node flags the service was started with (as `npm start` does). */
  nodeFlags: string[];
  /** Resident set size now and its peak since start (VmHWM), in MB. */
  memory(): { rssMb: number; peakMb: number };
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

function statusKb(pid: number, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : NaN;
  } catch {
    return NaN;
  }
}

/**
 * `main`: the service's entry point (default: this build's dist/src/main.js; bench/ab.ts
 * compares two builds). Started the way `npm start` starts it, with the node flags of
 * src/env/node-flags.ts for `env`'s database (the scratch working directory has no `.env`);
 * `ATRIUM_MAX_OLD_SPACE_MB` in `env` changes the bound (e.g. 4096 for V8's default here).
 * `extraFlags`: more node flags, e.g. `--cpu-prof` (which NODE_OPTIONS does not accept).
 */
export async function startServer(
  env: Record<string, string>,
  main = resolve(__dirname, '..', 'src', 'main.js'),
  extraFlags: readonly string[] = [],
): Promise<RunningServer> {
  const port = await freePort();
  // A scratch working directory: main.ts reads ./.env, which must not leak into the benchmark.
  const cwd = await mkdtemp(join(tmpdir(), 'atrium-bench-cwd-'));
  const childEnv: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[name]) childEnv[name] = process.env[name] as string;
  Object.assign(childEnv, { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', EMBEDDING_PROVIDER: 'hash' }, env);
  const flags = [...nodeFlags(childEnv, null), ...extraFlags];
  const child: ChildProcess = spawn(process.execPath, [...flags, main], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Atrium exited with ${child.exitCode} during startup:\n${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Atrium did not answer /health within 180 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid as number;
  return {
    url,
    pid,
    nodeFlags: flags,
    memory: () => ({ rssMb: statusKb(pid, 'VmRSS') / 1024, peakMb: statusKb(pid, 'VmHWM') / 1024 }),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(cwd, { recursive: true, force: true });
    },
  };
}
