export { atriumTools, type AtriumToolsOptions, type RecallResult, type RecalledMemory, type RememberResult } from './tools';
export { atriumMemoryMiddleware, type AtriumMemoryMiddlewareOptions } from './middleware';
export { renderMemories, type AtriumBinding, type AtriumScope } from './scope';
