/**
 * Prints the node flags of the service, space-separated, for the start command of `npm start`
 * and the Docker image: `node $(node dist/scripts/node-flags.js) dist/src/main.js`
 * (src/env/node-flags.ts). It exits before the service starts, so no parent process stays.
 */
import { existsSync, readFileSync } from 'node:fs';

import { nodeFlags } from '../src/env/node-flags';

const dotenv = existsSync('.env') ? readFileSync('.env', 'utf8') : null;
process.stdout.write(`${nodeFlags(process.env, dotenv).join(' ')}\n`);
