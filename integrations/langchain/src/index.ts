export { AtriumStore, AtriumStoreError, type AtriumStoreOptions } from './store';
export { AtriumRetriever, type AtriumRetrieverInput } from './retriever';
export type { AtriumScope } from './scope';
