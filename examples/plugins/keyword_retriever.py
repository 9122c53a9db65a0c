"""An example retrieval system, in Python: BM25 over each node's title, summary and text, then one
answer from the model through the run's gateway. It stands for a team's own retriever (LlamaIndex,
LangChain, PageIndex's code ...): treebench sees only the protocol request and response.

params (from the config entry):  topK (nodes to read, default 3)
"""
from tb_plugin import Gateway, GatewayError, bm25_rank, load_corpus, terms

ANSWER_PROMPT = (
    "Answer the question from the context below. Reply with the answer only, as briefly as possible.\n\n"
    "Context:\n{context}\n\nQuestion: {question}"
)


def answer(request):
    corpus = load_corpus(request["corpusPath"])
    top_k = int(request["params"].get("topK", 3))
    wanted = request.get("docIds") or list(corpus)
    candidates = [(doc_id, n) for doc_id in wanted if doc_id in corpus for n in corpus[doc_id]["nodes"]]
    texts = [terms(" ".join([n["title"], n["title"], n.get("summary", ""), n.get("text", "")])) for _, n in candidates]
    ranked = [candidates[i] for i in bm25_rank(terms(request["question"]), texts)[:top_k]]
    trace = [{"action": "score", "docId": d, "nodeId": n["node_id"], "source": "value", "reason": "BM25 over title, summary and text"} for d, n in ranked]
    context = "\n\n".join(f"[{n['title']}]\n{n.get('text') or n.get('summary', '')}" for _, n in ranked)
    try:
        text = Gateway(request["model"]).chat([{"role": "user", "content": ANSWER_PROMPT.format(context=context, question=request["question"])}], max_tokens=256, task="keyword.answer")
    except GatewayError as e:
        if e.status != 429:
            raise
        text = ""  # the budget is spent: keep the evidence, give no answer
        trace.append({"action": "answer", "source": "rule", "reason": str(e)})
    return {"answer": text.strip(), "evidence": [{"docId": d, "nodeId": n["node_id"]} for d, n in ranked], "trace": trace}
