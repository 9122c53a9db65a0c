import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../harness/types.ts';
import { treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import { assembleTree } from '../../../datasets/treeBuild/assemble.ts';

const node = (id: string, pages: [number, number], children: TreeNode[] = []): TreeNode => ({ id, title: `n${id}`, pages, children });

describe('tree invariants', () => {
  it('accepts a sound tree, with siblings sharing the page where a heading starts mid-page', () => {
    expect(treeInvariantErrors([node('1', [1, 3], [node('2', [1, 2]), node('3', [2, 3])]), node('4', [4, 5])], 5)).toEqual([]);
  });

  it('names each broken invariant', () => {
    expect(treeInvariantErrors([node('1', [1, 3]), node('2', [2, 5])], 5)).toEqual(['node 2 "n2": overlaps its previous sibling (3 > 2)']);
    expect(treeInvariantErrors([node('1', [1, 2]), node('2', [4, 5])], 5)).toEqual(['node 2 "n2": gap after its previous sibling (pages 3..3)']);
    expect(treeInvariantErrors([node('1', [1, 5], [node('2', [3, 2])])], 5)).toEqual(['node 2 "n2": bad page range [3, 2]']);
    expect(treeInvariantErrors([node('1', [1, 3], [node('2', [2, 4])]), node('3', [4, 5])], 5)).toEqual(["node 2 \"n2\": [2, 4] outside its parent's [1, 3]"]);
    expect(treeInvariantErrors([node('1', [1, 2]), node('1', [3, 5])], 5)).toEqual(['node 1 "n1": duplicate id']);
    expect(treeInvariantErrors([node('1', [2, 5])], 5)).toEqual(['page 1 belongs to no node']);
    expect(treeInvariantErrors([node('1', [1, 4])], 5)).toEqual(['page 5 belongs to no node']);
    expect(treeInvariantErrors([], 2)).toEqual(['the tree has no nodes']);
  });
});

describe('assembleTree', () => {
  const pages = ['Cover\nTitle page', 'A heading\nbody a\nB heading\nbody b', 'more b', 'C heading\nbody c'];

  it('nests by level, splits text at heading lines and ends ranges before the next heading', () => {
    const nodes = assembleTree(
      [
        { title: 'A', page: 2, line: 0, level: 1 },
        { title: 'B', page: 2, line: 2, level: 2 },
        { title: 'C', page: 4, line: 0, level: 1 },
      ],
      pages,
    );
    expect(treeInvariantErrors(nodes, 4)).toEqual([]);
    expect(nodes.map((n) => [n.id, n.title, n.pages, n.text])).toEqual([
      ['0001', 'Front matter', [1, 1], 'Cover\nTitle page'],
      ['0002', 'A', [2, 3], 'A heading\nbody a'],
      ['0004', 'C', [4, 4], 'C heading\nbody c'],
    ]);
    expect(nodes[1].children.map((n) => [n.id, n.title, n.pages, n.text])).toEqual([['0003', 'B', [2, 3], 'B heading\nbody b\nmore b']]);
  });
});
