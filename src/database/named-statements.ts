import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';

import type { AppEnv } from '../env/env.schema';
import { DATABASE_TARGET, type DatabaseTarget } from './database-target';

/** The pg pool under TypeORM's driver, as far as a named statement needs it. */
interface NamedStatementPool {
  query<R>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

/**
 * Hot, fixed statements of the repositories outside MemoryAccess (the API-key lookup, the
 * writer's trust) as named prepared statements: parsed and planned once per connection, and
 * run without TypeORM's query runner around them. The same rule as MemoryAccess's statement
 * pool: a direct connection to a real server only. Not behind a pooler (DATABASE_DIRECT_URL
 * differs: a transaction-mode PgBouncer < 1.21 does not keep named statements), not with
 * DATABASE_PREPARED_STATEMENTS=false, and not on the embedded database (its connections share
 * one backend, where a statement name prepared by one pg client would collide with the same name
 * from the next one); there they run as ordinary queries.
 */
@Injectable()
export class NamedStatements {
  private readonly pool: NamedStatementPool | null;

  constructor(
    private readonly dataSource: DataSource,
    config: ConfigService<AppEnv, true>,
    @Inject(DATABASE_TARGET) target: DatabaseTarget,
  ) {
    const master = (dataSource.driver as unknown as { master?: NamedStatementPool }).master;
    const named = target.kind === 'postgres' && !target.pooled && config.get('DATABASE_PREPARED_STATEMENTS', { infer: true });
    this.pool = named && master && typeof master.query === 'function' ? master : null;
  }

  /** Rows of `text` with `values`: the named statement `name` where allowed, else an ordinary query. */
  async rows<R>(name: string, text: string, values: unknown[]): Promise<R[]> {
    if (this.pool) return (await this.pool.query<R>({ name, text, values })).rows;
    return this.dataSource.query(text, values);
  }
}
