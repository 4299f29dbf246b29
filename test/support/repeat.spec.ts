import { repeatCount } from './repeat';

describe('repeatCount', () => {
  const saved = process.env.TEST_REPEAT_FRACTION;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_REPEAT_FRACTION;
    else process.env.TEST_REPEAT_FRACTION = saved;
  });

  it('is the full count without TEST_REPEAT_FRACTION, a fraction of it with, never under the floor', () => {
    delete process.env.TEST_REPEAT_FRACTION;
    expect(repeatCount(200)).toBe(200);
    process.env.TEST_REPEAT_FRACTION = '0.5';
    expect(repeatCount(200)).toBe(100);
    expect(repeatCount(30)).toBe(20);
    expect(repeatCount(10)).toBe(10);
    process.env.TEST_REPEAT_FRACTION = '1';
    expect(repeatCount(200)).toBe(200);
  });

  it('refuses a fraction outside (0, 1]', () => {
    for (const bad of ['0', '1.5', '-1', 'half']) {
      process.env.TEST_REPEAT_FRACTION = bad;
      expect(() => repeatCount(200)).toThrow(/TEST_REPEAT_FRACTION/);
    }
  });
});
