/** Agents, health and runtime configuration. */

export interface AgentTrustOptions {
  userId: string;
  agentId: string;
}

export interface AgentTrust {
  agentId: string;
  /** 0..1; 0.5 for an agent never set. */
  trustLevel: number;
}

export interface SetAgentTrustOptions extends AgentTrustOptions {
  trustLevel: number;
  /** Omitted: the stored name is kept. */
  displayName?: string;
}

export interface AgentTrustRecord extends AgentTrust {
  displayName: string | null;
}

export interface HealthStatus {
  status: string;
}

/** Fields `updateConfig` may change while the service runs. */
export interface RuntimeConfigPatch {
  maxSearchResults?: number;
  lessonsEnabled?: boolean;
  lessonSimilarityThreshold?: number;
  trustScoringEnabled?: boolean;
  trustScoreMinThreshold?: number;
  audnCandidateThreshold?: number;
  duplicateThreshold?: number;
  trustedSourceSites?: readonly string[];
}

/** The effective config: the runtime fields, plus startup-only selections for reference. */
export interface EffectiveConfig {
  maxSearchResults: number;
  lessonsEnabled: boolean;
  lessonSimilarityThreshold: number;
  trustScoringEnabled: boolean;
  trustScoreMinThreshold: number;
  audnCandidateThreshold: number;
  duplicateThreshold: number;
  trustedSourceSites?: string[];
  embeddingProvider?: string;
  embeddingModel?: string;
  embeddingDimensions?: number;
  llmProvider?: string;
  llmModel?: string | null;
  runtimeConfigMutationEnabled?: boolean;
  [field: string]: unknown;
}

export interface MemoriesHealth {
  status: string;
  config: EffectiveConfig;
}

export interface ConfigUpdateResult {
  /** The changed fields, camelCased like the patch. */
  applied: string[];
  config: EffectiveConfig;
}
