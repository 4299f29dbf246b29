/** CONTRACT section 9. */
export const LIMITS = {
  conversation: 100_000,
  query: 10_000,
  metadataBytes: 32 * 1024,
  expandIds: 100,
  pageSize: 100,
  sourceSite: 512,
  sourceUrl: 2048,
  namespace: 256,
} as const;
