"""A local HTTP server that serves images the way real image hosts do, and misbehaves on request.

Test-only. Prints the port it listens on (127.0.0.1) as its first line of output.

  /img/<name>?kind=jpeg|png|gif|webp|html|bytes&ctype=<Content-Type or none>&size=N
             &chunked=1 (no Content-Length)&delay=S (before answering)&trickle=S (between 64 KB chunks)
  /status/<code>          that status, empty body
  /loop                   a redirect to itself
  /redirect?to=<url>      a redirect to url
  /hang                   accepts the request and never answers
"""
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

MAGIC = {
    "jpeg": (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "image/jpeg"),
    "png": (b"\x89PNG\r\n\x1a\n", "image/png"),
    "gif": (b"GIF89a", "image/gif"),
    "webp": (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
    "html": (b"<!doctype html><title>Not found</title>", "text/html; charset=utf-8"),
    "bytes": (b"\x00\x01\x02\x03", "application/octet-stream"),
}
CHUNK = 64 * 1024


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        if url.path.startswith("/img/"):
            return self.image(query)
        if url.path.startswith("/status/"):
            return self.empty(int(url.path.rsplit("/", 1)[1]))
        if url.path == "/loop":
            return self.empty(302, {"Location": "/loop"})
        if url.path == "/redirect":
            return self.empty(302, {"Location": query.get("to", "/")})
        if url.path == "/hang":
            time.sleep(3600)
            return
        self.empty(404)

    def empty(self, status, headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def image(self, query):
        magic, default_type = MAGIC[query.get("kind", "jpeg")]
        size = int(query.get("size", "2048"))
        time.sleep(float(query.get("delay", "0")))
        trickle = float(query.get("trickle", "0"))
        chunked = query.get("chunked") == "1"
        self.send_response(200)
        content_type = query.get("ctype", default_type)
        if content_type != "none":
            self.send_header("Content-Type", content_type)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        sent = 0
        try:
            while sent < size:
                piece = min(CHUNK, size - sent)
                data = (magic + bytes(piece))[:piece] if sent == 0 else bytes(piece)
                if chunked:
                    self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
                else:
                    self.wfile.write(data)
                sent += piece
                if trickle:
                    self.wfile.flush()
                    time.sleep(trickle)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass


def exit_with_parent():
    """The test process holds our standard input open; when it ends, so do we."""
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    threading.Thread(target=exit_with_parent, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()
