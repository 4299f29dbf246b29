import type { WriterScopeInput } from 'atrium/client';

/**
 * Who is asking: a user's personal memories (`{ userId }`), a workspace as one agent
 * (`{ userId, workspaceId, agentId }`), or `{}` with an API-key client (the service takes the
 * scope from the key). Given by the application, never by a model.
 */
export type AtriumScope = WriterScopeInput;
