import { describe, it, expect } from 'vitest';
import { contentTerms, hasNumber, isStopword, normalizeNumber, stem, tokenize, words } from '../../../harness/text/tokenize.ts';

describe('words', () => {
  it('lowercases and normalises numbers', () => {
    expect(words('Revenue rose 30% to $1,250.50 in 2023')).toEqual(['revenue', 'rose', '30', 'to', '1250.5', 'in', '2023']);
    expect(words('1,250.5')).toEqual(['1250.5']);
    expect(words('30%')).toEqual(['30']);
  });

  it('treats a comma as a thousands separator only before exactly three digits', () => {
    expect(words('1,2,3')).toEqual(['1', '2', '3']);
    expect(words('12,3456')).toEqual(['12', '3456']);
    expect(words('1,000,000')).toEqual(['1000000']);
  });

  it('drops possessives and apostrophes, folds accents, splits hyphens', () => {
    expect(words("The company's CEO didn't sign")).toEqual(['the', 'company', 'ceo', 'didnt', 'sign']);
    expect(words('Café long-term')).toEqual(['cafe', 'long', 'term']);
  });

  it('splits letters from digits', () => {
    expect(words('Q4 FY2018 results, 10-K')).toEqual(['q', '4', 'fy', '2018', 'results', '10', 'k']);
  });
});

describe('normalizeNumber', () => {
  it('strips separators and trailing fractional zeros', () => {
    expect(normalizeNumber('1,250.50')).toBe('1250.5');
    expect(normalizeNumber('30.0')).toBe('30');
    expect(normalizeNumber('2023')).toBe('2023');
    expect(normalizeNumber('0.05')).toBe('0.05');
  });
});

describe('stem', () => {
  it.each([
    ['increase', 'increas'],
    ['increases', 'increas'],
    ['increased', 'increas'],
    ['increasing', 'increas'],
    ['running', 'run'],
    ['runs', 'run'],
    ['studies', 'study'],
    ['studied', 'study'],
    ['studying', 'study'],
    ['matches', 'match'],
    ['boxes', 'box'],
    ['passed', 'pass'],
    ['falling', 'fall'],
    ['policies', 'policy'],
    ['analysis', 'analysis'],
    ['status', 'status'],
    ['class', 'class'],
    ['string', 'string'],
    ['cat', 'cat'],
    ['2023', '2023'],
  ])('%s -> %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});

describe('tokenize', () => {
  it('removes stopwords and stems', () => {
    expect(tokenize('How many employees were working at the companies?')).toEqual(['employee', 'work', 'company']);
  });

  it('can keep stopwords and skip stemming', () => {
    expect(tokenize('The companies', { stopwords: false, stem: false })).toEqual(['the', 'companies']);
  });

  it('is empty for stopwords only', () => {
    expect(tokenize('What is it and how?')).toEqual([]);
    expect(isStopword('the')).toBe(true);
    expect(isStopword('revenue')).toBe(false);
  });
});

describe('contentTerms', () => {
  it('gives distinct terms with their first surface word', () => {
    expect(contentTerms('Refund policies and the refunds policy')).toEqual([
      { term: 'refund', word: 'refund' },
      { term: 'policy', word: 'policies' },
    ]);
  });
});

describe('hasNumber', () => {
  it('detects digits', () => {
    expect(hasNumber('about 30 people')).toBe(true);
    expect(hasNumber('about thirty people')).toBe(false);
  });
});
