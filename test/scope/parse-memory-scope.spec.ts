import { DomainError } from '../../src/common/errors/domain-error';
import { parseMemoryScope, SCOPE_MESSAGES } from '../../src/common/scope/parse-memory-scope';

const W = '11111111-1111-4111-8111-111111111111';
const A = '22222222-2222-4222-8222-222222222222';
const B = '33333333-3333-4333-8333-333333333333';

/** Every row of CONTRACT section 2. */
const valid: [string, Record<string, unknown>, unknown][] = [
  ['no workspace_id gives user scope', { user_id: 'u1' }, { kind: 'user', userId: 'u1' }],
  ['agent_id without workspace_id is ignored', { user_id: 'u1', agent_id: A }, { kind: 'user', userId: 'u1' }],
  ['empty workspace_id counts as absent', { user_id: 'u1', workspace_id: '' }, { kind: 'user', userId: 'u1' }],
  [
    'workspace + agent gives workspace scope with agent_scope all',
    { user_id: 'u1', workspace_id: W, agent_id: A },
    { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'all' } },
  ],
  [
    'UUIDs are case-insensitive and lower-cased',
    { user_id: 'u1', workspace_id: W.toUpperCase(), agent_id: A.toUpperCase() },
    { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'all' } },
  ],
  ...(['all', 'self', 'others'] as const).map((kind): [string, Record<string, unknown>, unknown] => [
    `agent_scope ${kind}`,
    { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: kind },
    { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind } },
  ]),
  [
    'agent_scope one UUID',
    { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: B },
    { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'agents', agentIds: [B] } },
  ],
  [
    'agent_scope array of UUIDs (body or repeated query parameter)',
    { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: [A, B] },
    { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'agents', agentIds: [A, B] } },
  ],
  [
    'agent_scope comma-separated UUIDs (query string)',
    { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: `${A}, ${B.toUpperCase()}` },
    { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'agents', agentIds: [A, B] } },
  ],
  [
    'duplicate ids in agent_scope are collapsed',
    { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: [B, B] },
    { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'agents', agentIds: [B] } },
  ],
];

const invalid: [string, Record<string, unknown>, string][] = [
  ['user_id missing', {}, SCOPE_MESSAGES.userId],
  ['user_id empty', { user_id: '' }, SCOPE_MESSAGES.userId],
  ['user_id not a string', { user_id: 42 }, SCOPE_MESSAGES.userId],
  ['user_id an array (repeated query parameter)', { user_id: ['a', 'b'] }, SCOPE_MESSAGES.userId],
  ['user_id over 256 characters', { user_id: 'x'.repeat(257) }, SCOPE_MESSAGES.userIdTooLong],
  ['workspace_id not a UUID', { user_id: 'u1', workspace_id: 'w1', agent_id: A }, SCOPE_MESSAGES.workspaceId],
  ['workspace_id not a string', { user_id: 'u1', workspace_id: 7, agent_id: A }, SCOPE_MESSAGES.workspaceId],
  ['workspace_id without agent_id', { user_id: 'u1', workspace_id: W }, SCOPE_MESSAGES.agentRequired],
  ['workspace_id with empty agent_id', { user_id: 'u1', workspace_id: W, agent_id: '' }, SCOPE_MESSAGES.agentRequired],
  ['agent_id not a UUID', { user_id: 'u1', workspace_id: W, agent_id: 'agent-x' }, SCOPE_MESSAGES.agentId],
  ['agent_scope unknown word', { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: 'everyone' }, SCOPE_MESSAGES.agentScope],
  ['agent_scope empty array', { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: [] }, SCOPE_MESSAGES.agentScope],
  ['agent_scope array with a non-UUID', { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: [A, 'x'] }, SCOPE_MESSAGES.agentScope],
  [
    'agent_scope mixing a keyword into a list',
    { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: ['self', A] },
    SCOPE_MESSAGES.agentScope,
  ],
  ['agent_scope an object', { user_id: 'u1', workspace_id: W, agent_id: A, agent_scope: { id: A } }, SCOPE_MESSAGES.agentScope],
  [
    'agent_scope over 100 ids',
    {
      user_id: 'u1',
      workspace_id: W,
      agent_id: A,
      agent_scope: Array.from({ length: 101 }, (_, i) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`),
    },
    SCOPE_MESSAGES.agentScopeTooMany,
  ],
  ['agent_scope without workspace_id', { user_id: 'u1', agent_scope: 'self' }, SCOPE_MESSAGES.agentScopeNeedsWorkspace],
];

describe('parseMemoryScope', () => {
  it.each(valid)('%s', (_name, raw, expected) => {
    expect(parseMemoryScope(raw)).toEqual(expected);
  });

  it.each(invalid)('rejects %s', (_name, raw, message) => {
    let thrown: unknown;
    try {
      parseMemoryScope(raw);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).code).toBe('VALIDATION_FAILED');
    expect((thrown as DomainError).message).toBe(message);
  });

  it('checks user_id before the workspace fields', () => {
    expect(() => parseMemoryScope({ workspace_id: W })).toThrow(SCOPE_MESSAGES.userId);
  });

  it('checks workspace_id before agent_id', () => {
    expect(() => parseMemoryScope({ user_id: 'u', workspace_id: 'nope' })).toThrow(SCOPE_MESSAGES.workspaceId);
  });
});
