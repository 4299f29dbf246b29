import type { MemoryType } from '../database/entities/memory.entity';

export interface ExtractedFact {
  content: string;
  memoryType: MemoryType;
  importance: number;
}

const MAX_FACT_CHARS = 1000;
const MIN_FACT_CHARS = 12;
const MAX_FACTS = 50;

/** "User:", "assistant -", "[human]" ... at the start of a line. */
const SPEAKER = /^\s*(?:\[)?(user|human|me|customer|assistant|ai|bot|agent|system|tool)(?:\])?\s*[:>-]\s*/i;
const NON_USER_SPEAKERS = new Set(['assistant', 'ai', 'bot', 'agent', 'system', 'tool']);

const FILLER =
  /^(?:hi|hello|hey|thanks|thank you|ok|okay|sure|yes|no|yep|nope|great|cool|bye|goodbye|good morning|good night|got it|sounds good|lol|hmm+)\b[\s!.,]*$/i;
const QUESTION_START =
  /^(?:what|who|whom|whose|which|when|where|why|how|can|could|would|will|shall|should|do|does|did|is|are|am|was|were|have|has|may)\b/i;
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|my|mine|me|we|our|us)\b/i;
const PREFERENCE = /\b(?:prefer|like|love|enjoy|hate|dislike|favou?rite|always|never|usually|allergic|avoid|want|need)\b/i;
const REMEMBER = /\b(?:remember|note that|keep in mind|important|don't forget|do not forget)\b/i;
const TEMPORAL =
  /\b(?:yesterday|today|tonight|tomorrow|last (?:week|month|year|night)|next (?:week|month|year)|ago|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\d{4}-\d{2}-\d{2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2})\b/i;
const PROCEDURAL = /\b(?:how to|steps? to|first,? |then |to deploy|to install|run `|make sure to|workflow|procedure)\b/i;
const SPECIFIC = /\d|[A-Z][a-z]+ [A-Z][a-z]+|@|https?:\/\//;

/**
 * Rule-based extraction for /ingest/quick (and /ingest without an LLM): keeps the
 * statements a person makes about themselves, their preferences, plans and facts, and
 * drops questions, greetings and the assistant's turns. Deterministic and fast.
 */
export function extractFacts(conversation: string): ExtractedFact[] {
  const statements = userStatements(conversation);
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  for (const sentence of statements.flatMap(splitSentences)) {
    const content = sentence.replace(/\s+/g, ' ').trim();
    if (!isFactLike(content)) continue;
    const key = content
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
    if (seen.has(key)) continue;
    seen.add(key);
    facts.push({ content: content.slice(0, MAX_FACT_CHARS), memoryType: classify(content), importance: importanceOf(content) });
    if (facts.length >= MAX_FACTS) break;
  }
  return facts;
}

/** The lines said by the user; when there are no speaker labels, the whole text. */
function userStatements(conversation: string): string[] {
  const lines = conversation.split(/\r?\n/);
  const labelled = lines.some((line) => SPEAKER.test(line));
  if (!labelled) return [conversation];
  const kept: string[] = [];
  let speakerIsUser = true;
  for (const line of lines) {
    const match = SPEAKER.exec(line);
    if (match) {
      speakerIsUser = !NON_USER_SPEAKERS.has(match[1].toLowerCase());
      if (speakerIsUser) kept.push(line.slice(match[0].length));
    } else if (speakerIsUser && line.trim()) {
      kept.push(line);
    }
  }
  return kept;
}

function splitSentences(text: string): string[] {
  // Split after . ! ? (not inside numbers like 3.5 or abbreviations like e.g.) and on newlines.
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])/u))
    .map((s) => s.trim())
    .filter(Boolean);
}

function isFactLike(sentence: string): boolean {
  if (sentence.length < MIN_FACT_CHARS) return false;
  if (FILLER.test(sentence)) return false;
  if (sentence.endsWith('?')) return false;
  if (QUESTION_START.test(sentence) && !FIRST_PERSON.test(sentence.split(/\s+/).slice(0, 3).join(' '))) {
    // "Can you book..." is a request, not a fact; "Do remember that..." passes via REMEMBER.
    if (!REMEMBER.test(sentence)) return false;
  }
  const words = sentence.split(/\s+/).filter(Boolean);
  return words.length >= 3;
}

function classify(sentence: string): MemoryType {
  if (PROCEDURAL.test(sentence)) return 'procedural';
  if (TEMPORAL.test(sentence)) return 'episodic';
  return 'semantic';
}

function importanceOf(sentence: string): number {
  let importance = 0.5;
  if (REMEMBER.test(sentence)) importance += 0.2;
  if (PREFERENCE.test(sentence)) importance += 0.15;
  if (SPECIFIC.test(sentence)) importance += 0.05;
  if (FIRST_PERSON.test(sentence)) importance += 0.05;
  return Math.min(1, Math.round(importance * 100) / 100);
}
