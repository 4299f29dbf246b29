/**
 * Shared by `npm run import` and `npm run export` (docs/data.md, "From the command line"): the
 * options, the client, and a progress bar that is drawn only on a terminal (cli-progress).
 */
import { parseArgs } from 'node:util';

import { SingleBar } from 'cli-progress';

import { AtriumClient, type ScopeInput } from '../src/client';

export interface CommonOptions {
  url: string;
  userId?: string;
  workspaceId?: string;
  agentId?: string;
  admin: boolean;
}

export const COMMON_FLAGS = {
  url: { type: 'string' },
  'user-id': { type: 'string' },
  'workspace-id': { type: 'string' },
  'agent-id': { type: 'string' },
  admin: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

export const COMMON_USAGE = `  --url URL            the service (default: $ATRIUM_URL, else http://localhost:3050)
  --user-id ID         scope: the user (with an API key bound to a scope, optional)
  --workspace-id ID    scope: the workspace
  --agent-id ID        scope: the agent (workspace scope)
  --admin              send $ATRIUM_ADMIN_TOKEN instead of $ATRIUM_API_KEY (a whole user or workspace)`;

export function parse(flags: NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>, usage: string) {
  const parsed = parseArgs({ options: flags, allowPositionals: true, strict: true });
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const common: CommonOptions = {
    url: (values.url as string | undefined) ?? process.env.ATRIUM_URL ?? 'http://localhost:3050',
    userId: values['user-id'] as string | undefined,
    workspaceId: values['workspace-id'] as string | undefined,
    agentId: values['agent-id'] as string | undefined,
    admin: values.admin === true,
  };
  return { values, positionals: parsed.positionals, common };
}

/** The scope flags given, as the client takes them (none: the API key's own scope). */
export function scopeOf(common: CommonOptions): ScopeInput {
  const scope: Record<string, string> = {};
  if (common.userId !== undefined) scope.userId = common.userId;
  if (common.workspaceId !== undefined) scope.workspaceId = common.workspaceId;
  if (common.agentId !== undefined) scope.agentId = common.agentId;
  return scope as unknown as ScopeInput;
}

export function clientFor(common: CommonOptions): AtriumClient {
  return new AtriumClient({
    baseUrl: common.url,
    apiKey: process.env.ATRIUM_API_KEY,
    adminToken: common.admin ? process.env.ATRIUM_ADMIN_TOKEN : undefined,
    timeoutMs: 600_000,
  });
}

/** A progress bar on stderr when it is a terminal; otherwise nothing is drawn. */
export function progress(format: string, total: number): { update(value: number, total?: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({ format, stream: process.stderr, hideCursor: true, clearOnComplete: false });
  bar.start(total, 0);
  return {
    update(value, newTotal) {
      if (newTotal !== undefined) bar.setTotal(newTotal);
      bar.update(value);
    },
    stop: () => bar.stop(),
  };
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
