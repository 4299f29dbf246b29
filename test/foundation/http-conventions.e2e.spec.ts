import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';

import { configureApp } from '../../src/app/app.setup';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { loadEnv } from '../../src/env/env.schema';
import { createTestApp, type TestApp } from '../support/test-app';

describe('HTTP conventions (CONTRACT section 1)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers malformed JSON with 400 and the error envelope', async () => {
    const res = await t.http().put('/v1/memories/config').set('Content-Type', 'application/json').send('{"lessons_enabled": tru');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'Malformed JSON in request body' });
  });

  it('answers a body over 1 MB with 413 and the error envelope', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) });
    const res = await t.http().put('/v1/memories/config').set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body exceeds the 1 MB limit' });
  });

  it('accepts a body just under 1 MB (the limit is not lower than promised)', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(1000 * 1000) });
    const res = await t.http().put('/v1/memories/config').set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(410); // reached the route: mutation is disabled by default
  });

  it('answers an unknown route with 404 JSON, never HTML', async () => {
    const res = await t.http().get('/v1/nothing-here').set('Accept', 'text/html');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'Route not found: GET /v1/nothing-here' });
  });

  it('answers a wrong method on a known path with 404 JSON', async () => {
    const res = await t.http().post('/health');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/^Route not found/);
  });

  it('echoes a listed CORS origin', async () => {
    const res = await t.http().get('/health').set('Origin', 'http://localhost:3081');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3081');
  });

  it('sends no CORS headers to an unlisted origin', async () => {
    const res = await t.http().get('/health').set('Origin', 'http://evil.example');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight from a listed origin with 204, methods and headers', async () => {
    const res = await t
      .http()
      .options('/v1/memories/search')
      .set('Origin', 'http://localhost:3050')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3050');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-methods']).toContain('DELETE');
    expect(res.headers['access-control-allow-headers']).toMatch(/content-type/i);
  });

  it('gives a preflight from an unlisted origin no allow headers', async () => {
    const res = await t
      .http()
      .options('/v1/memories/search')
      .set('Origin', 'http://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('gives every response a request id, reusing a sane incoming one', async () => {
    const own = await t.http().get('/health').set('X-Request-Id', 'trace-123');
    expect(own.headers['x-request-id']).toBe('trace-123');
    const generated = await t.http().get('/health').set('X-Request-Id', 'bad id with spaces');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /health answers ok while the database answers', async () => {
    const res = await t.http().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

@Controller('boom')
class BoomController {
  @Get()
  boom(): never {
    throw new Error('secret internal detail: password=hunter2');
  }
}

@Module({ controllers: [BoomController] })
class BoomModule {}

describe('unexpected errors', () => {
  it('become 500 Internal server error, with the details only in the log', async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const env = loadEnv({ LOG_LEVEL: 'error' });
    const logger = new JsonLogger('error');
    const app = await NestFactory.create<NestExpressApplication>(BoomModule, { logger, bodyParser: false, abortOnError: false });
    configureApp(app, env, logger);
    await app.init();
    try {
      const res = await request(app.getHttpServer()).get('/boom');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error' });
      expect(res.text).not.toContain('hunter2');
    } finally {
      spy.mockRestore();
      await app.close();
    }
    expect(lines.join('')).toContain('secret internal detail');
  });
});
