// Prints, as JSON, every public method of the TypeScript client (dist/sdk/client, as built) and the
// route it calls: each method is called once with a fetch that records the request and answers
// a canned body, so nothing is sent. Used by tests/test_parity.py.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const clientDir = process.argv[2];
const { AtriumClient } = require(join(clientDir, 'index.js'));

// The declaration file is the public surface: `private call;` has no parameter list there.
const declared = [...readFileSync(join(clientDir, 'client.d.ts'), 'utf8').matchAll(/^ {4}(\w+)\(/gm)]
  .map((m) => m[1])
  .filter((name) => name !== 'constructor');

async function main() {
  let seen;
  const fetch = async (url, init) => {
    seen = { method: init.method, path: decodeURIComponent(new URL(url).pathname) };
    return { status: 200, statusText: 'OK', headers: { get: () => null }, text: async () => JSON.stringify({ applied: [] }) };
  };
  const client = new AtriumClient({ baseUrl: 'http://atrium.invalid', fetch, adminToken: 'token', retries: false });
  // Path parameters come back as `{name}`, the way the route table writes them.
  const options = { id: '{id}', granteeAgentId: '{grantee_agent_id}', userId: 'u' };
  const routes = {};
  for (const name of declared) {
    seen = undefined;
    const result = client[name]({ ...options });
    if (result && typeof result[Symbol.asyncIterator] === 'function') {
      // A streamed method (export) sends its request when first iterated; the canned body is no export.
      await result.next().catch(() => undefined);
    } else {
      await result;
    }
    if (!seen) throw new Error(`${name} sent no request`);
    routes[name] = seen;
  }
  process.stdout.write(JSON.stringify(routes));
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
