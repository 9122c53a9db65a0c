import { describe, it, expect } from 'vitest';
import type { TreeNode } from '../../../harness/types.ts';
import { seededRandom } from '../../../harness/run/context.ts';
import {
  assessOutline,
  flattenPoorLevels,
  normalizeTitle,
  poorTitleKind,
  titleCounts,
  DEFAULT_OUTLINE_QUALITY,
} from '../../../harness/trees/outlineQuality.ts';
import { node } from '../../helpers/scriptedContext.ts';

/** A node without text of its own (a pure wrapper when it has one child). */
const bare = (id: string, title: string, children: TreeNode[] = []): TreeNode => ({ id, title, children });

const ids = (nodes: TreeNode[]): string[] => nodes.map((n) => n.id);
const leaves = (nodes: TreeNode[]): string[] => nodes.flatMap((n) => (n.children.length ? leaves(n.children) : [n.id]));
const allIds = (nodes: TreeNode[]): string[] => nodes.flatMap((n) => [n.id, ...allIds(n.children)]);

describe('poor titles', () => {
  const kind = (title: string, doc: string[] = [title], siblings?: string[]) =>
    poorTitleKind(title, titleCounts(doc.map((t, i) => node(`n${i}`, t))), siblings ? titleCounts(siblings.map((t, i) => node(`s${i}`, t))) : null);

  it('flags one-character and numbering-only titles', () => {
    expect(kind('1')).toBe('short');
    expect(kind(' a ')).toBe('short');
    expect(kind('')).toBe('short');
    expect(kind('1.2.3')).toBe('numbering');
    expect(kind('(4)')).toBe('numbering');
    expect(kind('——')).toBe('numbering');
    expect(kind('Safety instructions')).toBeNull();
    expect(kind('IV')).toBeNull(); // two letters: not one-character, not numbering-only
  });

  it('folds digits when counting duplicates across the document', () => {
    expect(normalizeTitle('Page 12.')).toBe('page #');
    const pages = ['Page 1', 'Page 2', 'Page 3'];
    expect(kind('Page 1', pages)).toBe('duplicate');
    expect(kind('Page 1', ['Page 1', 'Page 2'])).toBeNull(); // two in the document is below the default 3
    expect(kind('Chapter 1 Installation', ['Chapter 1 Installation', 'Chapter 2 Safety', 'Chapter 3 Care'])).toBeNull();
  });

  it('two siblings with the same title are duplicates', () => {
    expect(kind('Notes', ['Notes', 'Notes'], ['Notes', 'Notes'])).toBe('duplicate');
    expect(kind('Notes', ['Notes'], ['Notes', 'Summary'])).toBeNull();
  });
});

describe('assessOutline', () => {
  const good = [
    node('1', 'Installation', [node('1.1', 'Mounting the unit'), node('1.2', 'Electrical connection')]),
    node('2', 'Safety', [node('2.1', 'General warnings'), node('2.2', 'Battery disposal')]),
  ];

  it('passes a clean outline', () => {
    const a = assessOutline({ docId: 'd', title: 'Manual', nodes: good });
    expect(a).toMatchObject({ nodes: 6, depth: 2, maxFanout: 2, poorTitles: 0, poor: false, reasons: [] });
  });

  it('fails an outline where many titles are one character or duplicated', () => {
    const nodes = [
      node('1', '1', [node('a', 'a'), node('b', 'b')]),
      node('2', '2', [node('p1', 'Page 1'), node('p2', 'Page 2'), node('p3', 'Page 3')]),
      node('3', 'Warranty'),
    ];
    const a = assessOutline(nodes);
    expect(a.shortTitles).toBe(4);
    expect(a.duplicateTitles).toBe(3);
    expect(a.poorTitles).toBe(7);
    expect(a.poorTitleRatio).toBeCloseTo(7 / 8);
    expect(a.poor).toBe(true);
    expect(a.reasons.join(' ')).toMatch(/88% of titles are poor/);
  });

  it('fails extreme depth and extreme fanout with their own reasons', () => {
    let deep: TreeNode = node('x9', 'Deepest section');
    for (let i = 8; i >= 0; i--) deep = node(`x${i}`, `Level ${String.fromCharCode(65 + i)} heading`, [deep, node(`y${i}`, `Side ${String.fromCharCode(65 + i)} note`)]);
    const d = assessOutline([deep]);
    expect(d.depth).toBe(10);
    expect(d.reasons).toEqual(['depth 10 exceeds 8']);

    const wide = [node('root', 'Index', Array.from({ length: 60 }, (_, i) => node(`w${i}`, `Entry about topic ${'abcdefghij'[i % 10]}${'klmnopqrst'[Math.floor(i / 10)]}`)))];
    const w = assessOutline(wide);
    expect(w.maxFanout).toBe(60);
    expect(w.reasons).toEqual(['a level of 60 nodes exceeds 50']);
    expect(assessOutline(wide, { maxFanout: 100 }).poor).toBe(false);
  });
});

describe('flattenPoorLevels', () => {
  it('makes a chain of poor-titled single-child nodes transparent', () => {
    const real = node('s', 'Real section', [node('s1', 'Mounting'), node('s2', 'Wiring')]);
    const input = [node('1', '1', [node('a', 'a', [real])]), node('w', 'Warranty')];
    const before = JSON.stringify(input);
    const out = flattenPoorLevels(input);
    expect(ids(out.nodes)).toEqual(['s', 'w']);
    expect(out.nodes[0].title).toBe('Real section');
    expect(ids(out.nodes[0].children)).toEqual(['s1', 's2']);
    expect(out.transparent).toEqual(['1', 'a']);
    expect(JSON.stringify(input)).toBe(before); // the input is not modified
  });

  it('passes through good-titled wrappers (no text, one child) and keeps their title as a prefix', () => {
    const out = flattenPoorLevels([bare('c', 'Safety', [node('c1', 'Battery', [node('x', 'Disposal'), node('y', 'Charging')])]), node('d', 'Care')]);
    expect(ids(out.nodes)).toEqual(['c1', 'd']);
    expect(out.nodes[0].title).toBe('Safety › Battery');
    expect(out.transparent).toEqual(['c']);
  });

  it('keeps single-child nodes that have a good title and text of their own', () => {
    const out = flattenPoorLevels([node('c', 'Safety', [node('c1', 'Battery')])]);
    expect(out.transparent).toEqual([]);
    expect(ids(out.nodes[0].children)).toEqual(['c1']);
  });

  it('lifts the children of a level of meaningless titles, in document order', () => {
    const input = [
      node('A', 'A', [node('a1', 'Mounting the unit'), node('a2', 'Electrical connection')]),
      node('B', 'B', [node('b1', 'General warnings'), node('b2', 'Battery disposal')]),
      node('C', 'Cleaning the filter'),
    ];
    const out = flattenPoorLevels(input);
    expect(ids(out.nodes)).toEqual(['a1', 'a2', 'b1', 'b2', 'C']);
    expect(out.transparent).toEqual(['A', 'B']);
  });

  it('repeats the lift when the lifted level is meaningless too', () => {
    const input = [
      node('1', '1', [node('1a', 'a', [node('x', 'Mounting'), node('y', 'Wiring')]), node('1b', 'b', [node('z', 'Testing'), node('t', 'Tuning')])]),
      node('2', '2', [node('2c', 'c', [node('w', 'Warranty terms'), node('v', 'Service contacts')])]),
    ];
    const out = flattenPoorLevels(input);
    expect(ids(out.nodes)).toEqual(['x', 'y', 'z', 't', 'w', 'v']);
    expect(out.transparent.sort()).toEqual(['1', '1a', '1b', '2', '2c']);
  });

  it('leaves a level alone when few titles are poor, and keeps poor-titled leaves', () => {
    const input = [node('A', 'A', [node('a1', 'One'), node('a2', 'Two')]), node('B', 'Battery'), node('C', 'Charging'), node('D', 'Care'), node('x', 'x')];
    const out = flattenPoorLevels(input);
    expect(ids(out.nodes)).toEqual(['A', 'B', 'C', 'D', 'x']); // 2 of 5 poor: below poorLevelRatio 0.5
    expect(out.transparent).toEqual([]);
    const poorLevel = flattenPoorLevels([node('A', 'A', [node('a1', 'One'), node('a2', 'Two')]), node('x', 'x'), node('y', 'y')]);
    expect(ids(poorLevel.nodes)).toEqual(['a1', 'a2', 'x', 'y']); // the leaves x and y hold text: kept
  });

  it('never builds a level wider than maxFanout', () => {
    const kids = (p: string, n: number) => Array.from({ length: n }, (_, i) => node(`${p}${i}`, `Topic ${p} ${'abcdefgh'[i]}`));
    const input = [node('A', 'A', kids('a', 3)), node('B', 'B', kids('b', 3)), node('C', 'C', kids('c', 3))];
    const out = flattenPoorLevels(input, { maxFanout: 7 });
    expect(out.nodes.length).toBeLessThanOrEqual(7);
    expect(ids(out.nodes)).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'C']);
    expect(ids(out.nodes[6].children)).toEqual(['c0', 'c1', 'c2']);
  });

  it('on random outlines: every leaf survives, ids stay unique, levels stay within the fanout cap', () => {
    const rand = seededRandom(7);
    const titles = ['1', 'a', '2.1', 'Page 4', 'Page 5', 'Page 6', 'Safety', 'Battery', 'Notes', 'Installation', 'Care', '—'];
    let next = 0;
    const grow = (depth: number): TreeNode[] => {
      const n = 1 + Math.floor(rand() * 4);
      return Array.from({ length: n }, () => {
        const id = `n${next++}`;
        const title = titles[Math.floor(rand() * titles.length)];
        const children = depth < 5 && rand() < 0.6 ? grow(depth + 1) : [];
        return rand() < 0.5 ? bare(id, title, children) : node(id, title, children);
      });
    };
    for (let trial = 0; trial < 200; trial++) {
      next = 0;
      const input = grow(0);
      const maxFanout = 3 + Math.floor(rand() * 10);
      const out = flattenPoorLevels(input, { maxFanout });
      expect(leaves(out.nodes).sort()).toEqual(leaves(input).sort());
      const viewIds = allIds(out.nodes);
      expect(new Set(viewIds).size).toBe(viewIds.length);
      expect(new Set([...viewIds, ...out.transparent]).size).toBe(allIds(input).length);
      const levels = (nodes: TreeNode[], top: boolean): void => {
        // A level may only exceed the cap if the input level already did (nothing was lifted into it).
        if (!top || input.length <= maxFanout) expect(nodes.length).toBeLessThanOrEqual(Math.max(maxFanout, 4));
        for (const n of nodes) levels(n.children, false);
      };
      levels(out.nodes, true);
    }
  });

  it('default thresholds are the documented ones', () => {
    expect(DEFAULT_OUTLINE_QUALITY).toEqual({ shortTitleChars: 1, duplicateTitleMin: 3, poorTitleRatio: 0.3, poorLevelRatio: 0.5, maxDepth: 8, maxFanout: 50 });
  });
});
