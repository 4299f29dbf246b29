import { connect, type AddressInfo } from 'node:net';

import { createTestApp } from '../support/test-app';

describe('graceful shutdown', () => {
  it('finishes an in-flight request, then stops accepting and closes the database', async () => {
    const t = await createTestApp();
    try {
      await t.app.listen(0, '127.0.0.1');
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const body = JSON.stringify({ lessons_enabled: false });

      // Start a request and hold back the end of its body: it is in flight during close().
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let response = '';
      socket.on('data', (chunk) => (response += chunk.toString()));
      const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write(
        `PUT /v1/memories/config HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body.slice(0, 5));
      await new Promise((resolve) => setTimeout(resolve, 100));

      let closed = false;
      const closing = t.app.close().then(() => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(closed).toBe(false);

      // New connections are refused while the old request is still running.
      const refused = await new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1');
        probe.once('error', () => resolve(true));
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
      });
      expect(refused).toBe(true);

      socket.write(body.slice(5));
      await ended;
      await closing;
      expect(response).toMatch(/^HTTP\/1\.1 410 /);
      expect(closed).toBe(true);
      expect(t.dataSource.isInitialized).toBe(false);
    } finally {
      await t.db.drop();
    }
  });
});
