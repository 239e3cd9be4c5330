#!/usr/bin/env python3
"""A loopback stand-in for ResultStoreTests: rippled's record API and the ways a store fails.

Usage: standin_server.py READY_FILE
The first path segment picks the behaviour, so one server serves every test:
  /rippled/api/v1/records/<key>  GET (404 when absent) and PUT, kept in memory
  /status/<code>/...             answers <code> with a short body
  /flaky/<n>/...                 S3 objects (GET with an ETag, 404 NoSuchKey when absent; PUT), kept in memory,
                                 whose first <n> requests of each path answer 500 InternalError
  /hang/...                      reads the request and never answers
  /big/...                       200 with Content-Length 50 MiB, then streams zeros
  /bigchunked/...                200 without Content-Length (close-delimited), then streams 50 MiB of zeros
Every request is appended to requests.jsonl next to READY_FILE: {"method", "path", "authorization"}; each
/big and /bigchunked answer's end to streams.jsonl: {"path", "mebibytes" written, "completed"}.
Writes {"port": N} to READY_FILE when listening; runs until stdin closes or SIGTERM.
"""
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RECORDS = {}
OBJECTS = {}
FLAKY_SEEN = {}
LOG = None
STREAMS = None
LOCK = threading.Lock()
CHUNK = b"\0" * (1 << 20)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _answer(self, status, body=b"", content_type="text/plain"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _stream(self, with_length):
        self.send_response(200)
        if with_length:
            self.send_header("Content-Length", str(50 << 20))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        written = 0
        try:
            for _ in range(50):
                self.wfile.write(CHUNK)
                written += 1
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        # How the stream ended, for the tests: a client that stops reading and closes leaves it incomplete.
        with LOCK:
            STREAMS.write(json.dumps({"path": self.path, "mebibytes": written, "completed": written == 50}) + "\n")
            STREAMS.flush()

    def _handle(self):
        body = self._body()
        path = self.path.split("?", 1)[0]
        parts = path.strip("/").split("/")
        seen = {"method": self.command, "path": self.path, "authorization": self.headers.get("Authorization")}
        with LOCK:
            LOG.write(json.dumps(seen) + "\n")
            LOG.flush()
        kind = parts[0]
        if kind == "rippled" and parts[1:4] == ["api", "v1", "records"] and len(parts) == 5:
            key = parts[4]
            with LOCK:
                if self.command == "PUT":
                    RECORDS[key] = body
                    self._answer(204)
                elif key in RECORDS:
                    self._answer(200, RECORDS[key], "application/json")
                else:
                    self._answer(404, b"no such record")
        elif kind == "status" and len(parts) > 1 and parts[1].isdigit():
            self._answer(int(parts[1]), b"stand-in status " + parts[1].encode())
        elif kind == "flaky" and len(parts) > 2 and parts[1].isdigit():
            with LOCK:
                FLAKY_SEEN[path] = FLAKY_SEEN.get(path, 0) + 1
                if FLAKY_SEEN[path] <= int(parts[1]):
                    self._answer(500, b"<Error><Code>InternalError</Code><Message>stand-in</Message></Error>")
                elif self.command == "PUT":
                    OBJECTS[path] = body
                    self.send_response(200)
                    self.send_header("ETag", '"%d"' % len(OBJECTS))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif path in OBJECTS:
                    self._answer(200, OBJECTS[path], "application/octet-stream")
                else:
                    self._answer(404, b"<Error><Code>NoSuchKey</Code></Error>", "application/xml")
        elif kind == "hang":
            time.sleep(3600)
        elif kind == "big":
            self._stream(True)
        elif kind == "bigchunked":
            self._stream(False)
        else:
            self._answer(404, b"unknown stand-in path")

    do_GET = _handle
    do_PUT = _handle
    do_HEAD = _handle


def main():
    global LOG, STREAMS
    ready_file = sys.argv[1]
    LOG = open(os.path.join(os.path.dirname(ready_file), "requests.jsonl"), "a")
    STREAMS = open(os.path.join(os.path.dirname(ready_file), "streams.jsonl"), "a")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with open(ready_file + ".tmp", "w") as f:
        f.write(json.dumps({"port": server.server_address[1]}) + "\n")
    os.rename(ready_file + ".tmp", ready_file)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    main()
