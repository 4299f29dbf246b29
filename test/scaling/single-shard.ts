/**
 * The check behind docs/scaling.md: on Citus with every tenant table distributed by `user_id`
 * (co-located), a statement is a single-shard router query when every distributed table it
 * reads or writes is pinned to one user_id value. This reads SQL the way the service writes it
 * (TypeORM's quoted builder output and the hand-written statements) with a small tokenizer; it
 * is not a SQL parser, and it errs on the strict side: a statement it cannot prove pinned is a
 * finding.
 *
 * A reference `t [AS] a` to a distributed table is pinned when the statement contains
 * - `a.user_id = <parameter or literal>` (either side), or
 * - `a.user_id = b.user_id` where `b` is pinned (a co-located join, or a correlated subquery),
 * - for a reference written without an alias, the same with the bare `user_id`,
 * - for `INSERT INTO t (...)`, `user_id` among the inserted columns (the row's shard).
 * `user_id = ANY(...)`, `IN (...)`, ranges and `<>` pin nothing: they fan out.
 */

/** Tables distributed by user_id in the Citus design (docs/scaling.md). */
export const DISTRIBUTED_TABLES = [
  'memories',
  'memory_visibility_grants',
  'memory_access_counts',
  'episodes',
  'lessons',
  'agents',
] as const;

type Token = { kind: 'word'; text: string } | { kind: 'value'; text: string } | { kind: 'punct'; text: string };

/** Words that end a table reference instead of naming its alias. */
const CLAUSE_WORDS = new Set([
  'where',
  'set',
  'on',
  'using',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'join',
  'natural',
  'order',
  'group',
  'limit',
  'offset',
  'values',
  'returning',
  'for',
  'union',
  'except',
  'intersect',
  'having',
  'window',
  'select',
  'default',
  'overriding',
]);

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s+|--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|"(?:[^"]|"")*"|\$\d+|:[A-Za-z_]\w*|\d+(?:\.\d+)?|[A-Za-z_][\w$]*|::|<>|!=|<=|>=|[^\sA-Za-z_\d]/g;
  for (const match of sql.matchAll(pattern)) {
    const text = match[0];
    if (/^\s|^--|^\/\*/.test(text)) continue;
    if (text.startsWith("'") || text.startsWith('$') || text.startsWith(':') || /^\d/.test(text)) tokens.push({ kind: 'value', text });
    else if (text.startsWith('"')) tokens.push({ kind: 'word', text: text.slice(1, -1).replace(/""/g, '"') });
    else if (/^[A-Za-z_]/.test(text)) tokens.push({ kind: 'word', text: text.toLowerCase() });
    else tokens.push({ kind: 'punct', text });
  }
  return tokens;
}

/** `a.b.c` as one name: dotted words are joined (schema.table, alias.column). */
function joinDotted(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const previous = out[out.length - 1];
    if (token.kind === 'punct' && token.text === '.' && previous?.kind === 'word' && tokens[i + 1]?.kind === 'word') {
      out[out.length - 1] = { kind: 'word', text: `${previous.text}.${tokens[i + 1].text}` };
      i++;
    } else out.push(token);
  }
  return out;
}

interface Reference {
  table: string;
  alias: string;
  aliased: boolean;
  insertColumns?: string[];
}

function references(tokens: Token[]): Reference[] {
  const found: Reference[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind !== 'word' || !['from', 'join', 'update', 'into'].includes(token.text)) continue;
    const name = tokens[i + 1];
    if (name?.kind !== 'word') continue;
    const table = name.text.replace(/^public\./, '');
    if (!(DISTRIBUTED_TABLES as readonly string[]).includes(table)) continue;
    let j = i + 2;
    if (tokens[j]?.kind === 'word' && tokens[j].text === 'as') j++;
    const next = tokens[j];
    const aliased = next?.kind === 'word' && !CLAUSE_WORDS.has(next.text);
    const reference: Reference = { table, alias: aliased ? next.text : table, aliased };
    if (token.text === 'into' && tokens[i + 2]?.text === '(') {
      const columns: string[] = [];
      for (let k = i + 3; k < tokens.length && tokens[k].text !== ')'; k++) if (tokens[k].kind === 'word') columns.push(tokens[k].text);
      reference.insertColumns = columns;
    }
    found.push(reference);
  }
  return found;
}

/** Every `x = y` in the statement, as the two operand tokens. */
function equalities(tokens: Token[]): [Token, Token][] {
  const pairs: [Token, Token][] = [];
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (tokens[i].kind !== 'punct' || tokens[i].text !== '=') continue;
    const right = tokens[i + 2]?.text === '::' || tokens[i + 2]?.text === '(' ? undefined : tokens[i + 1];
    if (right && !(right.kind === 'word' && right.text === 'any')) pairs.push([tokens[i - 1], right]);
    // CAST($1 AS text) = x.user_id and x.user_id = CAST($1 AS text)
    if (tokens[i + 1]?.text === 'cast' && tokens[i + 3]?.kind === 'value') pairs.push([tokens[i - 1], tokens[i + 3]]);
    if (tokens[i + 1]?.kind === 'value' && tokens[i + 2]?.text === '::') pairs.push([tokens[i - 1], tokens[i + 1]]);
  }
  return pairs;
}

export interface ShardFinding {
  table: string;
  alias: string;
  problem: string;
}

/** What keeps `sql` from being a single-shard router query; empty when it is one (or touches no distributed table). */
export function singleShardFindings(sql: string): ShardFinding[] {
  const tokens = joinDotted(tokenize(sql));
  const refs = references(tokens);
  if (refs.length === 0) return [];
  const pairs = equalities(tokens);
  const userColumn = (ref: Reference): string[] => (ref.aliased ? [`${ref.alias}.user_id`] : [`${ref.alias}.user_id`, 'user_id']);

  const pinned = new Set<string>();
  for (const ref of refs) {
    if (ref.insertColumns?.includes('user_id')) pinned.add(ref.alias);
    const columns = userColumn(ref);
    for (const [a, b] of pairs) {
      if (
        (a.kind === 'word' && columns.includes(a.text) && b.kind === 'value') ||
        (b.kind === 'word' && columns.includes(b.text) && a.kind === 'value')
      ) {
        pinned.add(ref.alias);
      }
    }
  }
  // co-located joins: a.user_id = b.user_id carries a pin from one side to the other
  for (let changed = true; changed;) {
    changed = false;
    for (const ref of refs) {
      if (pinned.has(ref.alias)) continue;
      const columns = userColumn(ref);
      for (const [a, b] of pairs) {
        const other = columns.includes(a.text) ? b : columns.includes(b.text) ? a : undefined;
        const otherAlias = other?.kind === 'word' && other.text.endsWith('.user_id') ? other.text.slice(0, -'.user_id'.length) : undefined;
        if (otherAlias && pinned.has(otherAlias)) {
          pinned.add(ref.alias);
          changed = true;
        }
      }
    }
  }
  return refs
    .filter((ref) => !pinned.has(ref.alias))
    .map((ref) => ({
      table: ref.table,
      alias: ref.alias,
      problem: ref.insertColumns ? 'INSERT without a user_id column' : `no ${ref.aliased ? `${ref.alias}.` : ''}user_id = <one value>`,
    }));
}
