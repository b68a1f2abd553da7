#!/usr/bin/env python3
"""report-collector.py: the HTTP collector the report lab test posts to.

  report-collector.py --port PORT --log FILE [--mode-file FILE] [--address 127.0.0.1]
                      [--max-batch N] [--max-body-bytes N]

Listens on ADDRESS:PORT (the sender namespace's loopback in the lab; port 0 picks a free one).
Prints "listening PORT" once it listens. Each POST is answered by the mode in --mode-file, read
per request (without --mode-file: "accept"): "accept" answers 200 and appends every event of the
body's "events" array to --log as one JSON line; "refuse" answers 503 and appends one line
{"refused": N} (N events in the batch); "hang" reads the body, appends {"held": N} (so a test
can wait until a send is in progress) and never answers. With
--max-batch N, a batch of more than N events is answered 413 and logged as
{"too_large": COUNT}; with --max-body-bytes N, so is a body of more than N bytes. A body that
is not {"events": [...]} as application/json is answered 400 and logged as {"bad": REASON}.
Bodies over 16 MiB are refused.
"""
import argparse
import json
import http.server
import sys
import threading

LIMIT = 16 * 1024 * 1024
lock = threading.Lock()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--address", default="127.0.0.1")
    ap.add_argument("--log", required=True)
    ap.add_argument("--mode-file")
    ap.add_argument("--max-batch", type=int)
    ap.add_argument("--max-body-bytes", type=int)
    args = ap.parse_args()

    def log(entry: dict) -> None:
        with lock, open(args.log, "a") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):  # quiet
            pass

        def answer(self, status: int) -> None:
            body = b"{}"
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length < 0 or length > LIMIT:
                log({"bad": f"length {length}"})
                return self.answer(413)
            raw = self.rfile.read(length)
            mode = "accept"
            if args.mode_file:
                try:
                    with open(args.mode_file) as f:
                        mode = f.read().strip()
                except OSError:
                    mode = "refuse"
            if self.headers.get("Content-Type") != "application/json":
                log({"bad": f"content type {self.headers.get('Content-Type')}"})
                return self.answer(400)
            try:
                events = json.loads(raw)["events"]
                assert isinstance(events, list) and all(isinstance(e, dict) and "id" in e for e in events)
            except (ValueError, KeyError, TypeError, AssertionError) as error:
                log({"bad": f"body: {error}"})
                return self.answer(400)
            if (args.max_batch is not None and len(events) > args.max_batch) or (
                    args.max_body_bytes is not None and length > args.max_body_bytes):
                log({"too_large": len(events)})
                return self.answer(413)
            if mode == "hang":
                log({"held": len(events)})
                threading.Event().wait()
            if mode != "accept":
                log({"refused": len(events)})
                return self.answer(503)
            for event in events:
                log(event)
            self.answer(200)

    server = http.server.ThreadingHTTPServer((args.address, args.port), Handler)
    print(f"listening {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
