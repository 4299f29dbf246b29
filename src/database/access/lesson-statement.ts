/**
 * The check MemoryAccess.userQuery runs on hand-written lesson SQL before sending it: the
 * statement touches the `lessons` table and no other table, and every query level that reads
 * or changes lessons rows is pinned to the caller's user, `$1`:
 * - SELECT / UPDATE / DELETE: its WHERE has `user_id = $1` (bare, or qualified by the lessons
 *   alias) as one of its top-level AND terms, and no top-level OR (which could widen it);
 * - INSERT: `INSERT INTO lessons (user_id, ...) VALUES ($1, ...)`, one row, and an ON CONFLICT
 *   that either does nothing or names user_id in its target (so DO UPDATE can only reach the
 *   caller's own row).
 * One lessons reference per query level (no self-join), one statement (no `;` before the
 * end). The SQL is tokenized, not pattern-matched: keywords in any case, quoted identifiers
 * (`"Memories"` is memories), comments, string and dollar-quoted literals are all read as
 * PostgreSQL reads them. Relations in FROM/JOIN/INTO/UPDATE/USING/TABLE position must be
 * `lessons` or a name the statement's own WITH defines; a function in FROM must be one of a
 * few set-returning built-ins; a string literal must not carry SQL or a relation cast (no
 * dynamic SQL through query_to_xml and the like).
 *
 * It guards the project's own statements against mistakes (a forgotten tenant key, a copied
 * statement aimed at another table); it is one layer, beside the lint rules that keep tenant
 * SQL inside src/database/access and the userQuery statement written in place.
 */

export class LessonStatementError extends Error {
  constructor(reason: string) {
    super(`userQuery: ${reason}`);
    this.name = 'LessonStatementError';
  }
}

type Token =
  | { kind: 'word'; text: string } // keyword or unquoted identifier, lower-cased
  | { kind: 'ident'; text: string } // "quoted" identifier, as written
  | { kind: 'string'; text: string }
  | { kind: 'param'; text: string } // $1, $2 ...
  | { kind: 'number'; text: string }
  | { kind: 'punct'; text: string }; // ( ) , ; . and operator runs

const TABLE = 'lessons';
/** Set-returning functions a lesson statement may read FROM (over its own values). */
const FROM_FUNCTIONS = new Set(['unnest', 'generate_series', 'jsonb_array_elements', 'jsonb_array_elements_text']);
/** Literal text that is SQL or names a relation: refused (dynamic SQL, regclass casts). */
const SQL_IN_LITERAL =
  /\b(select|insert|update|delete|merge|from|into|join|table|truncate|copy|memories|episodes|memory_visibility_grants|memory_access_counts|lessons|api_keys|audit_events|agents)\b/i;
const RELATION_CASTS = new Set(['regclass', 'regproc', 'regprocedure', 'regnamespace']);
/** Words that start a query inside parentheses (a subquery or a WITH body). */
const QUERY_STARTS = new Set(['select', 'with', 'insert', 'update', 'delete', 'table', 'values', 'merge']);
const SET_OPERATORS = new Set(['union', 'intersect', 'except']);
const WHERE_ENDS = new Set(['group', 'order', 'limit', 'offset', 'having', 'window', 'returning', 'for', 'fetch']);

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      // Block comments nest in PostgreSQL.
      let depth = 0;
      do {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      } while (depth > 0 && i < n);
      if (depth > 0) throw new LessonStatementError('unterminated comment');
    } else if (c === "'" || ((c === 'e' || c === 'E') && sql[i + 1] === "'")) {
      const escapes = c !== "'";
      i += escapes ? 2 : 1;
      let text = '';
      for (;;) {
        if (i >= n) throw new LessonStatementError('unterminated string literal');
        if (escapes && sql[i] === '\\') {
          text += sql[i + 1] ?? '';
          i += 2;
        } else if (sql[i] === "'" && sql[i + 1] === "'") {
          text += "'";
          i += 2;
        } else if (sql[i] === "'") {
          i++;
          break;
        } else text += sql[i++];
      }
      tokens.push({ kind: 'string', text });
    } else if (c === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= n) throw new LessonStatementError('unterminated quoted identifier');
        if (sql[i] === '"' && sql[i + 1] === '"') {
          text += '"';
          i += 2;
        } else if (sql[i] === '"') {
          i++;
          break;
        } else text += sql[i++];
      }
      tokens.push({ kind: 'ident', text });
    } else if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      let j = i + 1;
      while (j < n && /[0-9]/.test(sql[j])) j++;
      tokens.push({ kind: 'param', text: sql.slice(i, j) });
      i = j;
    } else if (c === '$') {
      // Dollar quoting: $tag$ ... $tag$ (tag may be empty).
      const tag = /^\$[A-Za-z_\u0080-\uffff]?[A-Za-z0-9_\u0080-\uffff]*\$/.exec(sql.slice(i, i + 64));
      if (!tag) throw new LessonStatementError('stray $');
      const end = sql.indexOf(tag[0], i + tag[0].length);
      if (end === -1) throw new LessonStatementError('unterminated dollar-quoted literal');
      tokens.push({ kind: 'string', text: sql.slice(i + tag[0].length, end) });
      i = end + tag[0].length;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j])) j++;
      // U&'...' and U&"..." (Unicode escapes) are not used here and would hide text: refused.
      if (sql.slice(i, j).toLowerCase() === 'u' && sql[j] === '&') throw new LessonStatementError('U& literals are not accepted');
      tokens.push({ kind: 'word', text: sql.slice(i, j).toLowerCase() });
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9.eE]/.test(sql[j])) j++;
      tokens.push({ kind: 'number', text: sql.slice(i, j) });
      i = j;
    } else if ('(),;[].'.includes(c)) {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else {
      let j = i + 1;
      while (j < n && '+-*/<>=~!@#%^&|`?:'.includes(sql[j]) && !(sql[j] === '-' && sql[j + 1] === '-')) j++;
      tokens.push({ kind: 'punct', text: sql.slice(i, j) });
      i = j;
    }
  }
  return tokens;
}

const isWord = (t: Token | undefined, ...words: string[]): boolean => t?.kind === 'word' && words.includes(t.text);
const isPunct = (t: Token | undefined, text: string): boolean => t?.kind === 'punct' && t.text === text;
/** A name token (unquoted, lower-cased; or quoted, exact). */
const nameOf = (t: Token | undefined): string | null => (t && (t.kind === 'word' || t.kind === 'ident') ? t.text : null);

/** One query level: its tokens (nested parentheses included, as tokens) from `start` to `end`. */
interface Level {
  start: number;
  end: number;
}

/** Index of the `)` that closes the `(` at `open`. */
function closing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (isPunct(tokens[i], '(')) depth++;
    else if (isPunct(tokens[i], ')') && --depth === 0) return i;
  }
  throw new LessonStatementError('unbalanced parentheses');
}

/** The query levels: the whole statement, and every parenthesis whose first token starts a query. */
function queryLevels(tokens: Token[]): Level[] {
  const levels: Level[] = [{ start: 0, end: tokens.length }];
  for (let i = 0; i < tokens.length; i++) {
    if (isPunct(tokens[i], '(')) {
      const close = closing(tokens, i);
      if (isWord(tokens[i + 1], ...QUERY_STARTS)) levels.push({ start: i + 1, end: close });
    }
  }
  return levels;
}

/** The top-level token indexes of a level (skipping nested parentheses). */
function topLevel(tokens: Token[], level: Level): number[] {
  const out: number[] = [];
  for (let i = level.start; i < level.end; i++) {
    out.push(i);
    if (isPunct(tokens[i], '(')) i = closing(tokens, i);
  }
  return out;
}

/** Names the statement's WITH clauses define (`name AS (`, `name(cols) AS (`). */
function cteNames(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    const name = nameOf(tokens[i]);
    if (!name) continue;
    let j = i + 1;
    if (isPunct(tokens[j], '(') && !isWord(tokens[i], 'as')) j = closing(tokens, j) + 1;
    if (!isWord(tokens[j], 'as')) continue;
    let k = j + 1;
    if (isWord(tokens[k], 'not')) k++;
    if (isWord(tokens[k], 'materialized')) k++;
    const before = tokens[i - 1];
    if (isPunct(tokens[k], '(') && (isWord(before, 'with', 'recursive') || isPunct(before, ','))) names.add(name);
  }
  return names;
}

interface Relation {
  /** Token index of the relation's (last) name. */
  at: number;
  name: string;
  alias: string | null;
  keyword: string;
}

/**
 * The relations named at a level's top level (FROM lists, JOIN, INTO, UPDATE, USING, TABLE),
 * with their aliases. Functions in FROM are checked here; subqueries are levels of their own.
 */
function relationsOf(tokens: Token[], level: Level): Relation[] {
  const top = topLevel(tokens, level);
  const relations: Relation[] = [];
  for (let p = 0; p < top.length; p++) {
    const keyword = tokens[top[p]];
    if (!isWord(keyword, 'from', 'join', 'into', 'update', 'using', 'table', 'truncate', 'lock', 'copy')) continue;
    if (isWord(keyword, 'update') && (isWord(tokens[top[p + 1]], 'set', 'of', 'nowait', 'skip') || top[p + 1] === undefined)) continue;
    if (isWord(keyword, 'update') && isWord(tokens[top[p - 1]], 'key')) continue; // FOR NO KEY UPDATE
    let q = p + 1;
    for (;;) {
      while (isWord(tokens[top[q]], 'only', 'lateral')) q++;
      const first = tokens[top[q]];
      if (first === undefined) throw new LessonStatementError(`${keyword.text.toUpperCase()} without a relation`);
      if (isPunct(first, '(')) {
        // A subquery is a level of its own; a parenthesised join would hide its relations.
        if (!isWord(tokens[top[q] + 1], ...QUERY_STARTS) && !isWord(keyword, 'into', 'using')) {
          throw new LessonStatementError('parenthesised joins are not accepted');
        }
        q++;
      } else {
        // A possibly qualified name: schema.name
        let name = nameOf(first);
        if (name === null) throw new LessonStatementError(`unexpected ${first.text} after ${keyword.text.toUpperCase()}`);
        let at = top[q];
        while (isPunct(tokens[top[q + 1]], '.')) {
          if (name !== 'public') throw new LessonStatementError(`relation ${name}.${nameOf(tokens[top[q + 2]])} is not lessons`);
          q += 2;
          at = top[q];
          name = nameOf(tokens[at]);
          if (name === null) throw new LessonStatementError('a qualified name must end in a name');
        }
        q++;
        const call = isPunct(tokens[top[q]], '(') && !isWord(keyword, 'into');
        if (call) {
          if (!FROM_FUNCTIONS.has(name))
            throw new LessonStatementError(`function ${name} in ${keyword.text.toUpperCase()} is not accepted`);
          q++;
        } else {
          let alias: string | null = null;
          if (isWord(tokens[top[q]], 'as')) q++;
          const maybeAlias = tokens[top[q]];
          if (
            maybeAlias &&
            (maybeAlias.kind === 'ident' || (maybeAlias.kind === 'word' && !RESERVED_AFTER_RELATION.has(maybeAlias.text)))
          ) {
            alias = nameOf(maybeAlias);
            q++;
          }
          relations.push({ at, name, alias, keyword: keyword.text });
          if (isWord(keyword, 'into')) break;
        }
      }
      // Skip an alias after a subquery or function (and its column list), then look for `,`.
      if (isWord(tokens[top[q]], 'as')) q++;
      if (tokens[top[q]]?.kind === 'word' && !RESERVED_AFTER_RELATION.has(tokens[top[q]].text)) q++;
      else if (tokens[top[q]]?.kind === 'ident') q++;
      if (isPunct(tokens[top[q]], '(') && !isWord(keyword, 'into')) q++;
      if (isWord(keyword, 'from') && isPunct(tokens[top[q]], ',')) {
        q++;
        continue;
      }
      break;
    }
    p = q - 1;
  }
  return relations;
}

/** Words that can follow a relation and are not its alias. */
const RESERVED_AFTER_RELATION = new Set([
  'where',
  'join',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'natural',
  'on',
  'using',
  'group',
  'order',
  'limit',
  'offset',
  'having',
  'window',
  'union',
  'intersect',
  'except',
  'returning',
  'set',
  'values',
  'default',
  'select',
  'for',
  'fetch',
  'tablesample',
  'with',
  'do',
  'overriding',
]);

/** The top-level parts of a level split at UNION / INTERSECT / EXCEPT: each is one SELECT (or one write). */
function setOperands(tokens: Token[], level: Level): Level[] {
  const parts: Level[] = [];
  let start = level.start;
  for (const i of topLevel(tokens, level)) {
    if (isWord(tokens[i], ...SET_OPERATORS)) {
      parts.push({ start, end: i });
      start = i + 1;
    }
  }
  parts.push({ start, end: level.end });
  return parts;
}

/** Whether the WHERE of `part` (at its top level) is pinned to `user_id = $1` for `qualifiers`. */
function pinnedWhere(tokens: Token[], part: Level, qualifiers: Set<string>): boolean {
  const top = topLevel(tokens, part);
  const where = top.findIndex((i) => isWord(tokens[i], 'where'));
  if (where === -1) return false;
  const terms: number[][] = [[]];
  for (let p = where + 1; p < top.length; p++) {
    const t = tokens[top[p]];
    if (isWord(t, ...WHERE_ENDS)) break;
    if (isWord(t, 'or')) return false;
    // BETWEEN a AND b: that AND is not a conjunction.
    if (isWord(t, 'and') && !terms[terms.length - 1].some((i) => isWord(tokens[i], 'between'))) terms.push([]);
    else terms[terms.length - 1].push(top[p]);
  }
  return terms.some((term) => isUserKey(tokens, term, qualifiers));
}

/** `[q.]user_id = $1` or `$1 = [q.]user_id`, exactly. */
function isUserKey(tokens: Token[], term: number[], qualifiers: Set<string>): boolean {
  const t = term.map((i) => tokens[i]);
  const column = (from: number, to: number): boolean => {
    const part = t.slice(from, to);
    if (part.length === 1) return nameOf(part[0]) === 'user_id';
    return part.length === 3 && qualifiers.has(nameOf(part[0]) ?? '') && isPunct(part[1], '.') && nameOf(part[2]) === 'user_id';
  };
  const eq = t.findIndex((x) => isPunct(x, '='));
  if (eq === -1) return false;
  const isOne = (x: Token[]) => x.length === 1 && x[0].kind === 'param' && x[0].text === '$1';
  return (column(0, eq) && isOne(t.slice(eq + 1))) || (isOne(t.slice(0, eq)) && column(eq + 1, t.length));
}

/** INSERT INTO lessons (user_id, ...) VALUES ($1, ...), one row, with a safe ON CONFLICT. */
function pinnedInsert(tokens: Token[], relation: Relation): boolean {
  let i = relation.at + 1;
  if (!isPunct(tokens[i], '(') || nameOf(tokens[i + 1]) !== 'user_id') return false;
  i = closing(tokens, i) + 1;
  if (!isWord(tokens[i], 'values') || !isPunct(tokens[i + 1], '(')) return false;
  if (!(tokens[i + 2]?.kind === 'param' && tokens[i + 2].text === '$1' && (isPunct(tokens[i + 3], ',') || isPunct(tokens[i + 3], ')')))) {
    return false;
  }
  i = closing(tokens, i + 1) + 1;
  if (isPunct(tokens[i], ',')) return false; // a second row
  if (!isWord(tokens[i], 'on')) return true;
  if (!isWord(tokens[i + 1], 'conflict')) return false;
  i += 2;
  let namesUser = false;
  if (isPunct(tokens[i], '(')) {
    const close = closing(tokens, i);
    namesUser = topLevel(tokens, { start: i + 1, end: close }).some(
      (j) => nameOf(tokens[j]) === 'user_id' && (isPunct(tokens[j + 1], ',') || j + 1 === close),
    );
    i = close + 1;
    while (i < tokens.length && !isWord(tokens[i], 'do')) i++; // WHERE of a partial unique index
  }
  if (isWord(tokens[i], 'do') && isWord(tokens[i + 1], 'nothing')) return true;
  return namesUser && isWord(tokens[i], 'do') && isWord(tokens[i + 1], 'update');
}

/** Throws LessonStatementError unless `sql` is a lesson statement pinned to `user_id = $1`. */
export function checkLessonStatement(sql: string): void {
  const tokens = tokenize(sql);
  const semicolon = tokens.findIndex((t) => isPunct(t, ';'));
  if (semicolon !== -1 && semicolon !== tokens.length - 1) throw new LessonStatementError('one statement only');
  for (const t of tokens) {
    if (t.kind === 'string' && SQL_IN_LITERAL.test(t.text)) throw new LessonStatementError('a literal may not carry SQL or a table name');
    if (t.kind === 'word' && RELATION_CASTS.has(t.text)) throw new LessonStatementError(`${t.text} is not accepted`);
  }
  const ctes = cteNames(tokens);
  let lessons = 0;
  for (const level of queryLevels(tokens)) {
    for (const part of setOperands(tokens, level)) {
      const relations = relationsOf(tokens, part).filter((r) => !ctes.has(r.name) || r.name === TABLE);
      for (const r of relations) {
        if (r.name !== TABLE) throw new LessonStatementError(`the statement reaches ${r.name}: lessons only`);
      }
      if (relations.length === 0) continue;
      if (relations.length > 1) throw new LessonStatementError('one lessons reference per query level');
      lessons++;
      const [relation] = relations;
      const pinned =
        relation.keyword === 'into'
          ? pinnedInsert(tokens, relation)
          : pinnedWhere(tokens, part, new Set([TABLE, ...(relation.alias ? [relation.alias] : [])]));
      if (!pinned) throw new LessonStatementError('the statement does not bind user_id = $1');
    }
  }
  if (lessons === 0) throw new LessonStatementError('the statement does not bind user_id = $1 on lessons');
}
