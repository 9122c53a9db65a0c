import { describe, expect, it } from 'vitest';
import { colorVerdicts, consoleStyle, displayWidth, wrapText } from '../../reports/console.ts';
import { fitTable } from '../../reports/fit.ts';
import { closest, suggestOptions } from '../../harness/text/suggest.ts';

describe('consoleStyle', () => {
  it('colours a terminal only, never with NO_COLOR or when piped; FORCE_COLOR forces', () => {
    expect(consoleStyle({ isTTY: true, columns: 80 }, {})).toEqual({ width: 80, color: true });
    expect(consoleStyle({ isTTY: true, columns: 80 }, { NO_COLOR: '1' }).color).toBe(false);
    expect(consoleStyle({ isTTY: false }, {})).toEqual({ width: Infinity, color: false });
    expect(consoleStyle({ isTTY: false }, { FORCE_COLOR: '1' }).color).toBe(true);
    expect(consoleStyle({ isTTY: false }, { FORCE_COLOR: '0' }).color).toBe(false);
    expect(consoleStyle({ isTTY: false }, { COLUMNS: '100' }).width).toBe(100);
  });

  it('colours verdict words only when asked', () => {
    expect(colorVerdicts('FAIL accuracy ▼ worse', false)).toBe('FAIL accuracy ▼ worse');
    const c = colorVerdicts('FAIL accuracy ▼ worse; PASS ▲ better', true);
    expect(c).toContain('\x1b[31mFAIL\x1b[39m');
    expect(c).toContain('\x1b[32m▲ better\x1b[39m');
    expect(displayWidth(c)).toBe('FAIL accuracy ▼ worse; PASS ▲ better'.length);
    // Not inside other words.
    expect(colorVerdicts('FAILURES PASSWORD', true)).toBe('FAILURES PASSWORD');
  });

  it('wraps prose on words', () => {
    expect(wrapText('aaa bbb ccc ddd', 8)).toEqual(['aaa bbb', '  ccc', '  ddd']);
    expect(wrapText('short', 80)).toEqual(['short']);
  });
});

describe('fitTable', () => {
  const cols = () => [
    { head: 'name', priority: 0, align: 'left' as const, cells: ['alpha', 'beta'] },
    { head: 'key', priority: 1, align: 'right' as const, cells: ['12.3% [10.0, 14.0]', '1.0% [0.1, 2.0]'], condensed: ['12.3% ±2.0', '1.0% ±1.0'] },
    { head: 'minor', priority: 9, align: 'right' as const, cells: ['xxxxxxxxxxxxxxxxxxxx', 'y'] },
  ];
  it('keeps everything when it fits', () => {
    const f = fitTable(cols(), 2, Infinity);
    expect(f.dropped).toEqual([]);
    expect(f.condensed).toEqual([]);
    expect(f.text).toContain('[10.0, 14.0]');
  });
  it('condenses, then drops the least important column, to fit', () => {
    const full = fitTable(cols(), 2, Infinity).text.split('\n')[0]!.length;
    const f = fitTable(cols(), 2, full - 5);
    expect(f.condensed).toEqual(['key']);
    expect(f.dropped).toEqual([]);
    const g = fitTable(cols(), 2, 30);
    expect(g.dropped).toEqual(['minor']);
    for (const line of g.text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(g.text).toContain('alpha');
  });
});

describe('option suggestions', () => {
  it('suggests the nearest option for a typo and nothing for noise', () => {
    expect(closest('fromat', ['format', 'out', 'full'])).toBe('format');
    expect(closest('zzzzzz', ['format', 'out'])).toBeNull();
    expect(suggestOptions('Unknown argument: fromat', ['format'])).toBe('Unknown argument: fromat (--fromat → did you mean --format?)');
    expect(suggestOptions('Missing required argument: x', ['x'])).toBe('Missing required argument: x');
  });
});
