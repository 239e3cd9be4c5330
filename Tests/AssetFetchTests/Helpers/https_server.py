#!/usr/bin/env python3
"""HTTPS (and plain HTTP) test server for AssetFetchTests. Python 3 standard library only.

Usage: https_server.py READY_FILE CERT_PEM KEY_PEM TOKEN [FILES_DIR]
Listens on 127.0.0.1, ephemeral ports, and writes {"https": port, "http": port} to READY_FILE.
Credentials: `Authorization: Bearer TOKEN`, or Basic with login `ripple` and password TOKEN.

Routes (N is a byte count; the body of N bytes is byte i = i % 251; ID makes state per test):
  /data/N                      bytes, honours `Range: bytes=a-` (206 + Content-Range)
  /private/N                   like /data, 401 without valid credentials
  /redirect-same-host/N        credentials required, 302 to /private/N (relative Location)
  /redirect-other-host/N       credentials required, 302 to https://localhost:PORT/landing/N
  /landing/N                   /data, but 400 if an Authorization header arrived (it must not)
  /to-http/N                   302 to http://127.0.0.1:HTTP_PORT/data/N
  /loop                        302 to itself
  /login                       200 text/html login page
  /page.html                   200 text/html (an HTML asset)
  /missing  /gone              404, 410
  /always500                   500
  /flaky/ID/N                  500 on the first request for ID, then /data
  /flaky-missing/ID            503 on the first request for ID, then 404 (a source broken behind a hiccup)
  /ratelimit/ID/N              429 with Retry-After: 7 on the first request, then /data
  /ratelimit-date/ID/N         429 with an HTTP-date Retry-After 20 s ahead, then /data
  /cut/ID/N                    first request without Range: 200, Content-Length N, N/2 bytes, close
  /no-range/N                  ignores Range: always 200 with the whole body
  /bad-range/N                 answers a Range request with 206 for bytes 0-…
  /denied-presigned            403 (URL carries a signature in its query string)
  /files/NAME                  the file NAME of FILES_DIR (a plain name; the query string is ignored, as a
                               pre-signed link's signature would be), 404 when absent
  /_log                        JSON list of {path, authorization, range} of every earlier request
"""
import http.server
import json
import os
import signal
import socket
import ssl
import sys
import threading
import time
from email.utils import formatdate

READY_FILE, CERT, KEY, TOKEN = sys.argv[1:5]
FILES_DIR = sys.argv[5] if len(sys.argv) > 5 else None
LOCK = threading.Lock()
LOG = []
HITS = {}
PORTS = {}
BASIC = "Basic " + __import__("base64").b64encode(f"ripple:{TOKEN}".encode()).decode()


def body(n: int) -> bytes:
    return bytes(i % 251 for i in range(n))


def hit(key: str) -> int:
    with LOCK:
        HITS[key] = HITS.get(key, 0) + 1
        return HITS[key]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        if isinstance(self.request, ssl.SSLSocket):
            try:
                self.request.do_handshake()
            except (ssl.SSLError, OSError):
                self.request.close()
                raise
        super().setup()

    # helpers
    def send(self, status, data=b"", content_type="application/octet-stream", headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def authorized(self):
        return self.headers.get("Authorization") in (f"Bearer {TOKEN}", BASIC)

    def serve_data(self, n, honour_range=True):
        data = body(n)
        requested = self.headers.get("Range")
        if honour_range and requested and requested.startswith("bytes=") and requested.endswith("-"):
            start = int(requested[6:-1])
            if start >= n:
                return self.send(416, headers={"Content-Range": f"bytes */{n}"})
            return self.send(206, data[start:], headers={"Content-Range": f"bytes {start}-{n - 1}/{n}"})
        self.send(200, data)

    def redirect(self, location):
        self.send(302, b"moved", "text/plain", {"Location": location})

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        parts = path.strip("/").split("/")
        with LOCK:
            LOG.append({
                "path": path,
                "host": self.headers.get("Host"),
                "authorization": self.headers.get("Authorization") is not None,
                "range": self.headers.get("Range"),
            })
        route = parts[0]
        try:
            self.route(route, parts)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.close_connection = True

    def route(self, route, parts):
        if route == "data":
            return self.serve_data(int(parts[1]))
        if route == "private":
            if not self.authorized():
                return self.send(401, b"login required", "text/plain", {"WWW-Authenticate": "Bearer"})
            return self.serve_data(int(parts[1]))
        if route == "redirect-same-host":
            if not self.authorized():
                return self.send(401, b"login required", "text/plain")
            return self.redirect(f"/private/{parts[1]}")
        if route == "redirect-other-host":
            if not self.authorized():
                return self.send(401, b"login required", "text/plain")
            return self.redirect(f"https://localhost:{PORTS['https']}/landing/{parts[1]}")
        if route == "landing":
            if self.headers.get("Authorization") is not None:
                return self.send(400, b"authorization leaked to another host", "text/plain")
            return self.serve_data(int(parts[1]))
        if route == "to-http":
            return self.redirect(f"http://127.0.0.1:{PORTS['http']}/data/{parts[1]}")
        if route == "loop":
            return self.redirect("/loop")
        if route == "login":
            return self.send(200, b"<html><body><form>Sign in</form></body></html>", "text/html; charset=utf-8")
        if route == "page.html":
            return self.send(200, b"<html><body>asset</body></html>", "text/html")
        if route == "missing":
            return self.send(404, b"not found", "text/plain")
        if route == "gone":
            return self.send(410, b"gone", "text/plain")
        if route == "always500":
            return self.send(500, b"boom", "text/plain")
        if route == "flaky":
            if hit(self.path) == 1:
                return self.send(500, b"boom", "text/plain")
            return self.serve_data(int(parts[2]))
        if route == "flaky-missing":
            if hit(self.path) == 1:
                return self.send(503, b"try again", "text/plain")
            return self.send(404, b"not found", "text/plain")
        if route == "ratelimit":
            if hit(self.path) == 1:
                return self.send(429, b"slow down", "text/plain", {"Retry-After": "7"})
            return self.serve_data(int(parts[2]))
        if route == "ratelimit-date":
            if hit(self.path) == 1:
                when = formatdate(time.time() + 20, usegmt=True)
                return self.send(429, b"slow down", "text/plain", {"Retry-After": when})
            return self.serve_data(int(parts[2]))
        if route == "cut":
            n = int(parts[2])
            if self.headers.get("Range") is None and hit("/cut/" + parts[1]) == 1:
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(n))
                self.end_headers()
                self.wfile.write(body(n)[: n // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            return self.serve_data(n)
        if route == "no-range":
            return self.serve_data(int(parts[1]), honour_range=False)
        if route == "bad-range":
            n = int(parts[1])
            if self.headers.get("Range"):
                return self.send(206, body(n), headers={"Content-Range": f"bytes 0-{n - 1}/{n}"})
            return self.send(200, body(n))
        if route == "denied-presigned":
            return self.send(403, b"<Error><Code>AccessDenied</Code></Error>", "application/xml")
        if route == "files":
            name = "/".join(parts[1:])
            path = os.path.join(FILES_DIR or "", name)
            if FILES_DIR is None or len(parts) != 2 or name in ("", ".", "..") or not os.path.isfile(path):
                return self.send(404, b"no such file", "text/plain")
            with open(path, "rb") as f:
                return self.send(200, f.read())
        if route == "_log":
            with LOCK:
                data = json.dumps(LOG).encode()
            return self.send(200, data, "application/json")
        self.send(404, b"no such route", "text/plain")


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # failed handshakes and cut connections are part of the tests


class TLSServer(QuietServer):
    def __init__(self, address, handler, context):
        super().__init__(address, handler)
        self.context = context

    def get_request(self):
        sock, address = self.socket.accept()
        # The handshake runs in the handler thread, so one failing client cannot block the others.
        return self.context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), address


def main():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(CERT, KEY)
    https = TLSServer(("127.0.0.1", 0), Handler, context)
    plain = QuietServer(("127.0.0.1", 0), Handler)
    PORTS["https"] = https.server_address[1]
    PORTS["http"] = plain.server_address[1]
    for server in (https, plain):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    with open(READY_FILE + ".tmp", "w") as f:
        f.write(json.dumps(PORTS) + "\n")
    os.rename(READY_FILE + ".tmp", READY_FILE)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sys.stdin.read()  # until the test closes our stdin (or terminates us)


if __name__ == "__main__":
    main()
