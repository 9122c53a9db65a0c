"""Helpers for treebench strategy plugins written in Python (standard library only).

A plugin answers the strategy protocol `treebench.strategy/1`: it is given a request per question
(the question, its params, the path of the run's corpus file, the model gateway's address and a
per-question key) and answers with the answer and the evidence it used, best first. This module
holds what the examples share: reading the corpus file, a small BM25 ranker over nodes, and a
client for the run's model gateway (an OpenAI-compatible endpoint on 127.0.0.1 that meters every
call as the question's). See docs/plugins.md.
"""
import json
import math
import re
import threading
import urllib.error
import urllib.request

PROTOCOL = "treebench.strategy/1"

_corpora = {}
_corpora_lock = threading.Lock()


def load_corpus(path):
    """The corpus file, read once per path: {docId: {"title", "description", "structure", "nodes": [flat, with depth], "pages"}}."""
    with _corpora_lock:
        if path not in _corpora:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            docs = {}
            for d in data["documents"]:
                flat = []

                def walk(nodes, depth):
                    for n in nodes:
                        flat.append({**n, "depth": depth})
                        walk(n.get("nodes", []), depth + 1)

                walk(d["structure"], 0)
                docs[d["docId"]] = {"title": d["title"], "description": d.get("description"), "structure": d["structure"], "nodes": flat, "pages": d.get("pages")}
            _corpora[path] = docs
        return _corpora[path]


_WORD = re.compile(r"[a-z0-9]+")
_STOP = set("a an and are as at be by do does for from how i in is it of on or that the this to was what when where which who why with you your".split())


def terms(text):
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


def bm25_rank(query, docs, k1=1.2, b=0.75):
    """Indices of `docs` (lists of terms) by BM25 score for `query` (a list of terms), best first, score > 0 only."""
    n = len(docs)
    if n == 0:
        return []
    avg = sum(len(d) for d in docs) / n or 1.0
    df = {}
    for d in docs:
        for t in set(d):
            df[t] = df.get(t, 0) + 1
    scores = []
    for i, d in enumerate(docs):
        tf = {}
        for t in d:
            tf[t] = tf.get(t, 0) + 1
        s = 0.0
        for t in set(query):
            if t not in tf:
                continue
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            s += idf * tf[t] * (k1 + 1) / (tf[t] + k1 * (1 - b + b * len(d) / avg))
        scores.append((s, i))
    return [i for s, i in sorted(scores, key=lambda x: (-x[0], x[1])) if s > 0]


class GatewayError(Exception):
    """A call the gateway refused: `status` 429 with code budget_* when the question's budget is spent."""

    def __init__(self, status, message, code=None):
        super().__init__(message)
        self.status = status
        self.code = code


class Gateway:
    """The run's model gateway for one question (request["model"]): chat, embeddings, value search."""

    def __init__(self, model, timeout=120):
        self.base = model["baseURL"].rstrip("/")
        self.key = model["apiKey"]
        self.model = model["model"]
        self.timeout = timeout

    def _post(self, path, body, task=None):
        headers = {"Content-Type": "application/json", "Authorization": "Bearer " + self.key}
        if task:
            headers["X-Treebench-Task"] = task
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode("utf-8"), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return json.loads(res.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            try:
                err = json.loads(e.read().decode("utf-8")).get("error", {})
            except ValueError:
                err = {}
            raise GatewayError(e.code, err.get("message", str(e)), err.get("code")) from None

    def chat(self, messages, max_tokens=512, json_mode=False, task=None):
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        reply = self._post("/chat/completions", body, task)
        return reply["choices"][0]["message"].get("content") or ""

    def value_search(self, query, top_k, doc_ids=None):
        body = {"query": query, "topK": top_k}
        if doc_ids is not None:
            body["docIds"] = doc_ids
        return self._post("/treebench/value-search", body)["hits"]

    def count_tokens(self, texts):
        return self._post("/treebench/count-tokens", {"input": texts})["counts"]


def serve_json_lines(answer, stdin, stdout, workers=8):
    """Runs a worker: one request per stdin line, answered on stdout (several at once, in threads)."""
    from concurrent.futures import ThreadPoolExecutor

    lock = threading.Lock()

    def handle(line):
        request = json.loads(line)
        try:
            reply = answer(request)
        except Exception as e:  # the question's error record, not a dead worker
            reply = {"answer": "", "error": f"{type(e).__name__}: {e}"}
        reply["questionId"] = request["questionId"]
        text = json.dumps(reply, ensure_ascii=False)
        with lock:
            stdout.write(text + "\n")
            stdout.flush()

    # Everything this process loads before serving is done: with `ready: true` in its config
    # entry, treebench sends nothing, and times nothing, before this line.
    stdout.write(json.dumps({"ready": True}) + "\n")
    stdout.flush()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for line in stdin:
            if line.strip():
                pool.submit(handle, line)
