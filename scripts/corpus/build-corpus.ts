/**
 * `npm run corpus:build`: writes test/fixtures/write-gate-corpus.json, the labelled corpus the
 * write gate's classifier is trained and evaluated on: the hand-written sanitizer corpus
 * (test/fixtures/poisoning-corpus.json, each entry its own group) plus entries generated with a
 * fixed seed from the templates in this folder (each template one group).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../../src/common/project-root';
import { ENGLISH_ATTACKS } from './attacks-en';
import { MULTILINGUAL_TEMPLATES } from './attacks-intl';
import { OBFUSCATION_TEMPLATES } from './attacks-obfuscated';
import { ENGLISH_LEGITIMATE } from './legitimate-en';
import { MULTILINGUAL_LEGITIMATE } from './legitimate-intl';
import { seededRng, variantsOf, type CorpusEntry, type Template } from './template-kit';

const SEED = 13;

/** Hand-written sanitizer categories, mapped to the attack families of the write gate. */
const FAMILY_OF_CATEGORY: Record<string, string> = {
  'instruction-override': 'override',
  'multi-technique': 'override',
  'role-hijack': 'role-play',
  'persistent-override': 'persistent',
  'hidden-instruction': 'stealth',
  exfiltration: 'exfiltration',
  'tool-injection': 'tool-call',
  'addressed-to-ai': 'indirect',
  'chat-template': 'chat-template',
  obfuscation: 'obfuscation',
};

const FAMILY_OF_KIND: Record<string, string> = {
  preference: 'preference',
  fact: 'personal-fact',
  technical: 'code',
  'technical-hard-case': 'code',
  'security-discussion': 'security-note',
  'non-english': 'multilingual-legit',
  'mixed-language': 'multilingual-legit',
};

interface HandCorpus {
  adversarial: { text: string; category: string; language: string }[];
  legitimate: { text: string; kind: string; language: string }[];
}

function handWritten(root: string): CorpusEntry[] {
  const hand = JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'poisoning-corpus.json'), 'utf8')) as HandCorpus;
  const attacks = hand.adversarial.map((entry, i): CorpusEntry => ({
    text: entry.text,
    label: 'adversarial',
    // A non-English attack belongs to the multilingual family whatever its technique.
    family: entry.language === 'en' ? FAMILY_OF_CATEGORY[entry.category] : 'multilingual',
    language: entry.language,
    group: `hand/a${i}`,
    category: entry.category,
  }));
  const legitimate = hand.legitimate.map((entry, i): CorpusEntry => ({
    text: entry.text,
    label: 'legitimate',
    family: FAMILY_OF_KIND[entry.kind] ?? entry.kind,
    language: entry.language,
    group: `hand/l${i}`,
  }));
  return [...attacks, ...legitimate];
}

/** English legitimate templates are asked for more variants: the corpus holds two legitimate entries per attack. */
const LEGITIMATE_SCALE = 3;

function generated(): CorpusEntry[] {
  const r = seededRng(SEED);
  const templates: Template[] = [
    ...ENGLISH_ATTACKS,
    ...OBFUSCATION_TEMPLATES,
    ...MULTILINGUAL_TEMPLATES,
    ...ENGLISH_LEGITIMATE,
    ...MULTILINGUAL_LEGITIMATE,
  ];
  return templates.flatMap((template) =>
    variantsOf(
      template.label === 'legitimate' && template.language === 'en'
        ? { ...template, count: Math.round(template.count * LEGITIMATE_SCALE) }
        : template,
      r,
    ),
  );
}

function main(): void {
  const root = findProjectRoot();
  const seen = new Set<string>();
  const entries = [...handWritten(root), ...generated()].filter((entry) => {
    const key = entry.text.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const out = join(root, 'test', 'fixtures', 'write-gate-corpus.json');
  writeFileSync(out, `${JSON.stringify({ seed: SEED, entries }, null, 0).replace(/\},\{/g, '},\n{')}\n`);
  const count = (label: string) => entries.filter((entry) => entry.label === label).length;
  const families = new Map<string, number>();
  for (const entry of entries) families.set(`${entry.label}/${entry.family}`, (families.get(`${entry.label}/${entry.family}`) ?? 0) + 1);
  console.log(`wrote ${out}: ${count('adversarial')} adversarial, ${count('legitimate')} legitimate`);
  for (const [family, n] of [...families].sort()) console.log(`  ${family.padEnd(36)} ${n}`);
}

main();
