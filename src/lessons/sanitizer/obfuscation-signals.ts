/** What normalisation saw of obfuscation; obfuscation-findings.ts turns it into findings. */
export interface ObfuscationSignals {
  /** Words that had an invisible character inside them, as they read once it is removed. */
  zeroWidthWords: string[];
  bidiControls: number;
  /** True when a bidi control can only be there to reorder text (see detectBidi). */
  suspiciousBidi: boolean;
  /** ASCII decoded from Unicode tag characters. */
  tagText: string | null;
  /** Longest run of variation selectors (emoji use one at a time). */
  longestSelectorRun: number;
  /** Control and format characters other than tab/newline/ZWJ/ZWNJ in the raw input. */
  controlChars: number;
  mixedScriptWords: string[];
  spacedTriggerRuns: string[];
  leetTriggerWords: string[];
  lookalikeTriggerWords: string[];
  /** True when normalisation grew the text past maxNormalizedLength and it was cut there. */
  expandedBeyond: boolean;
}

/** Findings need one example each; keeping a few is enough and bounds memory on huge inputs. */
export const MAX_SIGNAL_SAMPLES = 5;
