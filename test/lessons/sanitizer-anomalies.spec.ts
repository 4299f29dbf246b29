import { sanitizeInput } from '../../src/lessons/sanitizer/sanitize-input';

const anomalyIds = (text: string): string[] =>
  sanitizeInput(text)
    .findings.filter((finding) => finding.category === 'anomaly')
    .map((finding) => finding.ruleId);

describe('anomalies warn and never block', () => {
  it('warns on content longer than 20,000 characters', () => {
    const text = 'We walked along the river and talked about the garden, the kids and the new job. '.repeat(260);
    const result = sanitizeInput(text);
    expect(text.length).toBeGreaterThan(20_000);
    expect(anomalyIds(text)).toContain('anomaly:excessive-length');
    expect(result.blocked).toBe(false);
  });

  it('warns on heavy repetition of a token', () => {
    const text = `Note: ${'buy '.repeat(80)}now`;
    expect(anomalyIds(text)).toContain('anomaly:repetition');
    expect(sanitizeInput(text).blocked).toBe(false);
  });

  it('warns on a repeated line', () => {
    const text = Array.from({ length: 8 }, () => 'Remember to water the basil plants').join('\n');
    expect(anomalyIds(text)).toContain('anomaly:repetition');
  });

  it('warns on many words mixing alphabets', () => {
    const text = 'Thе ѕtοrе сlοѕеѕ аt ѕіх and thе раrkіng іѕ frее аftеr ѕеvеn';
    expect(anomalyIds(text)).toEqual([]); // look-alikes only: fixed and reported as obfuscation instead
    const scrambled = 'Mеїn фrиend ζоїпт sоλо wітн кαιrо мαξеп plατω';
    expect(anomalyIds(scrambled)).toContain('anomaly:script-mixing');
    expect(sanitizeInput(scrambled).blocked).toBe(false);
  });

  it('warns on many control or format characters', () => {
    const text = `Shopping list\u0007 eggs\u0001 milk\u0002 flour\u0003 bread\u0004 tea\u0005 jam\u0006 rice\u0008 beans\u000e salt\u000f oil\u0010 sugar\u0011`;
    expect(anomalyIds(text)).toContain('anomaly:control-characters');
    expect(sanitizeInput(text).blocked).toBe(false);
  });

  it('warns on a long run of variation selectors', () => {
    expect(anomalyIds(`Nice photo ${'\ufe0f'.repeat(12)}!`)).toContain('anomaly:control-characters');
  });

  it('warns on text that is mostly symbols', () => {
    const text = '{[(<>)]}!@#$%^&*()_+|~=`{}[]:;<>?,./'.repeat(4);
    expect(anomalyIds(text)).toContain('anomaly:symbol-heavy');
    expect(sanitizeInput(text).blocked).toBe(false);
  });

  it('does not count emoji as symbols', () => {
    expect(
      anomalyIds(
        'Running streak 🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥 day 42',
      ),
    ).not.toContain('anomaly:symbol-heavy');
  });
});

describe('ordinary non-English text raises nothing', () => {
  it.each([
    [
      'Russian',
      'Вчера мы с семьёй ездили на дачу. Погода была отличная, собрали целое ведро клубники, а вечером жарили шашлыки. Дети не хотели уезжать, поэтому решили вернуться в следующие выходные и остаться на две ночи.',
    ],
    ['Chinese', '周末我们一家人去了西湖，天气很好，孩子们在湖边放风筝，晚上吃了杭帮菜。下次想带父母一起去，顺便看看雷峰塔和灵隐寺。'],
    ['Japanese', '来週の金曜日に歯医者の予約があります。午後三時です。iPhoneを新しく買ったので、古いAndroidは実家の母に譲りました。'],
    ['Arabic', 'أفضل الاجتماعات في الصباح، ولا أشرب القهوة بعد الساعة الرابعة. ابني يدرس الهندسة في جامعة القاهرة وسيتخرج العام القادم.'],
    ['Hindi', 'मेरी बेटी का जन्मदिन 12 मार्च को है, उसे चॉकलेट केक पसंद है। हम उसके दोस्तों को घर पर बुलाएंगे।'],
    ['Greek', 'Ο αδερφός μου μένει στη Θεσσαλονίκη και δουλεύει ως γιατρός στο νοσοκομείο της πόλης.'],
    ['Korean', '저는 매주 토요일 아침에 한강에서 달리기를 합니다. 끝나고 친구들과 브런치를 먹어요.'],
    ['Persian with ZWNJ', 'من می\u200cخواهم فردا به کتاب\u200cخانه بروم و چند کتاب بگیرم.'],
    ['English with Spanish', 'She signs emails "Saludos", prefers WhatsApp, and her sister vive en Valencia con dos perros.'],
    ['English with Russian', "The client said 'нужно до пятницы', so the deadline is Friday."],
    ['English with Chinese', "Mom's recipe: 红烧肉 with extra star anise, serve with rice."],
  ])('%s', (_language, text) => {
    expect(sanitizeInput(text).findings).toEqual([]);
  });
});
