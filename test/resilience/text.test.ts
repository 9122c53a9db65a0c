// Text safety helpers, against what a careful reader expects to see.
import { describe, expect, it } from 'vitest';
import { forTerminal, forTerminalLine } from '../../harness/text/terminal.ts';
import { csvField } from '../../reports/csv.ts';
import { redactSecrets } from '../../harness/models/secrets.ts';
import { capAnswer, MAX_RECORD_ANSWER_CHARS } from '../../harness/run/runner.ts';

describe('forTerminal', () => {
  it('removes escapes (OSC title change with BEL, CSI, C1) but keeps text, tabs and newlines', () => {
    expect(forTerminal('Q: \u001b]0;owned\u0007what?\n\tok')).toBe('Q: \uFFFD]0;owned\uFFFDwhat?\n\tok');
    expect(forTerminal('\u009b2Jclear')).toBe('\uFFFD2Jclear');
    expect(forTerminal('a\r\nb')).toBe('a\nb');
    expect(forTerminal('Ünïcödé — 数字 ✓')).toBe('Ünïcödé — 数字 ✓');
  });

  it('as one line (a table cell, a list item): the same, with line breaks and tabs as spaces', () => {
    expect(forTerminalLine('beam\u001b[2J\r\nwide\tw3')).toBe('beam\uFFFD[2J wide w3');
    expect(forTerminalLine('a  b')).toBe('a  b');
  });
});

describe('csvField', () => {
  it('neutralises text that a spreadsheet would run as a formula, not numbers', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('+cmd')).toBe("'+cmd");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField(-0.5)).toBe('-0.5');
    expect(csvField('plain, text')).toBe('"plain, text"');
  });
});

describe('redactSecrets', () => {
  it('stays readable when applied again (no [REDACTED]]]])', () => {
    // Built at run time so the fake key and token do not look like committed secrets.
    const once = redactSecrets(`401: api_key=sk-${'abcdefghijklmnopqrstu'}; Authorization: Bearer ${'tok_'}${'123456789'}`);
    expect(once).toBe('401: api_key=[REDACTED]; Authorization: [REDACTED]');
    expect(redactSecrets(redactSecrets(once))).toBe(once);
    expect(redactSecrets('{"authorization": "Bearer [REDACTED]"}')).toBe('{"authorization": "Bearer [REDACTED]"}');
  });
});

describe('capAnswer', () => {
  it('keeps normal answers whole and cuts runaway replies, saying how much', () => {
    expect(capAnswer('Paris')).toBe('Paris');
    const long = 'x'.repeat(MAX_RECORD_ANSWER_CHARS + 123);
    expect(capAnswer(long)).toBe(`${'x'.repeat(MAX_RECORD_ANSWER_CHARS)}… [123 more characters cut]`);
  });
});
