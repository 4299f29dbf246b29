export type QueryValue = string | number | boolean | Date | readonly string[] | null | undefined;

/**
 * Atrium parses query strings with `qs`, which turns more than 20 repetitions of a parameter
 * into an object instead of an array; the scope parser then rejects it. The only list sent in
 * a query string is `agent_scope`, which also accepts a comma-separated value (its items are
 * UUIDs, never containing commas), so longer lists are sent that way.
 */
const MAX_REPEATED = 20;

/**
 * `?a=1&b=x` from already snake-cased params: arrays as repeated parameters, Dates as
 * ISO-8601, `undefined`/`null` left out. Empty string when nothing is left.
 */
export function toQueryString(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const items = value as readonly string[];
      if (items.length > MAX_REPEATED) search.append(name, items.join(','));
      else for (const item of items) search.append(name, item);
    } else if (value instanceof Date) {
      search.append(name, value.toISOString());
    } else {
      search.append(name, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
