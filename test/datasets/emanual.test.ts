import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../harness/types.ts';
import { buildEmanualTree, indexSections, loadEmanualS10, matchSectionPath, titleKey } from '../../datasets/emanual.ts';
import { walkNodes } from '../../datasets/tree-utils.ts';
import { SHARED } from './helpers.ts';

const DIR = path.join(SHARED, 'emanual-s10');
const data = loadEmanualS10(DIR);
const nodes = new Map<string, TreeNode>([...walkNodes(data.doc.nodes)].map((v) => [v.node.id, v.node]));
const raw = JSON.parse(fs.readFileSync(path.join(DIR, 's10_manual_corpus.json'), 'utf8')) as Record<
  string,
  { title: string; text: string[]; section_hierarchy: string; t5_para: string }
>;

describe('E-Manual S10', () => {
  it('rebuilds all 451 sections into one document from section_hierarchy', () => {
    expect(data.doc.docId).toBe('s10');
    expect(data.doc.title).toBe('Samsung Galaxy S10 User Manual');
    expect(nodes.size).toBe(451);
    expect(data.doc.nodes.map((n) => n.title)).toEqual(['Features', 'Getting started', 'Apps', 'Settings', 'Learn more', 'Legal information']);
    // Every section sits under the parent its hierarchy names.
    for (const [id, s] of Object.entries(raw)) {
      const chain = s.section_hierarchy.split('>');
      const parent = chain.length > 1 ? nodes.get(chain[chain.length - 2])! : null;
      const siblings = parent ? parent.children : data.doc.nodes;
      expect(siblings.some((c) => c.id === id), id).toBe(true);
    }
    expect(nodes.get('section_100')!.title).toBe('Search for apps');
    expect(data.files).toEqual([path.join(DIR, 's10_manual_corpus.json'), path.join(DIR, 's10_50_questions.csv')]);
  });

  it('node text is the section text without the repeated title line and without children text', () => {
    const search = nodes.get('section_100')!;
    expect(search.text!.split('\n')[0]).toBe('If you are not sure where to find an app or a setting, you can use the Search feature.');
    expect(search.text).not.toMatch(/^Search for apps/);
    // "Features" repeats its subsections' text verbatim in the source; none of it stays on the parent.
    const features = nodes.get('section_0')!;
    expect(features.text ?? '').not.toContain('Wirelessly charge your Galaxy Buds');
    expect(nodes.get('section_1')!.text).toContain('Wirelessly charge your Galaxy Buds');
    // A parent whose page lists its subsections keeps that list as its own text.
    expect(nodes.get('section_272')!.text).toContain('Lock screen and security');
  });

  it('has no summaries (none in the data, none made up)', () => {
    expect([...nodes.values()].filter((n) => n.summary !== undefined)).toEqual([]);
  });

  it('never leaks t5_para content (generated questions) into node text or summaries', () => {
    const corpusText = [...nodes.values()].map((n) => `${n.title}\n${n.text ?? ''}\n${n.summary ?? ''}`).join('\n').toLowerCase();
    let generated = 0;
    for (const s of Object.values(raw)) {
      // t5_para = the section's text lines joined by spaces + generated questions.
      const own = s.text.join(' ');
      expect(s.t5_para.startsWith(own)).toBe(true);
      const extra = s.t5_para.slice(own.length).trim();
      if (!extra) continue;
      expect(corpusText).not.toContain(extra.toLowerCase());
      for (const q of extra.split(/\s\?\s?/).map((x) => x.trim()).filter((x) => x.split(' ').length >= 4)) {
        generated++;
        expect(corpusText, q).not.toContain(`${q.toLowerCase()} ?`);
      }
    }
    expect(generated).toBeGreaterThan(400);
    expect(corpusText).not.toContain('what is bixby used for ?');
  });

  it('loads 50 questions with answers and gold nodes', () => {
    expect(data.questions).toHaveLength(50);
    const q = data.questions.find((x) => x.id === '266')!;
    expect(q.question).toBe('What are the advanced recording options available in my device camera?');
    expect(q.answers).toHaveLength(1);
    expect(q.answers[0]).toMatch(/^Use the icons on the main camera screen/);
    expect(q.evidence).toHaveLength(1);
    const gold = nodes.get(q.evidence![0].nodeIds![0])!;
    expect(gold.title).toBe('Camera settings');
    expect(data.questions.every((x) => x.evidence?.[0].docId === 's10' && (x.evidence[0].nodeIds?.length ?? 0) >= 1)).toBe(true);
    expect(data.questions.every((x) => x.docIds === undefined)).toBe(true);
  });

  it('maps gold section paths: 49 exactly, the rest by last title, and reports it', () => {
    expect(data.goldMatch.exact).toBeGreaterThanOrEqual(49);
    expect(data.goldMatch.exact + data.goldMatch.lastTitle).toBe(50);
    expect(data.goldMatch.none).toBe(0);
    expect(data.warnings).toContain('emanual-s10: gold section_path matched 49 exactly, 1 by last title, 0 not at all (of 50)');
    // The one inexact path has an extra "Link to Windows" level; ancestor overlap picks the
    // Mobile continuity > Notifications section over Settings > Notifications.
    const q = data.questions.find((x) => x.id === '537')!;
    expect(q.evidence![0].nodeIds).toEqual(['section_70']);
    expect(nodes.get('section_70')!.title).toBe('Notifications');
  });

  it('every gold last title exists in the tree (50 last-title matches)', () => {
    const index = indexSections(data.doc);
    const csv = fs.readFileSync(path.join(DIR, 's10_50_questions.csv'), 'utf8');
    const paths = [...csv.matchAll(/,((?:[^,>"\n]+>)+[^,>"\n]+),http/g)].map((m) => m[1]);
    expect(paths).toHaveLength(50);
    for (const p of paths) {
      const last = titleKey(p.split('>').pop()!);
      expect(index.byTitle.has(last), p).toBe(true);
    }
    expect(matchSectionPath(index, 'Settings>Lock screen and security>Location').how).toBe('exact');
    expect(matchSectionPath(index, 'Nowhere>At all').how).toBe('none');
  });

  it('reports hierarchy problems as warnings instead of crashing', () => {
    const warnings: string[] = [];
    const doc = buildEmanualTree(
      {
        a: { id: 'a', title: 'A', text: ['A', 'body'], section_hierarchy: 'a' },
        b: { id: 'b', title: 'B', text: ['B'], section_hierarchy: 'missing>b' },
      },
      'x.json',
      warnings,
    );
    expect(doc.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(doc.nodes[0].text).toBe('body');
    expect(warnings).toHaveLength(1);
    expect(() => buildEmanualTree({ a: { title: 'A', text: 'oops', section_hierarchy: 'a' } }, 'x.json')).toThrow('x.json: field "a.text"');
  });
});
