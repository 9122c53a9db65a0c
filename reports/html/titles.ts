// Node titles for the HTML traces, looked up from the run's corpus.
import type { Corpus } from '../../harness/types.ts';
import { indexDoc } from '../../harness/trees/tree.ts';

export function nodeTitles(corpus: Corpus | null): (docId: string, nodeId: string) => string | null {
  if (!corpus) return () => null;
  const docs = new Map(corpus.docs.map((d) => [d.docId, d]));
  const indexed = new Map<string, ReturnType<typeof indexDoc>>();
  return (docId, nodeId) => {
    const doc = docs.get(docId);
    if (!doc) return null;
    if (!indexed.has(docId)) indexed.set(docId, indexDoc(doc));
    return indexed.get(docId)!.byId.get(nodeId)?.node.title ?? null;
  };
}
