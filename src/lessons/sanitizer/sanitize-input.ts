import { anomalyFindings } from './anomalies';
import { excerptAround, excerptOf } from './excerpt';
import { repairWordBoundaries } from './glued-words';
import { normalizeText } from './normalize-text';
import { encodedPayloadFinding, obfuscationFindings, reversedTextFinding } from './obfuscation-findings';
import { RuleMatcher } from './rule-matcher';
import { PATTERN_RULES } from './sanitizer-rules';
import type { SanitizerFinding, SanitizerResult } from './sanitizer.types';
import { STRONG_TRIGGERS } from './trigger-lexicon';

const MATCHER = new RuleMatcher(PATTERN_RULES);
const BLOCK_MATCHER = new RuleMatcher(PATTERN_RULES.filter((rule) => rule.severity === 'block'));

/**
 * Screens memory content for prompt injection before it is stored.
 *
 * Pure and synchronous. Each rule is reported at most once (the lesson severity counts block
 * findings: 1-2 -> high, 3+ -> critical), with an excerpt of the normalised text. `blocked` is
 * true iff some finding has severity `block`.
 */
export function sanitizeInput(content: string): SanitizerResult {
  const text = normalizeText(content);
  const segmented = repairWordBoundaries(text.normalized);
  const findings: SanitizerFinding[] = MATCHER.matchAll(text.normalized, text.aggressive, true, segmented).map(({ rule, start, end }) => ({
    ruleId: rule.id,
    category: rule.category,
    severity: rule.severity,
    excerpt: excerptAround(text.normalized, start, end),
  }));

  const encoded = findEncodedPayload(text.cased, text.normalized);
  if (encoded !== null) findings.push(encodedPayloadFinding(encoded));
  const reversed = findReversedPayload(text.normalized);
  if (reversed !== null) findings.push(reversedTextFinding(reversed));

  const textBlocked = findings.some((finding) => finding.severity === 'block');
  for (const finding of obfuscationFindings(text)) findings.push(textBlocked ? { ...finding, severity: 'block' } : finding);
  findings.push(...anomalyFindings(content, text));

  return { blocked: findings.some((finding) => finding.severity === 'block'), findings, normalized: text.normalized };
}

const BASE64_TOKEN = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{24,}={0,2}/g;
const MAX_DECODED_CANDIDATES = 5;
const MAX_TOKEN_LENGTH = 20_000;

/**
 * Base64 blobs that decode to readable text are checked with the block rules (one level deep,
 * no recursion, no discussion exemption). Returns an excerpt around the blob, or null.
 */
function findEncodedPayload(cased: string, normalized: string): string | null {
  let tried = 0;
  BASE64_TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = BASE64_TOKEN.exec(cased)) !== null && tried < MAX_DECODED_CANDIDATES) {
    const token = match[0];
    // Needs the look of base64: mixed case, and not a path or a long identifier.
    if (token.length > MAX_TOKEN_LENGTH || !/[A-Z]/.test(token) || !/[a-z]/.test(token) || /[/_-]{2}/.test(token)) continue;
    tried++;
    const decoded = Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (!isReadable(decoded)) continue;
    const inner = normalizeText(decoded);
    if (BLOCK_MATCHER.matchAll(inner.normalized, inner.aggressive, false).length > 0) return excerptOf(normalized, token.toLowerCase());
  }
  return null;
}

/** Strong trigger words spelled backwards ("snoitcurtsni", "erongi"), as whole words. */
const REVERSED_TRIGGERS = new RegExp(
  String.raw`(?<![\p{L}])(?:${[...STRONG_TRIGGERS].map((word) => [...word].reverse().join('')).join('|')})(?![\p{L}])`,
  'gu',
);

/**
 * Text written backwards to slip past the rules. Checked only when at least two reversed trigger
 * words appear, then the reversed text goes through the block rules. Returns an excerpt or null.
 */
function findReversedPayload(normalized: string): string | null {
  const hits = normalized.match(REVERSED_TRIGGERS);
  if (hits === null || new Set(hits).size < 2) return null;
  const reversed = [...normalized].reverse().join('');
  if (BLOCK_MATCHER.matchAll(reversed, null, false).length === 0) return null;
  return excerptOf(normalized, hits[0]);
}

function isReadable(decoded: string): boolean {
  if (decoded.length < 12 || !decoded.includes(' ')) return false;
  let readable = 0;
  for (const ch of decoded) if (/[\p{L}\p{N}\p{P}\p{Zs}\n\t]/u.test(ch)) readable++;
  return readable / [...decoded].length > 0.9;
}
