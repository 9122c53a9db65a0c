"""A treebench strategy service in Python (standard library only): one POST per question.

  python3 examples/plugins/http_service.py --port 8765 &
  strategies:
    - id: py-service
      url: http://127.0.0.1:8765/retrieve

The body of each POST is the protocol request; the reply body is the protocol response.
It listens on 127.0.0.1 only.
"""
import argparse
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from keyword_retriever import answer  # noqa: E402


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path != "/retrieve":
            return self.reply(404, {"error": f"POST {self.path}: this service answers POST /retrieve"})
        try:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        except ValueError:
            return self.reply(400, {"error": "the body is not JSON"})
        try:
            self.reply(200, answer(request))
        except Exception as e:  # the question's error record
            self.reply(200, {"answer": "", "error": f"{type(e).__name__}: {e}"})

    def reply(self, status, body):
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt, *args):
        pass  # quiet: one line per question is noise


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (0: any free port, printed on stdout)")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/retrieve", flush=True)
    server.serve_forever()
