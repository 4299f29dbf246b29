import { DataSource } from 'typeorm';

import type { MemoryScope } from '../../src/common/scope/memory-scope';
import { applyMemoryScope } from '../../src/database/visibility';
import { MemoryEntity } from '../../src/memories/memory.entity';

const W = '11111111-1111-4111-8111-111111111111';
const A = '22222222-2222-4222-8222-222222222222';
const B = '33333333-3333-4333-8333-333333333333';

const scopes: [string, MemoryScope][] = [
  ['user', { kind: 'user', userId: 'u1' }],
  ['workspace, agent_scope all', { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'all' } }],
  ['workspace, agent_scope self', { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'self' } }],
  ['workspace, agent_scope others', { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'others' } }],
  ['workspace, agent_scope ids', { kind: 'workspace', userId: 'u1', workspaceId: W, agentId: A, agentScope: { kind: 'agents', agentIds: [A, B] } }],
];

describe('applyMemoryScope (database/visibility.ts)', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    // No connection: only the entity metadata is needed to build SQL.
    dataSource = new DataSource({ type: 'postgres', entities: [MemoryEntity] });
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  });

  it.each(scopes)('select, %s: SQL and parameters', (_name, scope) => {
    const qb = applyMemoryScope(dataSource.getRepository(MemoryEntity).createQueryBuilder('m').select('m.id'), 'm', scope);
    const [sql, params] = qb.getQueryAndParameters();
    expect({ sql, params }).toMatchSnapshot();
  });

  it.each(scopes)('update, %s: SQL and parameters', (_name, scope) => {
    const qb = dataSource.createQueryBuilder().update(MemoryEntity).set({ visibility: 'workspace' });
    applyMemoryScope(qb, 'memories', scope).andWhere('memories.id = :id', { id: B });
    const [sql, params] = qb.getQueryAndParameters();
    expect({ sql, params }).toMatchSnapshot();
  });

  it('binds caller ids as parameters, never as SQL text', () => {
    const scope: MemoryScope = { kind: 'workspace', userId: "x'; DROP TABLE memories; --", workspaceId: W, agentId: A, agentScope: { kind: 'agents', agentIds: [B] } };
    const [sql, params] = applyMemoryScope(dataSource.getRepository(MemoryEntity).createQueryBuilder('m'), 'm', scope).getQueryAndParameters();
    for (const value of [scope.userId, W, A, B]) expect(sql).not.toContain(value);
    expect(params).toEqual(expect.arrayContaining([scope.userId, W, A, [B]]));
  });

  it('adds one bracketed condition that an earlier andWhere keeps', () => {
    const qb = dataSource.getRepository(MemoryEntity).createQueryBuilder('m').andWhere('m.id = :id', { id: B });
    applyMemoryScope(qb, 'm', { kind: 'user', userId: 'u1' });
    const sql = qb.getQueryAndParameters()[0].replace(/"/g, '');
    expect(sql).toMatch(/WHERE m\.id = \$1 AND \(m\.user_id = \$2 AND m\.workspace_id IS NULL AND m\.deleted_at IS NULL AND m\.expired_at IS NULL\)/);
  });
});
