import { EnvValidationError, loadEnv } from '../../src/env/env.schema';

const thrownBy = (source: Record<string, string>): EnvValidationError => {
  try {
    loadEnv(source);
  } catch (error) {
    if (error instanceof EnvValidationError) return error;
    throw error;
  }
  throw new Error('loadEnv accepted the environment');
};

describe('AUTH_MODE and ATRIUM_ADMIN_TOKEN', () => {
  it('defaults to off with no admin token', () => {
    const env = loadEnv({});
    expect(env.AUTH_MODE).toBe('off');
    expect(env.ATRIUM_ADMIN_TOKEN).toBeUndefined();
  });

  it('stops on api_key without a token, naming ATRIUM_ADMIN_TOKEN in one line', () => {
    const error = thrownBy({ AUTH_MODE: 'api_key' });
    expect(error.variable).toBe('ATRIUM_ADMIN_TOKEN');
    expect(error.message).toBe('Invalid environment: ATRIUM_ADMIN_TOKEN is required (at least 32 characters) when AUTH_MODE=api_key');
    expect(error.message).not.toContain('\n');
  });

  it('stops on a token shorter than 32 characters, in either mode', () => {
    expect(thrownBy({ AUTH_MODE: 'api_key', ATRIUM_ADMIN_TOKEN: 'x'.repeat(31) }).message).toBe(
      'Invalid environment: ATRIUM_ADMIN_TOKEN must be at least 32 characters',
    );
    expect(thrownBy({ ATRIUM_ADMIN_TOKEN: 'short' }).variable).toBe('ATRIUM_ADMIN_TOKEN');
  });

  it('stops on an unknown mode', () => {
    expect(thrownBy({ AUTH_MODE: 'oauth' }).message).toMatch(/AUTH_MODE must be one of off, api_key/);
  });

  it('accepts api_key with a 32-character token', () => {
    expect(loadEnv({ AUTH_MODE: 'api_key', ATRIUM_ADMIN_TOKEN: 'y'.repeat(32) }).AUTH_MODE).toBe('api_key');
  });
});
