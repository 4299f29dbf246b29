/** Iterative-scan budget before the exact plan takes over (pgvector default 20,000). */
export const HNSW_MAX_SCAN_TUPLES = 20_000;

/**
 * The settings the HNSW plan runs with (VectorSearch.indexedNearest explains each), for a
 * search of k rows at `efSearch`. The same for every k up to efSearch / 2, so one session
 * configured with them (the indexed pool) serves every search of a deployment's tuning.
 */
export function hnswSessionSettings(efSearch: number, k: number): Record<string, string> {
  return {
    'hnsw.iterative_scan': 'relaxed_order',
    'hnsw.ef_search': String(Math.min(1000, Math.max(efSearch, k * 2))),
    'hnsw.max_scan_tuples': String(HNSW_MAX_SCAN_TUPLES),
    enable_sort: 'off',
    jit: 'off',
    // Planned with the caller's values, so that a scope's own graph (a partial HNSW index
    // whose predicate names the user and workspace: tenant-graphs.ts) can be proven to
    // apply; a generic plan could not use it.
    plan_cache_mode: 'force_custom_plan',
  };
}

/**
 * The settings of a session that serves every HNSW search at `efSearch` of up to efSearch / 2
 * rows (the indexed pools: one for search/fast's tuning, one for /search's fusion candidates).
 */
export function hnswPoolSettings(efSearch: number): Record<string, string> {
  return hnswSessionSettings(efSearch, 1);
}
