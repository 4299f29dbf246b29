import type { SanitizerResult } from './sanitizer/sanitizer.types';

/** Trust of a source that is not on the trusted list. */
export const UNLISTED_SOURCE_TRUST = 0.7;
/** What each sanitizer warning (obfuscation, anomaly) costs, counted up to three times. */
export const WARNING_PENALTY = 0.15;

/** `docs.internal` trusts `docs.internal` and `wiki.docs.internal`, not `evil-docs.internal`. */
export function isTrustedSource(sourceSite: string, trustedSites: readonly string[]): boolean {
  const site = sourceSite.trim().toLowerCase();
  return trustedSites.some((entry) => {
    const trusted = entry.trim().toLowerCase();
    return site === trusted || site.endsWith(`.${trusted}`);
  });
}

/**
 * Trust of what a source wrote: 1 for a trusted source, 0.7 otherwise, less 0.15 per
 * sanitizer warning (up to three); 0 when the sanitizer blocked it.
 */
export function sourceTrust(sourceSite: string, sanitized: SanitizerResult, trustedSites: readonly string[]): number {
  if (sanitized.blocked) return 0;
  const base = isTrustedSource(sourceSite, trustedSites) ? 1 : UNLISTED_SOURCE_TRUST;
  const warnings = Math.min(3, sanitized.findings.filter((f) => f.severity === 'warn').length);
  return Math.max(0, Math.round((base - WARNING_PENALTY * warnings) * 1000) / 1000);
}
