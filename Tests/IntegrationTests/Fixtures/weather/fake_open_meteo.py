#!/usr/bin/env python3
"""A stand-in for Open-Meteo's forecast and geocoding APIs, for WeatherWidgetTests.

Serves DIR/forecast.json at /v1/forecast and DIR/search.json at /v1/search, read afresh on
every request (a test replaces them to serve a malformed body), and appends each request's
path and query to DIR/requests.log. Listens on 127.0.0.1, on a free port written to
DIR/port once it listens.

--shift-to-now: moves every time of a forecast that parses as JSON by whole hours, so that the
recorded `current.time` is the last hour before the real now (a sandboxed worker runs on the real
clock: the recorded conditions are then the current ones whenever the test runs).
"""
import http.server
import json
import os
import sys
import time

directory = sys.argv[1]
shift_to_now = "--shift-to-now" in sys.argv[2:]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path, _, _query = self.path.partition("?")
        with open(os.path.join(directory, "requests.log"), "a") as log:
            log.write(self.path + "\n")
        name = {"/v1/forecast": "forecast.json", "/v1/search": "search.json"}.get(path)
        try:
            with open(os.path.join(directory, name), "rb") as f:
                body = f.read()
        except (TypeError, OSError):
            self.send_error(404)
            return
        if name == "forecast.json" and shift_to_now:
            body = shifted(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def shifted(body):
    try:
        doc = json.loads(body)
        current = doc["current"]["time"]
    except (ValueError, KeyError, TypeError):
        return body
    hours = (int(time.time()) - current) // 3600
    days = (int(time.time()) - current + 43200) // 86400
    doc["current"]["time"] += hours * 3600
    doc["hourly"]["time"] = [t + hours * 3600 for t in doc["hourly"]["time"]]
    doc["daily"]["time"] = [t + days * 86400 for t in doc["daily"]["time"]]
    return json.dumps(doc, ensure_ascii=False).encode()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(directory, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(directory, "port.tmp"), os.path.join(directory, "port"))
server.serve_forever()
