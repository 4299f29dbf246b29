import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import type { SameKeys, VisibilityExplanationWire, WireHiddenBecause, WireVisibility, WireVisibilityRule } from '../contract/wire-types';
import { VISIBILITY_MODES } from '../database/access/visibility';
import { AGENT_EXAMPLE, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from '../openapi/scope.schema';

/** Response shape of GET /v1/admin/explain (src/inspector/explain.service.ts). */

const RULES: WireVisibilityRule[] = ['owner', 'workspace', 'grant', 'not_visible'];
const HIDDEN_BECAUSE: WireHiddenBecause[] = [
  'deleted',
  'superseded',
  'expired',
  'personal_memory',
  'other_workspace',
  'agent_only',
  'restricted_without_grant',
  'other',
];

type Conditions = VisibilityExplanationWire['conditions'];
type ExplainedMemory = VisibilityExplanationWire['memory'];

@ApiSchema({ name: 'ReadRuleConditions' })
export class ReadRuleConditionsDoc implements Conditions {
  @ApiProperty({ type: Boolean, description: 'The memory is the agent’s own.', example: false })
  owner: boolean;

  @ApiProperty({ type: Boolean, description: 'Its visibility is `workspace` or NULL (legacy).', example: false })
  workspace: boolean;

  @ApiProperty({ type: Boolean, description: 'It is `restricted` and the agent has a grant on it.', example: true })
  grant: boolean;
}

@ApiSchema({ name: 'ExplainedMemory' })
export class ExplainedMemoryDoc implements ExplainedMemory {
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'null: a personal (user-scope) memory.',
    example: WORKSPACE_EXAMPLE,
  })
  workspace_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The owning agent.', example: AGENT_EXAMPLE })
  agent_id: string | null;

  @ApiProperty({ type: String, enum: VISIBILITY_MODES, nullable: true, example: 'restricted' })
  visibility: WireVisibility | null;

  @ApiProperty({ type: Boolean, example: false })
  deleted: boolean;

  @ApiProperty({ type: Boolean, example: false })
  superseded: boolean;

  @ApiProperty({ type: Boolean, description: 'Past its `expires_at`.', example: false })
  expired: boolean;
}

@ApiSchema({ name: 'VisibilityExplanation' })
export class VisibilityExplanationDoc implements VisibilityExplanationWire {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  memory_id: string;

  @ApiProperty({ type: String, example: 'alice' })
  user_id: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The workspace asked about.', example: WORKSPACE_EXAMPLE })
  workspace_id: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The agent asked about.', example: AGENT_EXAMPLE })
  agent_id: string;

  @ApiProperty({ type: Boolean, description: 'The read predicate itself (agent_scope `all`) on this row.', example: true })
  visible: boolean;

  @ApiProperty({
    type: String,
    enum: RULES,
    description: 'The alternative of the read rule that lets it through (owner before workspace before grant), or `not_visible`.',
    example: 'grant',
  })
  rule: WireVisibilityRule;

  @ApiProperty({
    type: String,
    enum: HIDDEN_BECAUSE,
    nullable: true,
    description: 'Why it is not visible (null when it is): the first of these facts that holds.',
    example: null,
  })
  hidden_because: WireHiddenBecause | null;

  @ApiProperty({ type: ReadRuleConditionsDoc, description: 'Each alternative of the read rule on this row, for this agent.' })
  conditions: ReadRuleConditionsDoc;

  @ApiProperty({ type: ExplainedMemoryDoc, description: 'Where the memory is; never its content.' })
  memory: ExplainedMemoryDoc;
}

// The compiler refuses a class that drifts from its wire shape (extra or missing keys).
const _explanationKeys: SameKeys<VisibilityExplanationDoc, VisibilityExplanationWire> = true;
const _conditionKeys: SameKeys<ReadRuleConditionsDoc, Conditions> = true;
const _memoryKeys: SameKeys<ExplainedMemoryDoc, ExplainedMemory> = true;
