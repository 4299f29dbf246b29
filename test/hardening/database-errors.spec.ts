import {
  CannotExecuteNotConnectedError,
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';

import { isDatabaseUnavailable } from '../../src/database/database-errors';

/** Which errors answer 503 + Retry-After (the database is not there now) and which stay 500. */
describe('isDatabaseUnavailable', () => {
  it.each([
    ['a transaction whose backend was terminated (TypeORM released the runner before COMMIT)', new QueryRunnerAlreadyReleasedError()],
    ['the next statement of such a transaction', new QueryRunnerProviderAlreadyReleasedError()],
    ['TypeORM not connected', new CannotExecuteNotConnectedError()],
    [
      'a terminated backend (SQLSTATE 57P01)',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['the driver losing its socket', new Error('Connection terminated unexpectedly')],
    ['a driver error wrapped by TypeORM', new QueryFailedError('SELECT 1', [], Object.assign(new Error('x'), { code: '08006' }))],
  ])('%s: unavailable', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a constraint violation', new QueryFailedError('INSERT', [], Object.assign(new Error('duplicate key'), { code: '23505' }))],
    ['a programming error', new TypeError('cannot read properties of undefined')],
    ['not an error at all', 'oops'],
  ])('%s: not unavailable (a 500 to fix)', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
