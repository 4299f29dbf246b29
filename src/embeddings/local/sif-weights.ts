/**
 * Smooth inverse frequency weights (Arora, Liang, Ma 2017): a word's weight is a / (a + p(w)).
 *
 * The GloVe file gives a frequency rank but no counts, so p(w) comes from Zipf's law for
 * English, p(rank r) ~ 0.1 / r (r from 1): "the" ~ 0.1, rank 1000 ~ 1e-4.
 */
const ZIPF_CONSTANT = 0.1;

/** `rank` is 0-based, as in the source file. */
export function zipfProbability(rank: number): number {
  return ZIPF_CONSTANT / (rank + 1);
}

export function sifWeight(rank: number, a: number): number {
  return a / (a + zipfProbability(rank));
}

/**
 * Words that general English ranks as ordinary content words but that agent memories use in
 * nearly every entry ("the user prefers ...", "the user's daughter ..."). Measured on the
 * labelled pairs: at its news-corpus rank (~4500) "user" alone lifted unrelated user facts by
 * about 0.1 cosine. Giving it the rank of a function word removes that shared-subject bonus.
 * Keep this list short: every entry is a claim about what all memories have in common.
 */
export const MEMORY_COMMON_WORDS: Readonly<Record<string, number>> = { user: 50, users: 50 };
