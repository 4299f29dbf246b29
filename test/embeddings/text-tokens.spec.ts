import { lexicalTokens, textWords } from '../../src/embeddings/text-tokens';

describe('text tokenisation', () => {
  it.each([
    ['The User’s API key!', ['the', 'user', 'api', 'key']],
    ["don't ignore it", ['do', 'not', 'ignore', 'it']],
    ["can't, won't", ['can', 'not', 'will', 'not']],
    ["they're here and we've left", ['they', 'are', 'here', 'and', 'we', 'have', 'left']],
    ['a seven-year-old', ['a', 'seven-year-old']],
    ['flight at 7:40, cost 1,000 or 3.5', ['flight', 'at', '7:40', 'cost', '1000', 'or', '3.5']],
    ['ﬁle Ｆｕｌｌwidth', ['file', 'fullwidth']],
    ['  ?!  ', []],
  ])('splits %j into words', (text, words) => {
    expect(textWords(text)).toEqual(words);
  });

  it('splits hyphenated words into their parts for the lexical features', () => {
    expect(lexicalTokens('a seven-year-old user-facing bug')).toEqual(['a', 'seven', 'year', 'old', 'user', 'facing', 'bug']);
  });
});
