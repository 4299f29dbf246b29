import { assertNever } from '../common/errors/domain-error';
import type { Principal } from '../common/identity/principal';

/** Who produced a lesson: the agent (and its workspace) whose write or report it came from; none for the user's own. */
export interface LessonProducer {
  agentId: string | null;
  workspaceId: string | null;
}

/** What an agent sees in place of a lesson's text it may not read. */
export const WITHHELD_PATTERN = '(withheld: produced by another agent)';

/**
 * A lesson's pattern holds up to 200 characters of what was rejected (an `agent_only` write
 * included), so its text is readable only by the user (a user key, a service key, AUTH_MODE=off)
 * and by the agent whose write or report produced it (issue 20, finding 6). Every other agent
 * key of the user sees the lesson's type, severity, id and rules, never the text.
 */
export function mayReadLessonText(principal: Principal, producer: LessonProducer): boolean {
  switch (principal.kind) {
    case 'open':
    case 'service':
    case 'user':
      return true;
    case 'agent':
      return producer.agentId === principal.agentId && producer.workspaceId === principal.workspaceId;
    default:
      return assertNever(principal);
  }
}

/** The producer named in a lesson's metadata (agentId, workspaceId: set by the write gate and agent reports). */
export function producerOf(metadata: Record<string, unknown> | null | undefined): LessonProducer {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { agentId: text(metadata?.agentId), workspaceId: text(metadata?.workspaceId) };
}

/** The rule ids in a lesson's metadata (injection lessons), else []. */
export function rulesOf(metadata: Record<string, unknown> | null | undefined): string[] {
  const rules = metadata?.rules;
  return Array.isArray(rules) ? rules.filter((rule): rule is string => typeof rule === 'string') : [];
}
