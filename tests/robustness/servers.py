"""Servers the robustness cases point servebench at: the real servebench-mock (optionally behind
nghttpx for TLS and HTTP/2), and small misbehaving HTTP servers written here on raw sockets
(silent listener, hang after headers, slow headers, giant SSE events). All listen on 127.0.0.1
only, on ephemeral ports, and are stopped by the case that started them."""

import os
import signal
import socket
import subprocess
import threading
import time


def free_port():
    """A port nobody listens on (bound, then released): connecting to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mock:
    """servebench-mock on an ephemeral port; `url` once started."""

    def __init__(self, bin_dir, tmp, args=()):
        self.out = os.path.join(tmp, "mock.out")
        self.requests = os.path.join(tmp, "mock_requests.jsonl")
        cmd = [os.path.join(bin_dir, "servebench-mock"), "--port", "0", "--record-requests", self.requests]
        self.proc = subprocess.Popen(cmd + list(args), stdout=open(self.out, "w"),
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        self.url = None
        while time.monotonic() < deadline and self.proc.poll() is None:
            line = open(self.out).readline()
            if line.startswith("listening on "):
                self.url = line.split()[-1]
                self.port = int(self.url.rsplit(":", 1)[1])
                return
            time.sleep(0.02)
        raise RuntimeError("servebench-mock did not start")

    def request_count(self):
        try:
            return sum(1 for _ in open(self.requests))
        except FileNotFoundError:
            return 0

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    stop = kill


class Nghttpx:
    """nghttpx terminating TLS (self-signed certificate, ALPN h2 and http/1.1) in front of a
    backend port."""

    BIN = "/usr/sbin/nghttpx"

    def __init__(self, tmp, backend_port):
        key, cert = os.path.join(tmp, "key.pem"), os.path.join(tmp, "cert.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                        "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(5):
            self.port = free_port()
            self.proc = subprocess.Popen(
                [self.BIN, f"-f127.0.0.1,{self.port}", f"-b127.0.0.1,{backend_port}", "--workers=1",
                 "--conf=/dev/null", f"--errorlog-file={tmp}/nghttpx.log", "--accesslog-file=/dev/null",
                 key, cert], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            if self._wait_listening():
                self.url = f"https://127.0.0.1:{self.port}"
                return
            self.stop()
        raise RuntimeError("nghttpx did not start")

    def _wait_listening(self):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    def graceful_shutdown(self):
        """SIGQUIT: nghttpx sends GOAWAY on every HTTP/2 connection and stops accepting."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def read_request(conn):
    """Reads one HTTP/1.1 request (head and Content-Length body); False on EOF."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return False
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return False
        body += chunk
    return True


SSE_HEAD = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
            b"Cache-Control: no-cache\r\n\r\n")


def sse_event(content):
    return (b'data: {"id":"chatcmpl-r","object":"chat.completion.chunk","model":"mock-model",'
            b'"choices":[{"index":0,"delta":{"content":"' + content + b'"},"finish_reason":null}]}\n\n')


class RawServer:
    """A listener whose every connection is handled by `behaviour(conn)` on its own thread.
    behaviours: silent (accept, never read or answer), hang_after_headers, slow_headers,
    big_events."""

    def __init__(self, behaviour):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.behaviour = getattr(self, behaviour)
        self.conns = []
        self.stopped = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        try:
            self.behaviour(conn)
        except OSError:
            pass

    def silent(self, conn):
        self.stopped.wait()

    def hang_after_headers(self, conn):
        if read_request(conn):
            conn.sendall(SSE_HEAD)
        self.stopped.wait()

    def slow_headers(self, conn):
        """The response head trickles out one byte every 10 ms (~1 s), then a short stream."""
        if not read_request(conn):
            return
        for b in SSE_HEAD:
            if self.stopped.wait(0.01):
                return
            conn.sendall(bytes([b]))
        conn.sendall(sse_event(b" slow") + b"data: [DONE]\n\n")
        conn.close()

    def big_events(self, conn):
        """Two 8 MiB events of one giant word each, then [DONE]."""
        if not read_request(conn):
            return
        conn.sendall(SSE_HEAD)
        word = b"a" * (8 << 20)
        conn.sendall(sse_event(word) + sse_event(word) + b"data: [DONE]\n\n")
        conn.close()

    def stop(self):
        self.stopped.set()
        self.sock.close()
        for c in self.conns:
            try:
                c.close()
            except OSError:
                pass
