import { excerptAround, excerptOf } from './excerpt';
import type { NormalizedText } from './normalize-text';
import type { SanitizerFinding, SanitizerRuleInfo } from './sanitizer.types';

/**
 * Findings for the obfuscation itself. Normalisation already undid it, so the injection rules
 * see through it; these say that someone tried. They are `warn` on their own (people paste text
 * with stray zero-width spaces) and become `block` when the de-obfuscated text matched a block
 * rule: disguising an injection is a second technique and should raise the lesson severity.
 */
export const OBFUSCATION_RULES: readonly SanitizerRuleInfo[] = [
  {
    id: 'obfuscation:zero-width',
    category: 'obfuscation',
    severity: 'warn',
    escalatesWithBlock: true,
    description: 'Zero-width or other invisible characters inside Latin, Cyrillic or Greek words.',
  },
  {
    id: 'obfuscation:bidi-control',
    category: 'obfuscation',
    severity: 'warn',
    escalatesWithBlock: true,
    description: 'Bidirectional override characters, or bidi controls in text with no right-to-left script.',
  },
  {
    id: 'obfuscation:unicode-tags',
    category: 'obfuscation',
    severity: 'warn',
    escalatesWithBlock: true,
    description: 'Invisible Unicode tag characters spelling hidden ASCII text (decoded before matching).',
  },
  {
    id: 'obfuscation:mixed-script',
    category: 'obfuscation',
    severity: 'warn',
    escalatesWithBlock: true,
    description: 'Words mixing Latin with Cyrillic or Greek look-alike letters (e.g. "іgnоrе" with Cyrillic і/о/е).',
  },
  {
    id: 'obfuscation:spaced-letters',
    category: 'obfuscation',
    severity: 'warn',
    escalatesWithBlock: true,
    description: 'Trigger words spelled out letter by letter ("i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e").',
  },
  {
    id: 'obfuscation:leetspeak',
    category: 'obfuscation',
    severity: 'warn',
    escalatesWithBlock: true,
    description: 'Trigger words written with digits or symbols for letters ("1gn0r3", "pr0mpt", "p@ssw0rd").',
  },
  {
    id: 'obfuscation:lookalike-letters',
    category: 'obfuscation',
    severity: 'warn',
    escalatesWithBlock: true,
    description: 'Trigger words written entirely in look-alike letters (small capitals, whole Cyrillic words in Latin text).',
  },
  {
    id: 'obfuscation:reversed-text',
    category: 'obfuscation',
    severity: 'block',
    description: 'Text written backwards that, read forwards, matches a block rule ("snoitcurtsni suoiverp erongi").',
  },
  {
    id: 'obfuscation:expanding-characters',
    category: 'obfuscation',
    severity: 'block',
    description:
      'Characters that Unicode normalisation (NFKC) expands far past the input size (U+FDFA is 18 characters): refused, not judged on a cut.',
  },
  {
    id: 'obfuscation:encoded-payload',
    category: 'obfuscation',
    severity: 'block',
    description: 'A base64 blob that decodes to text matching a block rule.',
  },
];

const byId = (id: string): SanitizerRuleInfo => {
  const rule = OBFUSCATION_RULES.find((candidate) => candidate.id === id);
  if (!rule) throw new Error(`unknown obfuscation rule ${id}`);
  return rule;
};

function finding(id: string, excerpt: string): SanitizerFinding {
  const rule = byId(id);
  return { ruleId: rule.id, category: rule.category, severity: rule.severity, excerpt };
}

/** Obfuscation findings as `warn`; the caller escalates them. */
export function obfuscationFindings(text: NormalizedText): SanitizerFinding[] {
  const { normalized, signals } = text;
  const findings: SanitizerFinding[] = [];
  if (signals.zeroWidthWords.length > 0) findings.push(finding('obfuscation:zero-width', excerptOf(normalized, signals.zeroWidthWords[0])));
  if (signals.suspiciousBidi) findings.push(finding('obfuscation:bidi-control', excerptOf(normalized, '')));
  if (signals.tagText !== null)
    findings.push(finding('obfuscation:unicode-tags', excerptOf(normalized, signals.tagText.toLowerCase().trim())));
  if (signals.mixedScriptWords.length > 0)
    findings.push(finding('obfuscation:mixed-script', excerptOf(normalized, signals.mixedScriptWords[0])));
  if (signals.spacedTriggerRuns.length > 0)
    findings.push(finding('obfuscation:spaced-letters', excerptOf(normalized, signals.spacedTriggerRuns[0])));
  if (signals.leetTriggerWords.length > 0)
    findings.push(finding('obfuscation:leetspeak', excerptOfAligned(text, signals.leetTriggerWords[0])));
  if (signals.lookalikeTriggerWords.length > 0)
    findings.push(finding('obfuscation:lookalike-letters', excerptOfAligned(text, signals.lookalikeTriggerWords[0])));
  if (signals.expandedBeyond) findings.push(finding('obfuscation:expanding-characters', excerptOf(normalized, '')));
  return findings;
}

/** The word is spelled out only in the aggressive copy; cut the normalised text at the same place. */
function excerptOfAligned(text: NormalizedText, word: string): string {
  const at = text.aggressive?.indexOf(word) ?? -1;
  return at < 0 ? excerptOf(text.normalized, '') : excerptAround(text.normalized, at, at + word.length);
}

export function reversedTextFinding(excerpt: string): SanitizerFinding {
  return finding('obfuscation:reversed-text', excerpt);
}

export function encodedPayloadFinding(excerpt: string): SanitizerFinding {
  return finding('obfuscation:encoded-payload', excerpt);
}
