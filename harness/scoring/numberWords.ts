// Numbers written as words ("five working days", "twenty-five", "two hundred and fifty"), so an
// answer that spells a number equals one that writes its digits. Ordinals ("first") and
// fractions ("a half") are not read. "one" is read only before a noun, a unit or a scale word
// ("one device", "one hour", "one million") or as the whole text, and not after "the", "no",
// "any", "which"…: elsewhere it is a pronoun ("one of the", "no one", "the one that").

const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

const small = Object.keys(SMALL).join('|');
const tens = Object.keys(TENS).join('|');
const units = 'one|two|three|four|five|six|seven|eight|nine';
// below100 := small | tens[-units]; number := below100 [hundred [and] below100?] | hundred-only forms
const BELOW_100 = `(?:(?:${tens})(?:[- ](?:${units}))?|(?:${small}))`;
const WORD_NUMBER_RE = new RegExp(`(?<![\\p{L}\\p{N}-])(?:${BELOW_100}(?:\\s+hundred(?:\\s+(?:and\\s+)?${BELOW_100})?)?)(?![\\p{L}\\p{N}]|-(?:${units}))`, 'giu');
const HAS_WORD_RE = new RegExp(`(?:${small}|${tens})`, 'i');

export interface WordNumber {
  value: number;
  index: number;
  text: string;
}

function below100(words: string[]): number {
  let v = 0;
  for (const w of words) v += SMALL[w] ?? TENS[w] ?? 0;
  return v;
}

/** The value of a matched word number ("twenty-five" → 25, "two hundred and fifty" → 250). */
function valueOf(text: string): number {
  const words = text.toLowerCase().split(/[\s-]+/).filter((w) => w !== 'and');
  const h = words.indexOf('hundred');
  if (h < 0) return below100(words);
  return below100(words.slice(0, h)) * 100 + below100(words.slice(h + 1));
}

/**
 * Word numbers in a text. `keepOne(after)` decides whether a lone "one" counts, given the text
 * after it (numbers.ts passes a check for a unit or scale word).
 */
export function findWordNumbers(text: string, keepOne: (after: string) => boolean): WordNumber[] {
  if (!HAS_WORD_RE.test(text)) return [];
  const out: WordNumber[] = [];
  for (const m of text.matchAll(WORD_NUMBER_RE)) {
    const index = m.index ?? 0;
    const t = m[0];
    if (t.toLowerCase() === 'one' && text.trim().toLowerCase() !== 'one') {
      // "the one", "no one", "any one", "which one": a pronoun, whatever follows.
      if (/(?:^|[^\p{L}])(?:the|no|any|every|each|which|this|that|someone|anyone)\s+$/iu.test(text.slice(Math.max(0, index - 12), index)) || !keepOne(text.slice(index + t.length))) continue;
    }
    out.push({ value: valueOf(t), index, text: t });
  }
  return out;
}
