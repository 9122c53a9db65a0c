"""A treebench strategy worker in Python (standard library only): JSON lines on stdin and stdout.

  strategies:
    - id: py-keyword
      command: [python3, ./python_worker.py]
      params: { topK: 3 }

treebench starts it once per run, writes one request per line (several in flight) and reads one
response per line, matched by questionId. stderr goes to runs/<runId>/logs/py-keyword.stderr.log.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from keyword_retriever import answer  # noqa: E402
from tb_plugin import serve_json_lines  # noqa: E402

if __name__ == "__main__":
    serve_json_lines(answer, sys.stdin, sys.stdout)
