import { AnchorIndex } from './anchor-index';
import type { SegmentedCopy } from './glued-words';
import { isQuotedMention } from './meta-mention';
import { anchorsOf } from './pattern-anchors';
import type { PatternRule } from './sanitizer.types';

export interface RuleHit {
  rule: PatternRule;
  /** Index range in the normalised text (the aggressive copy is index-aligned with it). */
  start: number;
  end: number;
}

/** A text the rules run on, with a map back to the normalised text when not index-aligned. */
interface Copy {
  text: string;
  map: Int32Array | null;
}

interface CompiledPattern {
  pattern: RegExp;
  /** Anchor ids of which at least one must occur; null when the pattern always runs. */
  anchors: number[] | null;
}

function anyFound(anchors: number[], found: Uint8Array): boolean {
  for (let i = 0; i < anchors.length; i++) if (found[anchors[i]] === 1) return true;
  return false;
}

/**
 * Runs a rule set over the normalised text and its matching copies, reporting each rule at most
 * once. Patterns whose literal anchors (pattern-anchors.ts) are absent are skipped: with a few
 * hundred multilingual patterns this is what keeps a typical memory cheap to judge
 * (docs/security.md, "Cost").
 */
export class RuleMatcher {
  private readonly index: AnchorIndex;
  private readonly compiled: { rule: PatternRule; patterns: CompiledPattern[] }[];

  /** `prefilter: false` runs every pattern; tests use it to show the prefilter changes nothing. */
  constructor(rules: readonly PatternRule[], options: { prefilter?: boolean } = {}) {
    const prefilter = options.prefilter ?? true;
    const anchorsByPattern = new Map<RegExp, string[] | null>();
    const all = new Set<string>();
    for (const rule of rules) {
      for (const pattern of rule.patterns) {
        const anchors = prefilter ? anchorsOf(pattern.source) : null;
        anchorsByPattern.set(pattern, anchors);
        anchors?.forEach((anchor) => all.add(anchor));
      }
    }
    this.index = new AnchorIndex(all);
    this.compiled = rules.map((rule) => ({
      rule,
      patterns: rule.patterns.map((pattern) => {
        const anchors = anchorsByPattern.get(pattern) ?? null;
        return { pattern, anchors: anchors && [...new Set(anchors)].map((anchor) => this.index.idOf(anchor)) };
      }),
    }));
  }

  /**
   * The first hit of every rule that matches, in rule order. `quotedMentions` applies the
   * discussion exemption (meta-mention.ts) to the rules that allow it.
   */
  matchAll(normalized: string, aggressive: string | null, quotedMentions = true, segmented: SegmentedCopy | null = null): RuleHit[] {
    const copies: Copy[] = [{ text: normalized, map: null }];
    if (aggressive !== null) copies.push({ text: aggressive, map: null });
    if (segmented !== null) copies.push(segmented);
    const found = copies.map((copy) => this.index.scan(copy.text));
    const hits: RuleHit[] = [];
    for (const { rule, patterns } of this.compiled) {
      const hit = this.firstHit(rule, patterns, copies, found, normalized, quotedMentions);
      if (hit) hits.push(hit);
    }
    return hits;
  }

  private firstHit(
    rule: PatternRule,
    patterns: CompiledPattern[],
    copies: Copy[],
    found: Uint8Array[],
    normalized: string,
    quotedMentions: boolean,
  ): RuleHit | null {
    for (let c = 0; c < copies.length; c++) {
      for (const { pattern, anchors } of patterns) {
        if (anchors !== null && !anyFound(anchors, found[c])) continue;
        const { text, map } = copies[c];
        pattern.lastIndex = 0;
        let match: RegExpExecArray | null;
        while ((match = pattern.exec(text)) !== null) {
          if (match[0].length === 0) pattern.lastIndex++;
          // Positions in the normalised text; the segmented copy maps back through its table.
          const start = map ? map[match.index] : match.index;
          const end = map ? map[match.index + match[0].length - 1] + 1 : match.index + match[0].length;
          // Quote boundaries are read on the normalised text: the aggressive copy blanks some punctuation.
          if (quotedMentions && rule.allowQuotedMention && isQuotedMention(normalized, start, end)) continue;
          return { rule, start, end };
        }
      }
    }
    return null;
  }
}
