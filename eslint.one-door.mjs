// The house's restricted-syntax and restricted-import rules, built once (STYLE.md rules 5 and 13).
//
// In flat config a later `no-restricted-syntax` (or `no-restricted-imports`) setting replaces an
// earlier one for the same file instead of adding to it, so the lists are composed here and
// eslint.config.mjs applies exactly one list per file group. `npx eslint --print-config <file>`
// shows the list a file gets.
//
// test/architecture/one-door.check.spec.ts runs these rules on the tree, and the rogue snippets
// of test/architecture/rogue-snippets.check.spec.ts show each hole of issue 21 closed.

/**
 * The tenant tables: every statement on them goes through MemoryAccess. A new one is added
 * here; test/database/memory-access.int.spec.ts fails on a table keyed by user_id that is in
 * neither list below.
 */
export const TENANT_TABLES = [
  'memories',
  'episodes',
  'memory_visibility_grants',
  'memory_access_counts',
  'memory_versions',
  'memory_term_stats',
  'memory_term_changes',
  'memory_postings',
  'lessons',
];

/** Tables keyed by user_id that are not tenant data reached through the door, and why. */
export const USER_KEYED_OUTSIDE_THE_DOOR = [
  { table: 'agents', reason: 'Trust levels a user sets for its agents (src/database/agents.repository.ts); no memory content.' },
  { table: 'api_keys', reason: 'API keys, managed with the admin token (src/database/api-keys.repository.ts).' },
  { table: 'audit_events', reason: 'The append-only audit log: written beside each change, read with the admin token.' },
  { table: 'webhook_subscriptions', reason: 'Webhook subscriptions, managed with the admin token (src/database/webhooks.repository.ts).' },
  { table: 'webhook_outbox', reason: 'Webhook events, ids only: the door writes them with each change (access/webhook-outbox.ts).' },
];
/** Their TypeORM entities. */
export const TENANT_ENTITIES = ['MemoryEntity', 'EpisodeEntity', 'VisibilityGrantEntity', 'LessonEntity'];

/**
 * Where the tenant rules do not apply, and why. Nothing else is exempt (the rest of
 * src/database included).
 */
export const DOOR_EXEMPTIONS = [
  {
    files: 'src/database/access/**',
    reason: 'The door itself: MemoryAccess, the visibility predicate and the statements it renders.',
  },
  {
    files: 'src/database/maintenance/**',
    reason:
      'Maintenance across every tenant, never on behalf of a caller: re-embedding, the foreign-vector startup ' +
      'check, tenant graphs (partial HNSW indexes per large scope).',
  },
];

/** Files that may import a DataSource outside src/database, and why. */
export const PROBE_EXEMPTIONS = [
  { files: 'src/settings/health.controller.ts', reason: 'Liveness probe: SELECT 1 on the pool, no table.' },
  { files: 'src/metrics/metrics.controller.ts', reason: 'Pool counters for /metrics, no table.' },
];

export const ONE_DOOR_MESSAGE = 'Tenant tables are reached only through MemoryAccess (src/database/access).';

const entities = `/^(${TENANT_ENTITIES.join('|')})$/`;
const tables = (list) => `("?(public|"public")"?\\.)?"?(${list.join('|')})"?\\b`;
// SQL that names a tenant table where a statement reads or writes it, in any case (`select *
// from Memories` too): a SQL verb, then FROM / INTO / UPDATE / JOIN / TABLE / USING and the table.
// Prose in comments is not a literal; prose in a string ("results from memories") needs a verb
// before it to match, and then it is worth a second look anyway.
const sqlOn = (list) =>
  `/\\b(select|insert|update|delete|with|table|truncate|copy|merge)\\b[\\s\\S]*\\b(from|into|update|join|table|using|truncate|copy)\\s+${tables(list)}/i`;
const TENANT_SQL = sqlOn(TENANT_TABLES);
const NOT_LESSONS_SQL = sqlOn(TENANT_TABLES.filter((t) => t !== 'lessons'));
/** A table name interpolated into SQL (`SELECT ... FROM ${table}`): the lint cannot see which table. */
const INTERPOLATED_TABLE = '/\\b(from|into|update|join|table)\\s+"?$/i';
const SQL_TEMPLATE = '/^\\s*(select|insert|update|delete|with|table|truncate|copy|merge)\\b/i';

/** TypeORM calls that reach a table's rows when given its entity. */
const ENTITY_METHODS =
  'find|findOne|findBy|findOneBy|findAndCount|findAndCountBy|findOneOrFail|findOneByOrFail|exist|exists|existsBy|count|countBy|' +
  'sum|average|minimum|maximum|save|insert|upsert|update|delete|softDelete|restore|remove|increment|decrement|createQueryBuilder|' +
  'query|getRepository|getTreeRepository|withRepository|from|into|preload|merge|create';

/** Every file: tests are never focused or skipped. */
export const BASE_SYNTAX = [
  {
    selector: "CallExpression[callee.property.name='only'][callee.object.name=/^(it|describe|test)$/]",
    message: 'Focused tests hide failures.',
  },
  {
    selector: "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|describe|test)$/]",
    message: 'Skipped tests hide failures.',
  },
];

/** Every file under src/ but the exemptions: nothing reaches a tenant table except through MemoryAccess. */
export const DOOR_SYNTAX = [
  // Hole 4: a repository, manager or query builder for a tenant entity.
  { selector: `CallExpression[callee.name='InjectRepository'][arguments.0.name=${entities}]`, message: ONE_DOOR_MESSAGE },
  { selector: `CallExpression[callee.property.name=/^(${ENTITY_METHODS})$/][arguments.0.name=${entities}]`, message: ONE_DOOR_MESSAGE },
  { selector: `CallExpression[callee.property.name=/^(forFeature)$/] Identifier[name=${entities}]`, message: ONE_DOOR_MESSAGE },
  // Hole 4: a manager or connection in reach (Repository.manager, builder.connection, dataSource.manager).
  {
    selector: 'MemberExpression[property.name=/^(manager|connection|queryRunner)$/]',
    message: `A manager or connection reaches every table. ${ONE_DOOR_MESSAGE}`,
  },
  // Holes 2 and 3: SQL that names a tenant table, in any case. A literal written in place as the
  // statement of MemoryAccess.userQuery may name lessons (userQuery checks it is lessons only
  // and pinned to user_id = $1), and no other tenant table.
  {
    selector: `Literal[value=${TENANT_SQL}]:not(CallExpression[callee.property.name='userQuery'] > Literal)`,
    message: ONE_DOOR_MESSAGE,
  },
  {
    selector: `TemplateElement[value.raw=${TENANT_SQL}]:not(CallExpression[callee.property.name='userQuery'] > TemplateLiteral > TemplateElement)`,
    message: ONE_DOOR_MESSAGE,
  },
  {
    selector: `CallExpression[callee.property.name='userQuery'] > Literal[value=${NOT_LESSONS_SQL}]`,
    message: `userQuery is for the lessons table alone. ${ONE_DOOR_MESSAGE}`,
  },
  {
    selector: `CallExpression[callee.property.name='userQuery'] > TemplateLiteral > TemplateElement[value.raw=${NOT_LESSONS_SQL}]`,
    message: `userQuery is for the lessons table alone. ${ONE_DOOR_MESSAGE}`,
  },
  {
    selector: `TemplateLiteral:has(TemplateElement[value.raw=${SQL_TEMPLATE}]) > TemplateElement[value.raw=${INTERPOLATED_TABLE}]`,
    message: `A table name interpolated into SQL. ${ONE_DOOR_MESSAGE}`,
  },
  // Holes 1 and 5: nothing outside the door replaces, widens or rebinds a predicate.
  {
    selector: "CallExpression[callee.property.name='where']",
    message: '.where() replaces the predicate MemoryAccess added; a ScopedSelect has andWhere, which AND-s in parentheses.',
  },
  {
    selector: "CallExpression[callee.property.name='orWhere']",
    message: '.orWhere() widens the predicate MemoryAccess added; put the OR inside one andWhere condition.',
  },
  {
    selector: 'CallExpression[callee.property.name=/^setParameters?$/]',
    message: 'Parameters are bound by MemoryAccess (the vis_* names are its own); pass values with the condition.',
  },
];

/** The door's own helpers: only src/database/access builds scoped statements and binds scopes. */
const DOOR_INTERNALS = [
  {
    group: ['**/database/access/scoped-query', './scoped-query'],
    importNames: ['scopedSelect', 'scopedUpdate', 'ScopedSelect', 'ScopedUpdate'],
    message: 'Scoped statements come from MemoryAccess (memories, updateMemories, lessons).',
  },
  {
    group: ['**/database/access/visibility'],
    importNames: ['applyMemoryScope', 'scopeParameters', 'scopeShapeKey', 'tenantRowConditions'],
    message: 'The visibility predicate is applied and bound by MemoryAccess only.',
  },
];

const TYPEORM_HANDLES = {
  name: 'typeorm',
  importNames: ['DataSource', 'EntityManager', 'Repository', 'QueryRunner'],
  message: 'Outside src/database, data access goes through MemoryAccess or a database/ service.',
};

/** no-restricted-imports options for a file group. */
export function restrictedImports({ typeorm }) {
  return ['error', { paths: typeorm ? [TYPEORM_HANDLES] : [], patterns: DOOR_INTERNALS }];
}
