import { MAX_AGENT_SCOPE_IDS, MAX_USER_ID_LENGTH } from '../common/scope/parse-memory-scope';

/**
 * The scope parameters of every memory route (CONTRACT section 2), as OpenAPI schemas.
 * They are validated by parseMemoryScope (the workspace guard and @Scope()), not by
 * class-validator: these schemas only describe them.
 */

export const UUID_EXAMPLE = '3f0c6a5e-8d2b-4c1a-9e7f-1b2c3d4e5f60';
export const WORKSPACE_EXAMPLE = '6f1c0a56-6a3e-4c43-9a55-0d1f0c8f1a11';
export const AGENT_EXAMPLE = '0b6c1f5e-2c1d-4f7e-8f0e-5b7f2f9d3c21';
const OTHER_AGENT_EXAMPLE = '9d2e4f6a-1b3c-4d5e-8f7a-0b1c2d3e4f50';

export const USER_ID_SCHEMA = {
  type: String,
  minLength: 1,
  maxLength: MAX_USER_ID_LENGTH,
  description:
    'The account whose memories are read or written (a free string). Missing or empty: 400 `user_id (string) is required` ' +
    "(with AUTH_MODE=api_key it may be left out: the API key's user is used).",
  example: 'alice',
};

export const WORKSPACE_ID_SCHEMA = {
  type: String,
  format: 'uuid',
  description:
    "Selects workspace scope (requires `agent_id`). Absent: user scope, the user's personal memories. " +
    'Not a UUID: 400 `workspace_id must be a valid UUID`.',
  example: WORKSPACE_EXAMPLE,
};

export const AGENT_ID_SCHEMA = {
  type: String,
  format: 'uuid',
  description: 'The calling agent; required with `workspace_id` (400 `agent_id is required for workspace queries`), ignored without it.',
  example: AGENT_EXAMPLE,
};

const AGENT_SCOPE_DESCRIPTION =
  'Whose memories are wanted (workspace scope only; it narrows, never widens, visibility): `all` (default), `self`, ' +
  '`others`, one agent UUID, or a non-empty list of at most 100 agent UUIDs. On GET/DELETE the list may be a repeated ' +
  'parameter or comma-separated. Anything else: 400 `agent_scope must be all, self, others, an agent id or a list of ' +
  'agent ids`; without `workspace_id`: 400 `agent_scope requires workspace_id`.';

/**
 * all | self | others | uuid | uuid[]. `type: Array` only steers @nestjs/swagger into keeping
 * the oneOf as it is (for an `unknown` property it would otherwise add a `$ref` to `Object`).
 */
export const AGENT_SCOPE_SCHEMA = {
  type: Array,
  description: AGENT_SCOPE_DESCRIPTION,
  oneOf: [
    { type: 'string', enum: ['all', 'self', 'others'] },
    { type: 'string', format: 'uuid' },
    { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: MAX_AGENT_SCOPE_IDS },
  ],
  example: 'all',
};

/** agent_scope in a query string (GET/DELETE): repeated, or one value that may be comma-separated. */
export const AGENT_SCOPE_QUERY_PARAMETER = {
  description: AGENT_SCOPE_DESCRIPTION,
  style: 'form' as const,
  explode: true,
  schema: {
    type: 'array' as const,
    items: { type: 'string' as const, description: '`all`, `self`, `others`, an agent UUID, or agent UUIDs separated by commas' },
    minItems: 1,
    maxItems: MAX_AGENT_SCOPE_IDS,
  },
  examples: {
    keyword: { summary: 'a keyword', value: ['self'] },
    agents: { summary: 'two agents (or agent_scope=<id1>,<id2>)', value: [AGENT_EXAMPLE, OTHER_AGENT_EXAMPLE] },
  },
};

/** An example timestamp for the documentation (ISO-8601, UTC). */
export const TIME_EXAMPLE = '2026-11-21T15:27:05.000Z';
