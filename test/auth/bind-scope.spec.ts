import { DomainError } from '../../src/common/errors/domain-error';
import type { Principal } from '../../src/common/identity/principal';
import { agentIdForPrincipal, bindScopeToPrincipal, userIdForPrincipal } from '../../src/common/scope/bind-scope';

const W = '6f1c0a56-6a3e-4c43-9a55-0d1f0c8f1a11';
const A = '0b6c1f5e-2c1d-4f7e-8f0e-5b7f2f9d3c21';
const B = '9d2e7b40-1c3a-4d5e-8f60-7a8b9c0d1e2f';
const agent: Principal = { kind: 'agent', keyId: 'k1', userId: 'alice', workspaceId: W, agentId: A };
const user: Principal = { kind: 'user', keyId: 'k2', userId: 'alice' };
const service: Principal = { kind: 'service', keyId: 'k3' };

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a DomainError';
  }
};

describe('binding scope parameters to an API key', () => {
  it.each([
    ['an agent key with no parameters gets its own workspace scope', agent, {}, { user_id: 'alice', workspace_id: W, agent_id: A }],
    [
      'an agent key keeps agent_scope and matching ids (UUIDs in any case)',
      agent,
      { workspace_id: W.toUpperCase(), agent_scope: 'others' },
      { user_id: 'alice', workspace_id: W, agent_id: A, agent_scope: 'others' },
    ],
    ['a user key with no parameters gets its user scope', user, {}, { user_id: 'alice' }],
    [
      'a service key passes the parameters as they are',
      service,
      { user_id: 'bob', workspace_id: W, agent_id: B },
      { user_id: 'bob', workspace_id: W, agent_id: B },
    ],
    ['no key (AUTH_MODE=off) passes the parameters as they are', { kind: 'open' } as Principal, { user_id: 'bob' }, { user_id: 'bob' }],
  ])('%s', (_name, principal, raw, expected) => {
    expect(bindScopeToPrincipal(raw, principal)).toEqual(expected);
  });

  it.each([
    ['another agent id', agent, { agent_id: B }],
    ['another workspace', agent, { workspace_id: B }],
    ['another user', agent, { user_id: 'bob' }],
    ['a non-string id', agent, { agent_id: 7 }],
    ['a workspace with a user key', user, { workspace_id: W, agent_id: A }],
    ['another user with a user key', user, { user_id: 'bob' }],
  ])('refuses %s with 403 SCOPE_MISMATCH', (_name, principal, raw) => {
    expect(codeOf(() => bindScopeToPrincipal(raw, principal))).toBe('SCOPE_MISMATCH');
  });

  it('lets an agent key read and report for its user but never manage (retire lessons, set trust)', () => {
    expect(userIdForPrincipal(agent, undefined, 'read')).toBe('alice');
    expect(userIdForPrincipal(agent, 'alice', 'report')).toBe('alice');
    expect(codeOf(() => userIdForPrincipal(agent, 'alice', 'manage'))).toBe('SCOPE_MISMATCH');
    expect(codeOf(() => userIdForPrincipal(agent, 'bob', 'read'))).toBe('SCOPE_MISMATCH');
    expect(userIdForPrincipal(user, undefined, 'manage')).toBe('alice');
    expect(codeOf(() => userIdForPrincipal(user, 'bob', 'manage'))).toBe('SCOPE_MISMATCH');
  });

  it('requires user_id without a key, and an agent key reads only its own trust level', () => {
    expect(codeOf(() => userIdForPrincipal({ kind: 'open' }, undefined, 'read'))).toBe('VALIDATION_FAILED');
    expect(userIdForPrincipal(service, 'bob', 'manage')).toBe('bob');
    expect(agentIdForPrincipal(agent, A)).toBe(A);
    expect(codeOf(() => agentIdForPrincipal(agent, B))).toBe('SCOPE_MISMATCH');
    expect(agentIdForPrincipal(user, B)).toBe(B);
  });
});
