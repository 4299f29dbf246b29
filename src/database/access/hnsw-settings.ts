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
 * The indexed pools' sessions (memory-access.module.ts): search/fast's tuning for its default
 * 10 rows, and /search's fusion tuning for its default 40 candidates (4 x the default limit;
 * retrieval/search.service.ts). A search whose settings match neither (a larger limit, an
 * ef_search under twice the rows) sets its own in a short transaction.
 */
export function hnswPoolSettings(efSearch: number, fusionEfSearch: number): Record<string, string>[] {
  const exact = hnswSessionSettings(efSearch, 10);
  const fusion = hnswSessionSettings(fusionEfSearch, 40);
  return exact['hnsw.ef_search'] === fusion['hnsw.ef_search'] ? [exact] : [exact, fusion];
}
