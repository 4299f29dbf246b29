import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * Atrium as a real child process (`node dist/src/main.js`, built by `npm run test:faults`),
 * so a crash is a crash: the fault suite can see it exit, send it signals and read its logs.
 */

const ROOT = join(__dirname, '..', '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');

export interface ServiceProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Parsed JSON log lines so far (stdout and stderr). */
  readonly logs: Record<string, unknown>[];
  /** Resolves when the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** SIGTERM and wait for the exit (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startService(env: Record<string, string>, startTimeoutMs = 60_000): Promise<ServiceProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run the fault suite with npm run test:faults (it builds first)`);
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      EMBEDDING_PROVIDER: 'hash',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    }),
  );
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Atrium did not start within ${startTimeoutMs} ms:\n${tail(logs)}`)), startTimeoutMs);
    const onLine = (line: string): void => {
      if (!line.trim()) return;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        entry = { raw: line };
      }
      logs.push(entry);
      if (entry.msg === 'Atrium listening') {
        clearTimeout(timer);
        resolve();
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        lines.forEach(onLine);
      });
    }
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`Atrium exited during startup (code ${code}, signal ${signal}):\n${tail(logs)}`));
    });
  });
  await listening;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    logs,
    exited,
    alive: () => exitInfo === undefined,
    async stop(timeoutMs = 20_000) {
      if (exitInfo) return exitInfo;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

export function tail(logs: Record<string, unknown>[], n = 20): string {
  return logs
    .slice(-n)
    .map((l) => JSON.stringify(l))
    .join('\n');
}

/**
 * Log lines that mean something went wrong inside: a process fault, an unexpected 500, a
 * failed shutdown, anything not JSON. A 503 request line is the expected answer to a fault.
 */
export const errorLines = (logs: Record<string, unknown>[]): Record<string, unknown>[] =>
  logs.filter((l) => (l.level === 'error' && !(l.msg === 'request' && l.status === 503)) || 'raw' in l);
