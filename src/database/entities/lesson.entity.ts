import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { WireLessonSeverity as LessonSeverity, WireLessonType as LessonType } from '../../contract/wire-types';

@Entity('lessons')
@Index('lessons_user_active_idx', { synchronize: false })
@Index('lessons_user_type_idx', { synchronize: false })
@Index('lessons_seen_once_idx', { synchronize: false })
export class LessonEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text', { name: 'user_id' }) userId: string;
  @Column('text', { name: 'lesson_type' }) lessonType: LessonType;
  @Column('text') pattern: string;
  @Column({ type: 'vector' }) embedding: number[];
  @Column('uuid', { name: 'source_memory_ids', array: true }) sourceMemoryIds: string[];
  @Column('text', { name: 'source_query', nullable: true }) sourceQuery: string | null;
  @Column('text') severity: LessonSeverity;
  @Column('boolean') active: boolean;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'retired_at', nullable: true }) retiredAt: Date | null;
}
