// The one-door rules (STYLE.md rule 13): outside src/database/, nothing reaches the tenant
// tables (memories, episodes, memory_visibility_grants, memory_access_counts, lessons) except through MemoryAccess.
// test/architecture/one-door.check.spec.ts runs these rules on the tree and on rogue snippets.

const TENANT_ENTITY = '/^(MemoryEntity|EpisodeEntity|VisibilityGrantEntity|LessonEntity)$/';
// SQL that names a tenant table after FROM / INTO / UPDATE / JOIN (upper-case keywords, as
// the project writes SQL; prose that mentions "memories" does not match).
const TENANT_SQL = '/\\b(FROM|INTO|UPDATE|JOIN)\\s+"?(memories|episodes|memory_visibility_grants|memory_access_counts|lessons)\\b/';

export const ONE_DOOR_MESSAGE = 'Tenant tables are reached only through MemoryAccess (src/database/access).';

const restricted = [
  { selector: `CallExpression[callee.name='InjectRepository'][arguments.0.name=${TENANT_ENTITY}]`, message: ONE_DOOR_MESSAGE },
  {
    selector: `CallExpression[callee.property.name=/^(getRepository|getTreeRepository)$/][arguments.0.name=${TENANT_ENTITY}]`,
    message: ONE_DOOR_MESSAGE,
  },
  {
    selector: `CallExpression[callee.property.name=/^(update|insert|delete|softDelete|from|into)$/][arguments.0.name=${TENANT_ENTITY}]`,
    message: ONE_DOOR_MESSAGE,
  },
  { selector: `CallExpression[callee.property.name=/^(forFeature)$/] Identifier[name=${TENANT_ENTITY}]`, message: ONE_DOOR_MESSAGE },
  // Raw SQL naming a tenant table: allowed only written in place as the statement of
  // MemoryAccess.userQuery, which checks it binds user_id = $1 to the caller's user.
  { selector: `Literal[value=${TENANT_SQL}]:not(CallExpression[callee.property.name='userQuery'] > Literal)`, message: ONE_DOOR_MESSAGE },
  {
    selector: `TemplateElement[value.raw=${TENANT_SQL}]:not(CallExpression[callee.property.name='userQuery'] > TemplateLiteral > TemplateElement)`,
    message: ONE_DOOR_MESSAGE,
  },
];

export const oneDoor = [
  {
    files: ['src/**/*.ts'],
    ignores: ['src/database/**'],
    rules: {
      'no-restricted-syntax': ['error', ...restricted],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'typeorm',
              importNames: ['DataSource', 'EntityManager', 'Repository', 'QueryRunner'],
              message: 'Outside src/database, data access goes through MemoryAccess or a database/ service.',
            },
          ],
        },
      ],
    },
  },
  {
    // Liveness probes: these two run `SELECT 1` and read pool counters, never a tenant table.
    files: ['src/settings/health.controller.ts', 'src/metrics/metrics.controller.ts', 'src/agents/agents.service.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
];
