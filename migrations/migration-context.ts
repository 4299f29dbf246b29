/**
 * Values migrations need from the running configuration. prepareDatabase() sets them
 * before it runs pending migrations; the vector columns are created with this dimension.
 */
export const migrationContext = {
  embeddingDimensions: 384,
  /** The configured embedder (`provider/model/dimensions`): what made the rows that already exist. */
  embeddingIdentity: 'local/glove-6b-100d-sif-v2/384',
};
