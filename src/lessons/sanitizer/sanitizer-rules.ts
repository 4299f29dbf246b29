import { ANOMALY_RULES } from './anomalies';
import { OBFUSCATION_RULES } from './obfuscation-findings';
import { ADDRESSED_TO_AI_RULES } from './rules/addressed-to-ai.rules';
import { CHAT_TEMPLATE_RULES } from './rules/chat-template.rules';
import { EXFILTRATION_RULES } from './rules/exfiltration.rules';
import { HIDDEN_INSTRUCTION_RULES } from './rules/hidden-instruction.rules';
import { INSTRUCTION_OVERRIDE_RULES } from './rules/instruction-override.rules';
import { PERSISTENT_OVERRIDE_RULES } from './rules/persistent-override.rules';
import { ROLE_HIJACK_RULES } from './rules/role-hijack.rules';
import { TOOL_INJECTION_RULES } from './rules/tool-injection.rules';
import type { PatternRule, SanitizerRuleInfo } from './sanitizer.types';

/** Every text rule, in the order findings are reported. */
export const PATTERN_RULES: readonly PatternRule[] = [
  ...INSTRUCTION_OVERRIDE_RULES,
  ...ROLE_HIJACK_RULES,
  ...CHAT_TEMPLATE_RULES,
  ...HIDDEN_INSTRUCTION_RULES,
  ...PERSISTENT_OVERRIDE_RULES,
  ...EXFILTRATION_RULES,
  ...TOOL_INJECTION_RULES,
  ...ADDRESSED_TO_AI_RULES,
];

/**
 * The documented rule set: id, category, severity and description of every rule the sanitizer
 * can report (text rules, obfuscation, anomalies). Ids are stable; lessons store them in metadata.
 */
export const SANITIZER_RULES: readonly SanitizerRuleInfo[] = [...PATTERN_RULES, ...OBFUSCATION_RULES, ...ANOMALY_RULES].map(
  ({ id, category, severity, description, escalatesWithBlock }) =>
    escalatesWithBlock ? { id, category, severity, description, escalatesWithBlock } : { id, category, severity, description },
);
