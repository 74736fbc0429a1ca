"""A local OTLP/HTTP metrics receiver for the --otel-url tests: decodes every POST to /v1/metrics
with the official opentelemetry-proto definitions (protobuf or OTLP/JSON by Content-Type) and
appends one JSON line per export to OUT: {"content_type", "request": MessageToDict(...),
"raw": body as latin-1 text (for secret checks)}. Prints "listening on http://127.0.0.1:PORT".

    otlp_receiver.py OUT
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest, ExportMetricsServiceResponse)

OUT = sys.argv[1]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        ctype = self.headers.get("Content-Type", "")
        msg = ExportMetricsServiceRequest()
        try:
            if self.path != "/v1/metrics":
                raise ValueError("unexpected path " + self.path)
            if ctype.startswith("application/json"):
                json_format.Parse(body.decode("utf-8"), msg)
            elif ctype.startswith("application/x-protobuf"):
                msg.ParseFromString(body)
            else:
                raise ValueError("unexpected Content-Type " + ctype)
        except Exception as e:  # noqa: BLE001 - any decode failure is the test's finding
            with open(OUT, "a") as f:
                f.write(json.dumps({"error": str(e), "content_type": ctype}) + "\n")
            self.send_response(400)
            self.end_headers()
            return
        with open(OUT, "a") as f:
            f.write(json.dumps({"content_type": ctype,
                                "headers": {k: v for k, v in self.headers.items()},
                                "request": json_format.MessageToDict(msg),
                                "raw": body.decode("latin-1")}) + "\n")
        out = ExportMetricsServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
