import { DataSource } from 'typeorm';

import type { MemoryScope } from '../../src/common/scope/memory-scope';
import { AccessPurpose, applyMemoryScope, VISIBILITY_MODES } from '../../src/database/access/visibility';
import { MemoryEntity } from '../../src/database/entities/memory.entity';

const W = '11111111-1111-4111-8111-111111111111';
const A = '22222222-2222-4222-8222-222222222222';
const B = '33333333-3333-4333-8333-333333333333';

const scopes: [string, MemoryScope][] = [
  ['user', { kind: 'user', userId: 'u1' }],
  ['workspace, agent_scope all', { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'all' } }],
  ['workspace, agent_scope self', { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'self' } }],
  ['workspace, agent_scope others', { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'others' } }],
  [
    'workspace, agent_scope ids',
    { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'agents', agentIds: [A, B] } },
  ],
];

describe('applyMemoryScope (database/visibility.ts)', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    // No connection: only the entity metadata is needed to build SQL.
    dataSource = new DataSource({ type: 'postgres', entities: [MemoryEntity] });
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  });

  const purposes: AccessPurpose[] = ['read', 'writer-view', 'ingest-mutation', 'owner'];
  const select = (scope: MemoryScope, purpose: AccessPurpose) =>
    applyMemoryScope(
      dataSource.getRepository(MemoryEntity).createQueryBuilder('m').select('m.id'),
      'm',
      scope,
      purpose,
    ).getQueryAndParameters();

  it.each(scopes)('select, %s: SQL and parameters', (_name, scope) => {
    const qb = applyMemoryScope(dataSource.getRepository(MemoryEntity).createQueryBuilder('m').select('m.id'), 'm', scope, 'read');
    const [sql, params] = qb.getQueryAndParameters();
    expect({ sql, params }).toMatchSnapshot();
  });

  it.each(scopes)('update, %s: SQL and parameters', (_name, scope) => {
    const qb = dataSource.createQueryBuilder().update(MemoryEntity).set({ visibility: 'workspace' });
    applyMemoryScope(qb, 'memories', scope, 'read').andWhere('memories.id = :id', { id: B });
    const [sql, params] = qb.getQueryAndParameters();
    expect({ sql, params }).toMatchSnapshot();
  });

  it('binds caller ids as parameters, never as SQL text', () => {
    const scope: MemoryScope = {
      kind: 'workspace',
      userId: "x'; DROP TABLE memories; --",
      workspaceId: W,
      agentId: A,
      agentScope: { kind: 'agents', agentIds: [B] },
    };
    const [sql, params] = applyMemoryScope(
      dataSource.getRepository(MemoryEntity).createQueryBuilder('m'),
      'm',
      scope,
      'read',
    ).getQueryAndParameters();
    for (const value of [scope.userId, W, A, B]) expect(sql).not.toContain(value);
    expect(params).toEqual(expect.arrayContaining([scope.userId, W, A, [B]]));
  });

  it('adds one bracketed condition that an earlier andWhere keeps', () => {
    const qb = dataSource.getRepository(MemoryEntity).createQueryBuilder('m').andWhere('m.id = :id', { id: B });
    applyMemoryScope(qb, 'm', { kind: 'user', userId: 'u1' }, 'read');
    const sql = qb.getQueryAndParameters()[0].replace(/"/g, '');
    expect(sql).toMatch(
      /WHERE m\.id = \$1 AND \(m\.user_id = \$2 AND m\.workspace_id IS NULL AND m\.deleted_at IS NULL AND m\.superseded_at IS NULL AND \(m\.expires_at IS NULL OR m\.expires_at > now\(\)\)\)/,
    );
  });

  it.each(purposes)('user scope reads the same rows for every purpose (%s): no workspace row, live rows only', (purpose) => {
    expect(select({ kind: 'user', userId: 'u1' }, purpose)).toEqual(select({ kind: 'user', userId: 'u1' }, 'read'));
  });

  it.each(purposes.filter((p) => p !== 'read'))(
    'workspace purpose %s ignores agent_scope (writes and ownership are never narrowed)',
    (purpose) => {
      const [, all] = scopes[1];
      for (const [, narrowed] of scopes.slice(2)) {
        const [sqlAll] = select(all, purpose);
        const [sqlNarrowed] = select(narrowed, purpose);
        expect(sqlNarrowed).toEqual(sqlAll);
      }
    },
  );

  it('read narrows by agent_scope; writer-view is read without the narrowing', () => {
    const [, self] = scopes[2];
    const [, all] = scopes[1];
    expect(select(self, 'read')[0]).not.toEqual(select(all, 'read')[0]);
    expect(select(self, 'writer-view')[0]).toEqual(select(all, 'read')[0]);
  });

  it("owner matches only the caller as owner; ingest-mutation never reaches another agent's agent_only or restricted row", () => {
    const [, all] = scopes[1];
    const owner = select(all, 'owner')[0].replace(/"/g, '');
    expect(owner).toMatch(/m\.agent_id = \$\d+ AND m\.deleted_at IS NULL/);
    expect(owner).not.toContain('memory_visibility_grants');
    const mutation = select(all, 'ingest-mutation')[0].replace(/"/g, '');
    expect(mutation).toMatch(/\(m\.agent_id = \$\d+ OR m\.visibility IS NULL OR m\.visibility = 'workspace'\)/);
    expect(mutation).not.toMatch(/OR m\.visibility = '(agent_only|restricted)'/);
  });

  it('names every visibility mode in the read predicate except agent_only (owner-only)', () => {
    const [sql] = select(scopes[1][1], 'read');
    for (const mode of VISIBILITY_MODES) {
      if (mode === 'agent_only') expect(sql).not.toContain(`'${mode}'`);
      else expect(sql).toContain(`'${mode}'`);
    }
  });
});
