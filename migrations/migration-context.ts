/**
 * Values migrations need from the running configuration. prepareDatabase() sets them
 * before it runs pending migrations; the vector columns are created with this dimension.
 */
export const migrationContext = {
  embeddingDimensions: 384,
};
