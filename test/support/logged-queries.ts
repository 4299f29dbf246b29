import type { DataSource } from 'typeorm';

/** A statement the data source logged (the app's and the statement pools' alike), with its values. */
export interface LoggedQuery {
  sql: string;
  parameters: unknown[];
}

/** Runs `fn` while recording every statement the data source logs; the logger is restored after. */
export async function withLoggedQueries<T>(dataSource: DataSource, fn: () => Promise<T>): Promise<{ result: T; logged: LoggedQuery[] }> {
  const logged: LoggedQuery[] = [];
  const spy = jest
    .spyOn(dataSource.logger, 'logQuery')
    .mockImplementation(
      (sql: string, parameters?: unknown) => void logged.push({ sql, parameters: Array.isArray(parameters) ? parameters : [] }),
    );
  try {
    return { result: await fn(), logged };
  } finally {
    spy.mockRestore();
  }
}
