/**
 * Function words: a reported pattern made only of these ("what is my", "the", "my") matches
 * ordinary queries by the dozen and would silence a user's retrieval (issue 20, finding 7).
 * PostgreSQL's English stop words, and the commonest question and filler words.
 */
const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers herself him himself his ' +
    'how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves ' +
    'out over own same she should so some such than that the their theirs them themselves then there these they this those through ' +
    'to too under until up very was we were what when where which while who whom why will with would you your yours yourself ' +
    "yourselves also get got let may might must shall us it's i'm don't can't won't isn't there's what's let's please tell know " +
    'say said like want thing things something anything everything ok okay yes hi hello thanks'
  ).split(' '),
);

/** The words of a pattern (letters or digits, apostrophes inside), lower-cased. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];

/** True when the pattern holds at least one content word: not a stop word, two characters or more. */
export function hasContentWord(pattern: string): boolean {
  return wordsOf(pattern).some((word) => word.length > 1 && !STOP_WORDS.has(word));
}
