"""PageIndex's one-shot node-list search as a treebench worker, in Python (standard library only).

It re-implements treebench's built-in `node-list` strategy outside the process, with the same
prompts, through the run's model gateway: choose documents by value search, show the model the
whole outline (ids, titles, summaries, pages; no text), open the nodes it returns, answer from
them. treebench's tests run it beside the built-in on the quickstart and check that it makes the
same node choices and the same calls and tokens per question: a worked example of porting a
strategy, and a check that the gateway meters a foreign process exactly like ctx.chat.

  strategies:
    - id: py-node-list
      command: [python3, ./node_list_worker.py]
      params: { maxNodes: 4 }

params: maxNodes (4), maxOutlineTokens (12000), maxContextTokens (6000), docSelect (value | all), maxDocs (3)
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tb_plugin import Gateway, GatewayError, load_corpus, serve_json_lines  # noqa: E402

# The built-in prompts (strategies/prompts.ts), word for word.
SELECT_NODES = "\n".join([
    "You are given a question and the table of contents of one document (node ids, titles, summaries, pages; no body text).",
    "Find the nodes whose text is most likely to contain the answer. Reason about where such information is normally written,",
    'not only about shared words: a question about "refunds" may be answered under "Returns and exchanges".',
    "Return at most `max_nodes` node ids, most likely first. Prefer the most specific node. Return an empty list if nothing fits.",
    'Reply with JSON only: {"thinking": "<your reasoning>", "node_list": ["<node_id>", ...]}',
])
ANSWER = "\n".join([
    "Answer the question using only the context passages. Be concise: give the fact, number or short phrase asked for,",
    'with its unit. If the context does not contain the answer, say "Not found in the provided context."',
    "If `choices` are given, also return the 0-based index of the right choice.",
    'Reply with JSON only: {"answer": "<answer>", "choice": <index or null>}',
])
Q = "::"


def task_message(payload):
    return {"role": "user", "content": "Task: %s\n\nInput:\n```json\n%s\n```" % (payload["task"], json.dumps(payload, indent=1, ensure_ascii=False))}


def parse_object(text):
    """The reply's JSON object: bare, fenced, or the first {...} in prose (as treebench reads replies)."""
    t = text.strip()
    candidates = [t] + [m.strip() for m in re.findall(r"```(?:json|JSON)?\s*\n?([\s\S]*?)```", t)]
    start, end = t.find("{"), t.rfind("}")
    if 0 <= start < end:
        candidates.append(t[start:end + 1])
    error = "no JSON object found in the reply"
    for c in candidates:
        if not c.startswith("{"):
            continue
        try:
            value = json.loads(c)
        except ValueError as e:
            error = "invalid JSON: %s" % e
            continue
        if isinstance(value, dict):
            return value, None
        error = "the reply is JSON but not an object"
    return None, error


def ask(gw, instruction, payload, validate, max_tokens):
    """One structured question, retried once with the error spelled out (harness/protocol/ask.ts)."""
    messages = [{"role": "system", "content": instruction}, task_message(payload)]
    raw, error = "", ""
    for _ in range(2):
        raw = gw.chat(messages, max_tokens=max_tokens, json_mode=True, task=payload["task"])
        obj, error = parse_object(raw)
        if obj is not None:
            value, error = validate(obj)
            if error is None:
                return value, raw, None
        messages.append({"role": "assistant", "content": raw})
        messages.append({"role": "user", "content": "Your reply could not be used: %s. Reply again with JSON only, in the shape asked for." % error})
    return None, raw, error


def string_list(value):
    if isinstance(value, list):
        return [str(v).strip() for v in value if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
    if isinstance(value, str):
        return [s.strip() for s in value.split(",") if s.strip()]
    return None


def clip(text, chars=400):
    return text if len(text) <= chars else text[: chars - 1].rstrip() + "\u2026"


def to_outline(nodes, prefix=""):
    out = []
    for n in nodes:
        o = {"node_id": prefix + n["node_id"], "title": n["title"]}
        if n.get("summary"):
            o["summary"] = clip(n["summary"])
        if "start_index" in n:
            o["pages"] = [n["start_index"], n["end_index"]]
        if n.get("nodes"):
            o["nodes"] = to_outline(n["nodes"], prefix)
        out.append(o)
    return out


def page_outline(outline, max_tokens, count):
    pages, page, size = [], [], 0

    def place(node):
        nonlocal page, size
        tokens = count(json.dumps(node, separators=(",", ":"), ensure_ascii=False))
        if tokens > max_tokens and node.get("nodes"):
            head = {k: v for k, v in node.items() if k != "nodes"}
            place(head)
            for child in node["nodes"]:
                place(child)
            return
        if size + tokens > max_tokens:
            if page:
                pages.append(page)
            page, size = [], 0
        page.append(node)
        size += tokens

    for node in outline:
        place(node)
    if page:
        pages.append(page)
    return pages


def node_text(doc, node):
    """What opening a node reads: its text, else its pages, else its summary, else its title."""
    if (node.get("text") or "").strip():
        return node["text"]
    if "start_index" in node and doc.get("pages"):
        text = "\n".join(doc["pages"][node["start_index"] - 1: node["end_index"]])
        if text.strip():
            return text
    return node.get("summary") or node["title"]


def select_documents(gw, request, corpus, params):
    named = [d for d in (request.get("docIds") or []) if d in corpus]
    if named:
        return named
    every = list(corpus)
    if params["docSelect"] == "all" or len(every) <= params["maxDocs"]:
        return every
    if params["docSelect"] != "value":
        raise ValueError("docSelect %r: this example does value and all" % params["docSelect"])
    sums = {}
    for h in gw.value_search(request["question"], 50):
        s = sums.setdefault(h["docId"], [0.0, 0])
        s[0] += h["score"]
        s[1] += 1
    ranked = sorted(((s / math.sqrt(n + 1), d) for d, (s, n) in sums.items()), key=lambda x: (-x[0], x[1]))
    ids = [d for _, d in ranked[: params["maxDocs"]]]
    return ids or every[: params["maxDocs"]]


def answer(request):
    params = {"maxNodes": 4, "maxOutlineTokens": 12000, "maxContextTokens": 6000, "docSelect": "value", "maxDocs": 3, **request["params"]}
    gw = Gateway(request["model"])
    corpus = load_corpus(request["corpusPath"])
    trace = []
    doc_ids = select_documents(gw, request, corpus, params)
    docs = [corpus[d] for d in doc_ids]
    one = len(docs) == 1
    resolve = {}
    for d in doc_ids:
        for n in corpus[d]["nodes"]:
            resolve[n["node_id"] if one else d + Q + n["node_id"]] = (d, n)
    if one:
        outline = to_outline(docs[0]["structure"])
    else:
        outline = []
        for d in doc_ids:
            entry = {"node_id": "doc" + Q + d, "title": corpus[d]["title"]}
            if corpus[d].get("description"):
                entry["summary"] = corpus[d]["description"]
            entry["nodes"] = to_outline(corpus[d]["structure"], d + Q)
            outline.append(entry)
    pages = page_outline(outline, params["maxOutlineTokens"], lambda s: gw.count_tokens([s])[0])
    chosen = []
    try:
        for i, page in enumerate(pages):
            payload = {
                "task": "select-nodes",
                "question": request["question"],
                "doc_id": doc_ids[0] if one else "*",
                "doc_title": docs[0]["title"] if one else "%d documents" % len(docs),
                "outline": page,
                "max_nodes": params["maxNodes"],
            }
            if len(pages) > 1:
                payload["page"] = {"index": i + 1, "count": len(pages)}

            def check(obj):
                ids = string_list(obj.get("node_list"))
                if ids is None:
                    return None, '"node_list" must be a list of node ids'
                unknown = [x for x in ids if x not in resolve and not x.startswith("doc" + Q)]
                if unknown:
                    return None, "unknown node ids: " + ", ".join(unknown[:5])
                return ids, None

            ids, _raw, error = ask(gw, SELECT_NODES, payload, check, 1024)
            if ids is None:
                trace.append({"action": "fallback", "source": "rule", "reason": "outline page %d: unusable reply (%s)" % (i + 1, error)})
                continue
            for node_id in ids[: params["maxNodes"]]:
                if node_id in resolve:
                    d, n = resolve[node_id]
                    trace.append({"action": "select", "docId": d, "nodeId": n["node_id"], "source": "llm", "depth": n["depth"]})
                    chosen.append((d, n))
        if not chosen:
            for h in gw.value_search(request["question"], params["maxNodes"], doc_ids):
                chosen.append((h["docId"], next(n for n in corpus[h["docId"]]["nodes"] if n["node_id"] == h["nodeId"])))
            trace.append({"action": "fallback", "source": "value", "reason": "no node selected by the model; opened value-search hits"})
    except GatewayError as e:
        if e.status != 429:
            raise
    evidence, seen = [], set()
    for d, n in chosen:
        if (d, n["node_id"]) not in seen:
            seen.add((d, n["node_id"]))
            evidence.append((d, n))
            trace.append({"action": "open", "docId": d, "nodeId": n["node_id"], "source": "llm", "depth": n["depth"]})
    context, used = [], 0
    for d, n in evidence:
        text = node_text(corpus[d], n)
        tokens = gw.count_tokens([text])[0]
        if used + tokens > params["maxContextTokens"] and context:
            break
        passage = {"doc_id": d, "node_id": n["node_id"], "title": n["title"], "text": text}
        if "start_index" in n:
            passage["pages"] = [n["start_index"], n["end_index"]]
        context.append(passage)
        used += tokens
    payload = {"task": "answer", "question": request["question"], "context": context}
    if request.get("choices"):
        payload["choices"] = request["choices"]

    def check_answer(obj):
        a = obj.get("answer")
        if not isinstance(a, (str, int, float)) or isinstance(a, bool):
            return None, '"answer" must be a string'
        choice = obj.get("choice") if isinstance(obj.get("choice"), int) and not isinstance(obj.get("choice"), bool) else None
        return (a if isinstance(a, str) else json.dumps(a), choice), None

    result = {"evidence": [{"docId": d, "nodeId": n["node_id"]} for d, n in evidence], "trace": trace}
    try:
        value, raw, _error = ask(gw, ANSWER, payload, check_answer, 512)
    except GatewayError as e:
        if e.status != 429:
            raise
        return {**result, "answer": ""}
    if value is None:
        return {**result, "answer": raw.strip()}
    text, choice = value
    return {**result, "answer": text, **({"choice": choice} if choice is not None else {})}


if __name__ == "__main__":
    serve_json_lines(answer, sys.stdin, sys.stdout)
