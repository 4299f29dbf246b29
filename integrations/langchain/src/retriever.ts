import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import type { AtriumClient, ScopeInput } from 'atrium/client';

export interface AtriumRetrieverInput extends BaseRetrieverInput {
  client: AtriumClient;
  /** Who is asking (`{}` with an API key: the key's scope); in a workspace `agentScope` may narrow whose memories. */
  scope?: ScopeInput;
  /** Documents per query (1..100). Default 5. */
  k?: number;
  /** `hybrid` (vector + full text, the default) or `vector` (search/fast). */
  mode?: 'hybrid' | 'vector';
}

/**
 * Atrium memories as LangChain documents: `pageContent` is the memory's text, the document id
 * its memory id, and `metadata` holds the score, dates, agent and visibility, plus the memory's
 * own metadata under `metadata`. A query that a critical lesson fails closed returns no document.
 */
export class AtriumRetriever extends BaseRetriever {
  override lc_namespace = ['atrium', 'retrievers'];

  private readonly client: AtriumClient;
  private readonly scope: ScopeInput;
  private readonly k: number;
  private readonly mode: 'hybrid' | 'vector';

  constructor(fields: AtriumRetrieverInput) {
    super(fields);
    this.client = fields.client;
    this.scope = fields.scope ?? {};
    this.k = fields.k ?? 5;
    this.mode = fields.mode ?? 'hybrid';
  }

  override async _getRelevantDocuments(query: string): Promise<Document[]> {
    const options = { ...this.scope, query, limit: this.k };
    const result = this.mode === 'vector' ? await this.client.searchFast(options) : await this.client.search(options);
    if (result.lessonCheck?.safe === false) return [];
    return result.memories.map(
      (hit) =>
        new Document({
          id: hit.id,
          pageContent: hit.content,
          metadata: {
            id: hit.id,
            score: hit.score,
            similarity: hit.similarity,
            createdAt: hit.createdAt,
            sourceSite: hit.sourceSite,
            agentId: hit.agentId,
            visibility: hit.visibility,
            metadata: hit.metadata,
          },
        }),
    );
  }
}
