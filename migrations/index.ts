import { EnablePgvector1763700000000 } from './1763700000000-enable-pgvector';
import { CreateMemories1763700001000 } from './1763700001000-create-memories';
import { CreateLessonsAndAgents1763700002000 } from './1763700002000-create-lessons-and-agents';
import { MemoriesFillfactor1763700003000 } from './1763700003000-memories-fillfactor';
import { PartitionMemoriesByUser1763700004000 } from './1763700004000-partition-memories-by-user';
import { GrantsIndexCoversMemory1763700005000 } from './1763700005000-grants-index-covers-memory';
import { RuntimeConfig1763700006000 } from './1763700006000-runtime-config';
import { CreateApiKeysAndAuditEvents1763700012000 } from './1763700012000-create-api-keys-and-audit-events';
import { EmbeddedBy1763700140000 } from './1763700140000-embedded-by';
import { MemoryAccessCounts1763700150000 } from './1763700150000-memory-access-counts';
import { MemoryLifecycle1763700200000 } from './1763700200000-memory-lifecycle';
import { Webhooks1763700260000 } from './1763700260000-webhooks';
import { EmbeddedByIndex1763700300000 } from './1763700300000-embedded-by-index';
import { MemoryTermStats1763700400000 } from './1763700400000-memory-term-stats';
import { PartitionGraphOutOfWrites1763700500000 } from './1763700500000-partition-graph-out-of-writes';
import { MemoryPostings1763700600000 } from './1763700600000-memory-postings';
import { TermStatsChanges1763700700000 } from './1763700700000-term-stats-changes';
import { PostingsByReader1763700800000 } from './1763700800000-postings-by-reader';
import { PersonalPostingsIndex1763700900000 } from './1763700900000-personal-postings-index';

/**
 * Every migration, oldest first. Listed explicitly (not globbed) so the app, the CLI and the
 * tests load the same classes whether running from TypeScript or from dist/.
 */
export const ALL_MIGRATIONS = [
  EnablePgvector1763700000000,
  CreateMemories1763700001000,
  CreateLessonsAndAgents1763700002000,
  MemoriesFillfactor1763700003000,
  PartitionMemoriesByUser1763700004000,
  GrantsIndexCoversMemory1763700005000,
  RuntimeConfig1763700006000,
  CreateApiKeysAndAuditEvents1763700012000,
  EmbeddedBy1763700140000,
  MemoryAccessCounts1763700150000,
  MemoryLifecycle1763700200000,
  Webhooks1763700260000,
  EmbeddedByIndex1763700300000,
  MemoryTermStats1763700400000,
  PartitionGraphOutOfWrites1763700500000,
  MemoryPostings1763700600000,
  TermStatsChanges1763700700000,
  PostingsByReader1763700800000,
  PersonalPostingsIndex1763700900000,
];
