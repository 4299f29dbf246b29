import { randomUUID } from 'node:crypto';

import type { NewMemory } from '../../src/database/access/memory-access';

/**
 * A new personal memory for MemoryAccess.insertMemories, with plain defaults (semantic,
 * importance 0.5, trust 1, active, no expiry, created now); `fields` replaces any of them.
 */
export function newMemoryRow(userId: string, content: string, embedding: number[], fields: Partial<NewMemory> = {}): NewMemory {
  const now = new Date();
  return {
    id: randomUUID(),
    userId,
    workspaceId: null,
    agentId: null,
    visibility: null,
    content,
    memoryType: 'semantic',
    importance: 0.5,
    sourceSite: 'tests',
    sourceUrl: null,
    episodeId: null,
    namespace: null,
    status: 'active',
    metadata: {},
    trustScore: 1,
    embedding,
    embeddedBy: 'test',
    createdAt: now,
    updatedAt: now,
    expiresAt: null,
    ...fields,
  };
}
