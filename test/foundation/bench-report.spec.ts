import type { LoadResult, Target } from '../../bench/load';
import { currentFigures, type FiguresRun } from '../../bench/report';

/**
 * docs/benchmarks.md opens with the current figures (bench/report.ts, currentFigures): per
 * database, a table per route with one row per scope class, before the machine, the plans and
 * the dated notes.
 */
function load(
  route: LoadResult['route'],
  scope: LoadResult['scope'],
  size: LoadResult['size'],
  connections: number,
  rps: number,
): LoadResult {
  return {
    route,
    scope,
    size,
    connections,
    requests: rps * 10,
    rps,
    p50: rps / 100,
    p95: rps / 50,
    p99: rps / 10,
    max: rps,
    errors: 0,
    non2xx: 0,
    rssMaxMb: 200,
    serverCpuMs: 1.25,
    databaseCpuMs: 3.5,
    driverCpuMs: 0.1,
    otherCores: 0,
  };
}

const target = (scope: Target['scope'], size: Target['size'], rows: number[]): Target => ({
  scope,
  size,
  callers: rows.map((visibleRows, i) => ({ visibleRows, user: `u${i}` }) as unknown as Target['callers'][number]),
});

describe('the current figures at the top of docs/benchmarks.md', () => {
  const postgres: FiguresRun = {
    kind: 'postgres',
    scale: 1,
    corpus: { memories: 1_016_257 },
    targets: [target('user', 'small', [20, 272]), target('workspace', 'large', [30_127, 35_878])],
    load: [
      load('search', 'workspace', 'large', 4, 70),
      load('search', 'workspace', 'large', 32, 72),
      load('search', 'user', 'small', 4, 806),
      load('search', 'user', 'small', 32, 835),
      load('get', 'user', 'small', 32, 3_776),
    ],
  };

  it('give each route a table with a row per scope class, in class order, from the 4- and 32-connection runs', () => {
    const text = currentFigures([postgres]);
    expect(text.startsWith('## Current figures\n')).toBe(true);
    expect(text).toContain('### PostgreSQL: 1,016,257 memories (scale 1)');
    const search = text.slice(text.indexOf('#### search\n'), text.indexOf('#### get\n'));
    const rows = search
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| scope class') && !line.startsWith('| ---'));
    expect(rows).toEqual([
      '| user, small | 20–272 | 806 | 8.06 ms | 16.12 ms | 835 | 83.50 ms | 1.25 / 3.50 ms |',
      '| workspace, largest | 30,127–35,878 | 70 | 0.70 ms | 1.40 ms | 72 | 7.20 ms | 1.25 / 3.50 ms |',
    ]);
    // a route measured at 32 connections only still has its row; routes never run have no table
    expect(text).toContain('| user, small | 20–272 | – | – | – | 3,776 | 377.60 ms | 1.25 / 3.50 ms |');
    expect(text).not.toContain('#### search/fast');
    expect(text.indexOf('#### search\n')).toBeLessThan(text.indexOf('#### get\n'));
  });

  it('say the embedded database has no database CPU of its own', () => {
    const text = currentFigures([{ ...postgres, kind: 'embedded', scale: 0.02, corpus: { memories: 21_063 } }]);
    expect(text).toContain('### Embedded database (PGlite): 21,063 memories (scale 0.02)');
    expect(text).toContain('| 1.25 / in service |');
    expect(text).not.toContain('/ 3.50 ms');
  });
});
