#!/usr/bin/env python3
"""`make dashboard-shot`'s layout check: a page laid out by headless Chromium at a given width, asked through the
DevTools protocol (a minimal WebSocket client, standard library only) where each status badge of the runs list and
of a run's targets table landed. A badge that leaves its table cell would overlap the next column: the check fails,
naming the badge, the page and the width.

    dashboard_layout.py CHROMIUM URL WIDTH [HEIGHT]   exit 0: every badge inside its cell (and at least one badge)
"""
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

PROBE = r"""
(() => {
  const problems = [];
  const badges = document.querySelectorAll('table.targets .badge, tr.run .badge');
  for (const badge of badges) {
    const cell = badge.closest('td');
    if (!cell) continue;
    const b = badge.getBoundingClientRect(), c = cell.getBoundingClientRect();
    if (b.left < c.left - 0.5 || b.right > c.right + 0.5 || b.top < c.top - 0.5 || b.bottom > c.bottom + 0.5) {
      problems.push(`"${badge.textContent}" at ${Math.round(b.left)}–${Math.round(b.right)} px leaves its cell ` +
        `(${Math.round(c.left)}–${Math.round(c.right)} px)`);
    }
  }
  return JSON.stringify({badges: badges.length, problems, width: document.documentElement.clientWidth});
})()
"""


class Socket:
    """A WebSocket client for one DevTools target: masked text frames out, text frames in."""

    def __init__(self, url):
        rest = url.split("://", 1)[1]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        response = b""
        while b"\r\n\r\n" not in response:
            response += self.sock.recv(1)
        if b" 101 " not in response.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"no WebSocket: {response[:80]!r}")
        self.next_id = 0

    def send(self, method, params=None):
        self.next_id += 1
        payload = json.dumps({"id": self.next_id, "method": method, "params": params or {}}).encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        while True:
            message = json.loads(self.receive())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise RuntimeError("the DevTools connection closed")
            data += chunk
        return data

    def receive(self):
        text = b""
        while True:
            first, second = self.exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self.exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self.exactly(8))[0]
            text += self.exactly(length)
            if first & 0x80:
                return text.decode()


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    chromium, url, width = sys.argv[1], sys.argv[2], int(sys.argv[3])
    height = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    profile = tempfile.mkdtemp(prefix="rippled-layout-")
    browser = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", f"--window-size={width},{height}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        for _ in range(600):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.1)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30))
        page = next(t for t in targets if t.get("type") == "page")
        ws = Socket(page["webSocketDebuggerUrl"])
        ws.send("Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        ws.send("Page.navigate", {"url": url})
        state = ""
        for _ in range(600):
            state = ws.send("Runtime.evaluate", {"expression": "document.readyState", "returnByValue": True})
            if state.get("result", {}).get("value") == "complete" and "about:blank" not in json.dumps(
                    ws.send("Runtime.evaluate", {"expression": "location.href", "returnByValue": True})):
                break
            time.sleep(0.1)
        result = ws.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True})
        found = json.loads(result["result"]["value"])
    finally:
        browser.kill()
        browser.wait()
    where = f"{url} at {width} px (laid out {found['width']} px wide)"
    if found["badges"] == 0:
        print(f"  FAIL  no status badge on {where}")
        return 1
    if found["problems"]:
        for problem in found["problems"]:
            print(f"  FAIL  {where}: {problem}")
        return 1
    print(f"  ok    {found['badges']} badges inside their cells on {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
