#!/usr/bin/env python3
"""Writes Prometheus text and OpenMetrics expositions with prometheus_client, parses each with
prometheus_client's own parsers, and stores both for the C++ differential test.

    prom_reference.py OUT_DIR

For every case N it writes OUT_DIR/N.txt (the exposition), OUT_DIR/N.json (what
prometheus_client's parser read: families with name, type, help, unit and samples) and lists the
case in OUT_DIR/manifest.txt as "N prom|om". Values are strings (repr of the float) so NaN and
infinities survive JSON; timestamps are integer milliseconds or null.
"""
import json
import math
import os
import random
import sys

from prometheus_client import (CollectorRegistry, Counter, Enum, Gauge, Histogram, Info,
                               Summary, generate_latest)
from prometheus_client.openmetrics.exposition import generate_latest as generate_latest_om
from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as parse_om
from prometheus_client.parser import text_string_to_metric_families as parse_prom

ESCAPY = ['plain', 'back\\slash', 'quo"te', 'new\nline', 'all \\ " \n three', 'ünï ☃', '',
          'trailing\\', '\\n literal', 'a,b=c}{']


def fixed_registry():
    reg = CollectorRegistry()
    c = Counter('http_requests', 'Requests served.\nSecond line \\ backslash.', ['method', 'path'],
                registry=reg)
    for i, v in enumerate(ESCAPY):
        c.labels(method='GET' if i % 2 else 'POST', path=v).inc(i * 3 + 1)
    g = Gauge('queue_depth', 'Waiting "requests".', ['kind'], registry=reg)
    for kind, val in [('nan', math.nan), ('pinf', math.inf), ('ninf', -math.inf), ('neg', -2.5),
                      ('big', 1.7976931348623157e308), ('tiny', 5e-324), ('zero', 0.0),
                      ('frac', 0.1 + 0.2)]:
        g.labels(kind=kind).set(val)
    h = Histogram('latency_seconds', 'Latency.', ['model'],
                  buckets=[0.001, 0.01, 0.1, 0.5, 1, 2.5, 10], registry=reg)
    for i in range(200):
        h.labels(model='m1' if i % 3 else 'm\\2').observe((i * 37 % 101) / 40.0)
    s = Summary('rpc_seconds', 'RPC time.', registry=reg)
    for i in range(10):
        s.observe(i / 7)
    Info('build', 'Build info.', registry=reg).info({'version': '1.2"3', 'rev': 'a\\b'})
    Enum('state', 'Server state.', states=['starting', 'running', 'stopped'],
         registry=reg).state('running')
    Gauge('vllm:num_requests_running', 'Running.', ['model_name'], registry=reg).labels(
        model_name='x').set(3)
    return reg


def random_registry(rng):
    reg = CollectorRegistry()
    chars = 'ab_\\"\n z9:{}=,#é'
    for m in range(rng.randint(1, 6)):
        labels = ['l%d' % k for k in range(rng.randint(0, 3))]
        kind = rng.choice(['counter', 'gauge', 'histogram', 'summary'])
        name = 'm%d_%s' % (m, kind)
        doc = ''.join(rng.choice(chars) for _ in range(rng.randint(0, 12)))
        if kind == 'counter':
            metric = Counter(name, doc, labels, registry=reg)
        elif kind == 'gauge':
            metric = Gauge(name, doc, labels, registry=reg)
        elif kind == 'histogram':
            edges = sorted({round(rng.uniform(0, 50), rng.randint(0, 4)) for _ in range(rng.randint(1, 6))})
            metric = Histogram(name, doc, labels, buckets=edges, registry=reg)
        else:
            metric = Summary(name, doc, labels, registry=reg)
        for _ in range(rng.randint(1, 4)):
            child = metric.labels(*[''.join(rng.choice(chars) for _ in range(rng.randint(0, 6)))
                                    for _ in labels]) if labels else metric
            for _ in range(rng.randint(1, 5)):
                v = rng.choice([rng.uniform(0, 1e6), rng.random(), float(rng.randint(0, 10**9))])
                if kind in ('counter',):
                    child.inc(v)
                elif kind == 'gauge':
                    child.set(rng.choice([v, -v, math.nan, math.inf, -math.inf, v * 1e-300]))
                else:
                    child.observe(v / 1e4)
    return reg


HAND_PROM = [
    '# HELP t Timestamps.\n# TYPE t gauge\nt{a="1"} 12 1395066363000\nt{a="2"} -Inf -5\n'
    't{a="3"} NaN 0\n',
    '# A free comment\n\nuntyped_one 1\nuntyped_two{x="y",} 2\n  spaced { a = "b" } 3  \n'
    '# TYPE cnt_total counter\ncnt_total 7\n',
    '# TYPE h histogram\nh_bucket{le="0.5"} 1\nh_bucket{le="+Inf"} 3\nh_sum 4.25\nh_count 3\n'
    '# TYPE s summary\ns{quantile="0.99"} 0.3\ns_sum 2\ns_count 9\n',
    'vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.25\n'
    'llamacpp:prompt_tokens_total 120\nllamacpp:requests_processing 1\n',
]

HAND_OM = [
    '# TYPE req_bytes counter\n# UNIT req_bytes bytes\n# HELP req_bytes Req "q" \\\\ \\n.\n'
    'req_bytes_total{a="b"} 17 # {trace_id="KOO5S4vxi0o"} 0.67\n'
    'req_bytes_created{a="b"} 1520430000.123\nts{a="b"} 3 1520879607.789\n# EOF\n',
    '# TYPE h histogram\nh_bucket{le="1.0"} 0 # {id="x"} 0.5 123.4\nh_bucket{le="+Inf"} 2\n'
    'h_count 2\nh_sum 3.5\n# TYPE gh gaugehistogram\ngh_bucket{le="+Inf"} 4\ngh_gcount 4\n'
    'gh_gsum 2\n# EOF\n',
    '# TYPE s stateset\ns{s="a"} 1\ns{s="b"} 0\n# TYPE i info\ni_info{v="1"} 1\nu 1 0.0005\n'
    'u2 NaN\nu3 -Inf 1.5\n# EOF\n',
]


def ms(ts):
    if ts is None:
        return None
    if hasattr(ts, 'sec'):
        return ts.sec * 1000 + (ts.nsec + 500000) // 1000000
    return round(ts * 1000)


def dump(families):
    out = []
    for f in families:
        out.append({'name': f.name, 'type': 'unknown' if f.type == 'untyped' else f.type,
                    'help': f.documentation, 'unit': getattr(f, 'unit', ''),
                    'samples': [{'name': s.name, 'labels': s.labels, 'value': repr(float(s.value)),
                                 'timestamp_ms': ms(s.timestamp)} for s in f.samples]})
    return out


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    cases = []
    rng = random.Random(1234)
    regs = [fixed_registry()] + [random_registry(rng) for _ in range(40)]
    for reg in regs:
        cases.append(('prom', generate_latest(reg).decode()))
        cases.append(('om', generate_latest_om(reg).decode()))
    cases += [('prom', t) for t in HAND_PROM] + [('om', t) for t in HAND_OM]
    with open(os.path.join(out_dir, 'manifest.txt'), 'w') as manifest:
        for n, (fmt, text) in enumerate(cases):
            parsed = parse_om(text) if fmt == 'om' else parse_prom(text)
            with open(os.path.join(out_dir, '%d.txt' % n), 'w', encoding='utf-8', newline='') as f:
                f.write(text)
            with open(os.path.join(out_dir, '%d.json' % n), 'w') as f:
                json.dump(dump(parsed), f, ensure_ascii=False)
            manifest.write('%d %s\n' % (n, fmt))


if __name__ == '__main__':
    main()
