import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

import { ENV_SCHEMA, loadEnv } from '../../src/env/env.schema';

/**
 * docker/compose.yml cannot be started on CI (no Docker engine), so this reads it and the files
 * it names and checks that they agree: service names, ports, credentials, database names and
 * Atrium's variables. It fails when one of them changes without the others.
 */
const DOCKER = join(__dirname, '..', '..', 'docker');
const read = (path: string): string => readFileSync(join(DOCKER, path), 'utf8');

/** Compose's `${NAME:-default}` interpolation, with the defaults (no variables set). */
const interpolate = (text: string): string => text.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

interface Service {
  image?: string;
  build?: { context: string; dockerfile?: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number | string };
}

const compose = parse(interpolate(read('compose.yml'))) as { services: Record<string, Service> };
const services = compose.services;

/** `key = value` lines of an ini file, by section. */
function ini(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/;.*$/, '').trim();
    const section = /^\[(.+)\]$/.exec(line);
    if (section) sections[(current = section[1])] = {};
    else if (line.includes('=')) {
      const at = line.indexOf('=');
      sections[current][line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
  }
  return sections;
}

const bouncer = ini(read('pgbouncer/pgbouncer.ini'));
const nginx = read('nginx/nginx.conf');
const postgresEnv = services.postgres.environment ?? {};
const atriumEnv = services.atrium.environment ?? {};

describe('docker/compose.yml', () => {
  it('has PostgreSQL with pgvector, PgBouncer, Atrium replicas and a proxy', () => {
    expect(Object.keys(services).sort()).toEqual(['atrium', 'pgbouncer', 'postgres', 'proxy']);
    expect(services.postgres.image).toMatch(/^pgvector\/pgvector:pg\d+$/);
    expect(Number(services.atrium.deploy?.replicas)).toBeGreaterThanOrEqual(2);
  });

  it('sets the PostgreSQL settings docs/benchmarks.md discusses', () => {
    const settings = Object.fromEntries(
      (services.postgres.command ?? []).filter((arg) => arg.includes('=')).map((arg) => arg.split('=') as [string, string]),
    );
    expect(Object.keys(settings)).toEqual(
      expect.arrayContaining(['shared_buffers', 'work_mem', 'effective_cache_size', 'maintenance_work_mem', 'random_page_cost']),
    );
    const benchmarks = readFileSync(join(DOCKER, '..', 'docs', 'benchmarks.md'), 'utf8');
    for (const name of ['shared_buffers', 'work_mem', 'effective_cache_size', 'random_page_cost']) expect(benchmarks).toContain(name);
  });

  it('gives Atrium only variables its environment schema knows, with values it accepts', () => {
    for (const name of Object.keys(atriumEnv)) expect(Object.keys(ENV_SCHEMA)).toContain(name);
    expect(() => loadEnv(atriumEnv)).not.toThrow();
  });

  it('sends pooled connections to PgBouncer and the direct ones to PostgreSQL, with the same credentials and database', () => {
    const pooled = new URL(atriumEnv.DATABASE_URL);
    const direct = new URL(atriumEnv.DATABASE_DIRECT_URL);
    expect(pooled.hostname).toBe('pgbouncer');
    expect(pooled.port).toBe(bouncer.pgbouncer.listen_port);
    expect(direct.hostname).toBe('postgres');
    expect(direct.port).toBe('5432');
    for (const url of [pooled, direct]) {
      expect(url.username).toBe(postgresEnv.POSTGRES_USER);
      expect(url.password).toBe(postgresEnv.POSTGRES_PASSWORD);
      expect(url.pathname).toBe(`/${postgresEnv.POSTGRES_DB}`);
    }
  });

  it("runs PgBouncer in transaction mode in front of the postgres service, knowing Atrium's user", () => {
    expect(bouncer.pgbouncer.pool_mode).toBe('transaction');
    const database = new URL(atriumEnv.DATABASE_URL).pathname.slice(1);
    expect(bouncer.databases[database]).toBe(`host=postgres port=5432 dbname=${postgresEnv.POSTGRES_DB}`);
    const authFile = bouncer.pgbouncer.auth_file;
    expect(read('pgbouncer/Dockerfile')).toMatch(new RegExp(`COPY .*${authFile.split('/').pop()}.* ${authFile.replace(/[^/]+$/, '')}`));
    expect(read(`pgbouncer/${authFile.split('/').pop()}`)).toContain(`"${postgresEnv.POSTGRES_USER}" "${postgresEnv.POSTGRES_PASSWORD}"`);
    expect(services.pgbouncer.healthcheck?.test.join(' ')).toContain(`-p ${bouncer.pgbouncer.listen_port}`);
  });

  it('proxies the published port to every replica on the port Atrium listens on', () => {
    expect(services.atrium.ports).toBeUndefined(); // replicas cannot share a host port
    expect(services.atrium.expose).toEqual([atriumEnv.PORT]);
    expect(nginx).toMatch(new RegExp(`server atrium:${atriumEnv.PORT}\\b`));
    const [published] = services.proxy.ports ?? [];
    const listen = /listen (\d+);/.exec(nginx)?.[1];
    expect(published).toBe(`3050:${listen}`);
    expect(services.proxy.volumes).toContain('./nginx/nginx.conf:/etc/nginx/nginx.conf:ro');
    const bodyLimit = /client_max_body_size (\d+)m;/.exec(nginx)?.[1];
    expect(Number(bodyLimit)).toBeGreaterThan(1); // above Atrium's own 1 MB, so Atrium answers 413
  });

  it('starts each service after the ones it needs are healthy, and each of those has a health check', () => {
    expect(services.pgbouncer.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services.atrium.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, pgbouncer: { condition: 'service_healthy' } });
    expect(services.proxy.depends_on).toEqual({ atrium: { condition: 'service_healthy' } });
    expect(services.postgres.healthcheck).toBeDefined();
    expect(services.pgbouncer.healthcheck).toBeDefined();
    expect(read('Dockerfile')).toMatch(/^HEALTHCHECK /m); // Atrium's image carries its own
  });

  it('builds from files that exist', () => {
    for (const service of Object.values(services)) {
      if (!service.build) continue;
      const context = join(DOCKER, service.build.context);
      const dockerfile = service.build.dockerfile ? join(context, service.build.dockerfile) : join(context, 'Dockerfile');
      expect(existsSync(dockerfile)).toBe(true);
    }
  });
});
