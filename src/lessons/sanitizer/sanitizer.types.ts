/**
 * Shapes shared by the input sanitizer. The ingest pipeline turns block findings into an
 * `injection_blocked` lesson (spec 2.5): 1-2 block findings -> `high`, 3 or more -> `critical`,
 * so every rule is one distinct technique and is reported at most once per input.
 */

export type SanitizerSeverity = 'block' | 'warn';

export type SanitizerCategory =
  | 'instruction-override'
  | 'role-hijack'
  | 'chat-template'
  | 'hidden-instruction'
  | 'persistent-override'
  | 'exfiltration'
  | 'tool-injection'
  | 'addressed-to-ai'
  | 'obfuscation'
  | 'anomaly';

export interface SanitizerFinding {
  ruleId: string;
  category: string;
  severity: SanitizerSeverity;
  /** At most 80 characters of the normalised text around the match. */
  excerpt: string;
}

export interface SanitizerResult {
  /** True iff at least one finding has severity `block`. */
  blocked: boolean;
  findings: SanitizerFinding[];
  /** The text the rules saw (NFKC, invisibles removed, lowercased, de-obfuscated, whitespace collapsed). */
  normalized: string;
}

/** What the README documents about a rule; no matching logic. */
export interface SanitizerRuleInfo {
  readonly id: string;
  readonly category: SanitizerCategory;
  readonly severity: SanitizerSeverity;
  readonly description: string;
  /** Obfuscation rules: reported as `block` when a block rule matched the de-obfuscated text. */
  readonly escalatesWithBlock?: boolean;
}

/** A text rule: one technique, any number of patterns (several languages), matched on the normalised copies. */
export interface PatternRule extends SanitizerRuleInfo {
  /** Lower-case patterns with the `g` flag; they run against already-lowercased text. */
  readonly patterns: readonly RegExp[];
  /**
   * True for phrase rules whose trigger words can be quoted in a discussion
   * ("the 'ignore previous instructions' attack"); see meta-mention.ts.
   */
  readonly allowQuotedMention?: boolean;
}
