import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describeEnv, EnvValidationError, loadEnv } from '../../src/env/env.schema';

describe('environment validation', () => {
  it('applies the documented defaults', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3050);
    expect(env.ALLOWED_ORIGINS).toEqual(['http://localhost:3050', 'http://localhost:3081']);
    expect(env.LESSONS_ENABLED).toBe(true);
    expect(env.CORE_RUNTIME_CONFIG_MUTATION_ENABLED).toBe(false);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.EMBEDDING_PROVIDER).toBe('local');
    expect(env.LESSON_SIMILARITY_THRESHOLD).toBe(0.75);
  });

  it.each([
    ['PORT', 'eighty', /PORT must be an integer/],
    ['PORT', '70000', /PORT must be between 0 and 65535/],
    ['LESSONS_ENABLED', 'maybe', /LESSONS_ENABLED must be true or false/],
    ['CORE_RUNTIME_CONFIG_MUTATION_ENABLED', 'enabled', /CORE_RUNTIME_CONFIG_MUTATION_ENABLED must be true or false/],
    ['LESSON_SIMILARITY_THRESHOLD', '1.2', /LESSON_SIMILARITY_THRESHOLD must be between 0 and 1/],
    ['DATABASE_URL', 'mysql://localhost/db', /DATABASE_URL must be a postgres/],
    ['ALLOWED_ORIGINS', 'localhost:3000', /ALLOWED_ORIGINS must be a comma-separated list of origins/],
    ['EMBEDDING_PROVIDER', 'word2vec', /EMBEDDING_PROVIDER must be one of local, hash, openai/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['EMBEDDING_DIMENSIONS', '3', /EMBEDDING_DIMENSIONS must be between/],
  ])('stops on %s=%s with a message naming the variable', (name, value, message) => {
    let thrown: unknown;
    try {
      loadEnv({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EnvValidationError);
    expect((thrown as EnvValidationError).variable).toBe(name);
    expect((thrown as Error).message).toMatch(message);
  });

  it('requires EMBEDDING_BASE_URL for the openai provider', () => {
    expect(() => loadEnv({ EMBEDDING_PROVIDER: 'openai' })).toThrow(/EMBEDDING_BASE_URL is required/);
    expect(loadEnv({ EMBEDDING_PROVIDER: 'openai', EMBEDDING_BASE_URL: 'http://127.0.0.1:9/' }).EMBEDDING_BASE_URL).toBe(
      'http://127.0.0.1:9',
    );
  });

  it('treats empty values as unset', () => {
    expect(loadEnv({ DATABASE_URL: '', PORT: ' ' }).PORT).toBe(3050);
  });
});

describe('.env.example', () => {
  const text = readFileSync(join(__dirname, '..', '..', '.env.example'), 'utf8');
  const lines = text.split('\n');

  it('lists exactly the variables of the schema, in order', () => {
    const listed = lines.map((line) => /^#?\s*([A-Z][A-Z0-9_]+)=/.exec(line)?.[1]).filter(Boolean);
    expect(listed).toEqual(describeEnv().map((v) => v.name));
  });

  it('gives every variable a one-line comment directly above it', () => {
    for (const { name } of describeEnv()) {
      const index = lines.findIndex((line) => new RegExp(`^#?\\s*${name}=`).test(line));
      expect(lines[index - 1]).toMatch(/^# \S/);
    }
  });

  it('parses as a valid environment', () => {
    const values: Record<string, string> = {};
    for (const line of lines) {
      const match = /^([A-Z][A-Z0-9_]+)=(.*)$/.exec(line);
      if (match) values[match[1]] = match[2];
    }
    expect(() => loadEnv(values)).not.toThrow();
  });
});
