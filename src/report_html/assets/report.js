// servebench report page: renders the inlined data (#sb-data, built by src/report_html/ and
// src/compare/) with the embedded uPlot. No network. window.servebenchReport exposes the
// charts and panels to the browser test (tests/browser/).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('sb-data').textContent);
  var root = document.getElementById('sb-root');
  var hasUplot = typeof uPlot === 'function';
  var state = { charts: {}, panels: [], kind: data.kind, rendered: false };
  window.servebenchReport = state;

  // ---- helpers -------------------------------------------------------------------------------
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function cssVar(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }
  function palette() {
    var p = [];
    for (var i = 1; i <= 8; i++) p.push(cssVar('--c' + i));
    return p;
  }
  function fmt(v) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    if (Number.isInteger(v)) return String(v);
    var a = Math.abs(v);
    if (a >= 1e6) return v.toExponential(3);
    if (a >= 100) return v.toFixed(1);
    if (a >= 0.01) return v.toFixed(2);
    return v.toPrecision(3);
  }
  function panel(id, title, desc) {
    var body = el('div', { cls: 'panel-body' });
    var sec = el('section', { cls: 'panel', 'data-panel': id, id: 'panel-' + id },
                 [el('h2', { text: title }), desc ? el('p', { cls: 'desc', text: desc }) : null, body]);
    root.appendChild(sec);
    state.panels.push(id);
    return body;
  }
  function note(body, text) { body.appendChild(el('p', { cls: 'note', text: text })); }

  // A uPlot chart. series: [{label, color, dash, fill, bars, width}], rows: [x, y1, y2, ...].
  function chart(name, body, o) {
    var box = el('div', { cls: 'chart', 'data-chart': name, 'data-points': String(o.rows[0].length) });
    body.appendChild(box);
    if (!hasUplot) {
      state.charts[name] = { missing: true, points: o.rows[0].length };
      note(box, 'Charts unavailable: this servebench was built without its chart library.');
      return null;
    }
    var fg = cssVar('--fg'), grid = cssVar('--grid');
    var axis = function (label) {
      return { label: label, stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    };
    var series = [{ label: o.xLabel }].concat(o.series.map(function (s) {
      var d = { label: s.label, stroke: s.color, width: s.width || 1.5, points: { show: !!s.points },
                spanGaps: !!s.spanGaps };
      if (s.fill) d.fill = s.fill;
      if (s.dash) d.dash = s.dash;
      if (s.bars) { d.paths = uPlot.paths.bars({ size: [0.95, Infinity], align: 1 }); d.fill = s.color; }
      if (s.stepped) d.paths = uPlot.paths.stepped({ align: 1 });
      return d;
    }));
    var opts = {
      title: o.title, width: Math.max(320, box.clientWidth || 600), height: o.height || 240,
      scales: { x: { time: false }, y: o.yLog ? { distr: 3 } : {} },
      axes: [axis(o.xLabel), axis(o.yLabel)], series: series, legend: { live: true },
      cursor: { drag: { x: true, y: false } }
    };
    if (o.bands) opts.bands = o.bands;
    // One distinct x (a constant ISL): give the axis a width around it.
    var xs = o.rows[0];
    if (xs.length && xs[0] === xs[xs.length - 1]) opts.scales.x.range = [xs[0] - 1, xs[0] + 1];
    var u = new uPlot(opts, o.rows, box);
    state.charts[name] = u;
    return u;
  }

  function header(title, facts) {
    var toggle = el('button', { cls: 'theme-toggle no-print', type: 'button', text: 'Toggle theme',
                                title: 'Switch between light and dark' });
    toggle.addEventListener('click', function () {
      var dark = getComputedStyle(document.documentElement).getPropertyValue('--is-dark').trim() === '1';
      document.documentElement.setAttribute('data-theme', dark ? 'light' : 'dark');
      render();
    });
    var dl = el('dl', { cls: 'facts' });
    facts.forEach(function (f) {
      if (f[1] === undefined || f[1] === '') return;
      dl.appendChild(el('dt', { text: f[0] }));
      dl.appendChild(el('dd', { text: String(f[1]) }));
    });
    root.appendChild(el('header', { cls: 'top' }, [el('h1', { text: title }), toggle, dl]));
  }

  function warnings(list, id, title) {
    if (!list || !list.length) return;
    var body = panel(id || 'warnings', title || 'Warnings');
    body.parentNode.classList.add('warn');
    var ul = el('ul');
    list.forEach(function (w) { ul.appendChild(el('li', { text: w })); });
    body.appendChild(ul);
  }

  // ---- the metrics table ---------------------------------------------------------------------
  var STATS = ['avg', 'min', 'max', 'p1', 'p5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'std', 'count', 'sum'];
  function metricsTable(body, rows) {
    var used = STATS.filter(function (s) { return rows.some(function (r) { return s in r.stats; }); });
    var thead = el('thead', null, [el('tr', null, [el('th', { text: 'Metric' }), el('th', { text: 'Unit' })]
      .concat(used.map(function (s) { return el('th', { text: s }); })))]);
    var tbody = el('tbody');
    rows.forEach(function (r) {
      var tr = el('tr', { 'data-tag': r.tag }, [el('th', { text: r.header, title: r.tag, scope: 'row' }),
                                                  el('td', { text: r.unit })]);
      used.forEach(function (s) {
        var v = r.stats[s];
        var td = el('td', { text: v === undefined ? '' : fmt(v) });
        if (v !== undefined) { td.setAttribute('data-stat', s); td.setAttribute('data-value', String(v)); }
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
    body.appendChild(el('div', { cls: 'table-wrap' }, [el('table', { cls: 'metrics' }, [thead, tbody])]));
  }

  // ---- distributions -------------------------------------------------------------------------
  function distributions(dists) {
    var c = palette();
    dists.forEach(function (d, i) {
      var body = panel('dist-' + d.tag, d.header + ' (' + d.unit + ')',
                       'Histogram and CDF of ' + d.count + ' requests (every request, not sampled).');
      var row = el('div', { cls: 'pair' });
      body.appendChild(row);
      var centers = [], counts = d.hist.counts;
      for (var k = 0; k < counts.length; k++) centers.push((d.hist.edges[k] + d.hist.edges[k + 1]) / 2);
      chart('hist-' + d.tag, row, { title: 'Histogram', xLabel: d.unit, yLabel: 'requests',
        series: [{ label: 'requests', color: c[i % c.length], bars: true }], rows: [centers, counts] });
      chart('cdf-' + d.tag, row, { title: 'CDF', xLabel: d.unit, yLabel: 'fraction ≤ x',
        series: [{ label: 'CDF', color: c[i % c.length], stepped: true }], rows: [d.cdf.x, d.cdf.y] });
    });
  }

  function bandChart(name, body, title, t, b, color) {
    // Series order: p10, p90 (band between them), p50, p99.
    chart(name, body, { title: title, xLabel: 's', yLabel: 'ms', rows: [t, b.p10, b.p90, b.p50, b.p99],
      series: [{ label: 'p10', color: color, width: 0.5, spanGaps: true },
               { label: 'p90', color: color, width: 0.5, spanGaps: true },
               { label: 'p50', color: color, width: 2, spanGaps: true },
               { label: 'p99', color: cssVar('--c4'), dash: [4, 3], spanGaps: true }],
      bands: [{ series: [2, 1], fill: cssVar('--band') }] });
  }

  function overTime(s) {
    var c = palette();
    var body = panel('latency-time', 'TTFT and latency over time',
                     'Percentiles per ' + s.bin_s + ' s bin of request start: p50 line, p10–p90 band, p99 dashed.');
    var row = el('div', { cls: 'pair' });
    body.appendChild(row);
    if (s.ttft_ms.p50.some(function (v) { return v !== null; }))
      bandChart('ttft-time', row, 'Time to first token', s.t_s, s.ttft_ms, c[0]);
    bandChart('latency-time', row, 'Request latency', s.t_s, s.latency_ms, c[1]);

    body = panel('load-time', 'Request rate, throughput and concurrency',
                 'Actual sends against the plan\'s intended sends, completions, output tokens per second (by chunk arrival) and the time-averaged requests in flight.');
    row = el('div', { cls: 'pair' });
    body.appendChild(row);
    var rs = [{ label: 'actual sends/s', color: c[0] }], rr = [s.t_s, s.sends_per_s];
    if (s.intended_per_s.length) { rs.push({ label: 'intended sends/s', color: c[3], dash: [5, 4] }); rr.push(s.intended_per_s); }
    rs.push({ label: 'completions/s', color: c[2] }); rr.push(s.completions_per_s);
    chart('rate', row, { title: 'Request rate', xLabel: 's', yLabel: 'requests/s', series: rs, rows: rr });
    chart('throughput', row, { title: 'Output token throughput', xLabel: 's', yLabel: 'tokens/s',
      series: [{ label: 'output tokens/s', color: c[1] }], rows: [s.t_s, s.output_tokens_per_s] });
    chart('concurrency', row, { title: 'Concurrency', xLabel: 's', yLabel: 'in flight',
      series: [{ label: 'requests in flight', color: c[4] }], rows: [s.t_s, s.concurrency] });

    body = panel('schedule-lag', 'Schedule lag',
                 'How late the client sent each request after its intended time, per bin of intended send: p50, p99 and max. Large values mean the client could not keep up.');
    chart('lag', body, { title: 'Schedule lag', xLabel: 's', yLabel: 'ms', rows: [s.t_s, s.lag_ms.p50, s.lag_ms.p99, s.lag_ms.max],
      series: [{ label: 'p50', color: c[0], spanGaps: true }, { label: 'p99', color: c[3], spanGaps: true },
               { label: 'max', color: c[4], dash: [3, 3], spanGaps: true }] });

    body = panel('errors-time', 'Errors by kind over time', 'Failed requests per bin of their end, one series per error kind.');
    var kinds = Object.keys(s.errors);
    if (!kinds.length) { note(body, 'No failed requests.'); return; }
    chart('errors', body, { title: 'Errors', xLabel: 's', yLabel: 'failures', rows: [s.t_s].concat(kinds.map(function (k) { return s.errors[k]; })),
      series: kinds.map(function (k, i) { return { label: k, color: c[(i + 3) % c.length], bars: true }; }) });
  }

  // ---- the per-request timeline (canvas: one line per request, 100k+ lines stay fast) ---------
  function timeline(req) {
    var body = panel('timeline', 'Per-request timeline',
      req.kept + ' requests' + (req.stride > 1 ? ' (every ' + req.stride + 'th of ' + req.total + ')' : '') +
      ', ordered by start: waiting for the first token (light), streaming (dark), failed (red); ● marks TTFT. Drag to zoom, double-click to reset, hover for details.');
    var n = req.kept, order = new Array(n);
    for (var i = 0; i < n; i++) order[i] = i;
    order.sort(function (a, b) { return req.start_ms[a] - req.start_ms[b]; });
    var tmax = 0;
    for (i = 0; i < n; i++) tmax = Math.max(tmax, req.start_ms[i] + req.dur_ms[i]);
    var view = { x0: 0, x1: tmax || 1 };
    var wrap = el('div', { cls: 'timeline-wrap', 'data-points': String(n) });
    var canvas = el('canvas', { cls: 'timeline', 'data-chart': 'timeline' });
    var tip = el('div', { cls: 'tip' });
    wrap.appendChild(canvas); wrap.appendChild(tip); body.appendChild(wrap);
    var H = Math.min(600, Math.max(200, n * 3)), pad = 40;
    state.charts.timeline = { points: n, canvas: canvas, drawn: 0 };
    function draw() {
      var W = Math.max(320, wrap.clientWidth || 800), dpr = window.devicePixelRatio || 1;
      canvas.width = W * dpr; canvas.height = H * dpr;
      canvas.style.width = W + 'px'; canvas.style.height = H + 'px';
      var g = canvas.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.fillStyle = cssVar('--panel'); g.fillRect(0, 0, W, H);
      var sx = (W - pad - 8) / (view.x1 - view.x0), rowH = (H - 24) / Math.max(n, 1);
      var wait = cssVar('--c5'), stream = cssVar('--c1'), bad = cssVar('--bad'), mark = cssVar('--fg');
      g.lineWidth = Math.max(1, Math.min(6, rowH * 0.8));
      var drawn = 0;
      for (var r = 0; r < n; r++) {
        var k = order[r], s = req.start_ms[k], e = s + req.dur_ms[k];
        if (e < view.x0 || s > view.x1) continue;
        var y = 4 + r * rowH + rowH / 2, xs = pad + (s - view.x0) * sx, xe = pad + (e - view.x0) * sx;
        var f = req.first_ms[k];
        drawn++;
        if (req.error[k] !== 0) { g.strokeStyle = bad; line(g, xs, xe, y); continue; }
        if (f === null) { g.strokeStyle = stream; line(g, xs, xe, y); continue; }
        var xf = pad + (s + f - view.x0) * sx;
        g.strokeStyle = wait; line(g, xs, xf, y);
        g.strokeStyle = stream; line(g, xf, xe, y);
        if (rowH >= 3) { g.fillStyle = mark; g.fillRect(xf - 1, y - 1, 2, 2); }
      }
      state.charts.timeline.drawn = drawn;
      g.fillStyle = mark; g.font = '11px sans-serif';
      for (var t = 0; t <= 4; t++) {
        var tv = view.x0 + (view.x1 - view.x0) * t / 4;
        g.fillText((tv / 1000).toFixed(2) + ' s', pad + (tv - view.x0) * sx - 12, H - 6);
      }
    }
    function line(g, x0, x1, y) {
      g.beginPath(); g.moveTo(x0, y); g.lineTo(Math.max(x1, x0 + 1), y); g.stroke();
    }
    function rowAt(ev) {
      var rect = canvas.getBoundingClientRect(), rowH = (H - 24) / Math.max(n, 1);
      var r = Math.floor((ev.clientY - rect.top - 4) / rowH);
      return r >= 0 && r < n ? order[r] : -1;
    }
    function timeAt(x) {
      var W = canvas.clientWidth;
      return view.x0 + (x - pad) * (view.x1 - view.x0) / (W - pad - 8);
    }
    var dragFrom = null;
    canvas.addEventListener('mousedown', function (ev) { dragFrom = ev.offsetX; });
    canvas.addEventListener('mouseup', function (ev) {
      if (dragFrom !== null && Math.abs(ev.offsetX - dragFrom) > 4) {
        var a = timeAt(Math.min(dragFrom, ev.offsetX)), b = timeAt(Math.max(dragFrom, ev.offsetX));
        view = { x0: a, x1: b };
        draw();
      }
      dragFrom = null;
    });
    canvas.addEventListener('dblclick', function () { view = { x0: 0, x1: tmax || 1 }; draw(); });
    canvas.addEventListener('mousemove', function (ev) {
      var k = rowAt(ev);
      if (k < 0) { tip.style.display = 'none'; return; }
      tip.textContent = 'start ' + fmt(req.start_ms[k]) + ' ms · TTFT ' + fmt(req.first_ms[k]) +
        ' ms · duration ' + fmt(req.dur_ms[k]) + ' ms · ' + req.kinds[req.error[k]];
      tip.style.display = 'block';
      tip.style.left = (ev.offsetX + 12) + 'px'; tip.style.top = (ev.offsetY + 12) + 'px';
    });
    canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    draw();
  }

  // ---- configuration, telemetry --------------------------------------------------------------
  function configuration(run, config, errors) {
    var body = panel('config', 'Run configuration', 'The resolved options (secrets redacted) and the command line.');
    if (run.cli_command) body.appendChild(el('pre', { cls: 'cmd', text: run.cli_command }));
    body.appendChild(el('pre', { cls: 'config', text: JSON.stringify(config, null, 2) }));
    if (errors && errors.length) {
      body.appendChild(el('h3', { text: 'Error summary' }));
      var ul = el('ul');
      errors.forEach(function (e) {
        var d = e.error_details || {};
        ul.appendChild(el('li', { text: e.count + ' × ' + (d.type || '') + (d.code ? ' ' + d.code : '') + ': ' + (d.message || '') }));
      });
      body.appendChild(ul);
    }
  }

  function serverMetrics(sm) {
    var body = panel('server-metrics', 'Server metrics', 'From server_metrics_export.json: every entry with numeric statistics.');
    var keys = [];
    sm.rows.forEach(function (r) { Object.keys(r.stats).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); }); });
    keys = keys.slice(0, 16);
    var thead = el('thead', null, [el('tr', null, [el('th', { text: 'Metric' }), el('th', { text: 'Labels' })]
      .concat(keys.map(function (k) { return el('th', { text: k }); })))]);
    var tbody = el('tbody');
    sm.rows.forEach(function (r) {
      var labels = Object.keys(r.labels).map(function (k) { return k + '=' + r.labels[k]; }).join(', ');
      tbody.appendChild(el('tr', null, [el('th', { text: r.name, scope: 'row' }), el('td', { text: labels })]
        .concat(keys.map(function (k) { return el('td', { text: k in r.stats ? fmt(r.stats[k]) : '' }); }))));
    });
    body.appendChild(el('div', { cls: 'table-wrap' }, [el('table', { cls: 'server' }, [thead, tbody])]));
  }

  function gpu(g) {
    var c = palette();
    var body = panel('gpu', 'GPU telemetry', 'From gpu_telemetry_export.jsonl: one chart per field, one line per device; seconds from the first request.');
    var grid = el('div', { cls: 'pair' });
    body.appendChild(grid);
    g.fields.forEach(function (f, i) {
      var t = [], seen = {};
      g.series.forEach(function (s) { s.t_s.forEach(function (x) { if (!seen[x]) { seen[x] = 1; t.push(x); } }); });
      t.sort(function (a, b) { return a - b; });
      var rows = [t];
      g.series.forEach(function (s) {
        var m = {};
        s.t_s.forEach(function (x, j) { m[x] = s.values[f][j]; });
        rows.push(t.map(function (x) { return x in m ? m[x] : null; }));
      });
      chart('gpu-' + i, grid, { title: f, xLabel: 's', yLabel: f, rows: rows,
        series: g.series.map(function (s, j) { return { label: s.name, color: c[j % c.length], spanGaps: true }; }) });
    });
  }

  function footer() {
    root.appendChild(el('footer', { text: 'Written by servebench. Charts: uPlot (MIT licence, embedded; see the page source).' }));
  }

  // ---- comparison ----------------------------------------------------------------------------
  function stepAt(cdf, x) {  // fraction <= x of a CDF given as points
    var lo = 0, hi = cdf.x.length - 1, ans = -1;
    while (lo <= hi) { var mid = (lo + hi) >> 1; if (cdf.x[mid] <= x) { ans = mid; lo = mid + 1; } else hi = mid - 1; }
    return ans < 0 ? 0 : cdf.y[ans];
  }
  function unionSorted(arrays) {
    var seen = {}, out = [];
    arrays.forEach(function (a) { a.forEach(function (x) { if (x !== null && !seen[x]) { seen[x] = 1; out.push(x); } }); });
    return out.sort(function (a, b) { return a - b; });
  }
  function comparisonTable(body, cmp) {
    var runs = data.runs;
    var head = [el('th', { text: 'Metric' }), el('th', { text: 'Stat' })]
      .concat(runs.map(function (r) { return el('th', { text: r.label }); }))
      .concat([el('th', { text: 'Δ vs ' + runs[0].label }), el('th', { text: '95% CI of Δ' }), el('th', { text: 'Verdict' })]);
    var tbody = el('tbody');
    cmp.rows.forEach(function (r) {
      r.versus.forEach(function (v, vi) {
        var cells = [el('th', { text: vi === 0 ? r.header + ' (' + r.unit + ')' : '', scope: 'row' }), el('td', { text: vi === 0 ? r.stat : '' })];
        runs.forEach(function (run, j) {
          cells.push(el('td', { text: vi === 0 ? fmt(r.values[j]) : '', 'data-value': String(r.values[j]) }));
        });
        cells.push(el('td', { text: runs[v.run].label + ': ' + fmt(v.diff) + (v.diff_pct !== null ? ' (' + fmt(v.diff_pct) + ' %)' : '') }));
        cells.push(el('td', { text: v.ci_low === null ? 'n/a' : '[' + fmt(v.ci_low) + ', ' + fmt(v.ci_high) + ']' }));
        cells.push(el('td', { cls: 'verdict ' + v.verdict.replace(/ /g, '-'), text: v.verdict }));
        tbody.appendChild(el('tr', { 'data-tag': r.tag, 'data-stat': r.stat }, cells));
      });
    });
    body.appendChild(el('div', { cls: 'table-wrap' }, [el('table', { cls: 'metrics compare' },
      [el('thead', null, [el('tr', null, head)]), tbody])]));
  }
  function renderCompare() {
    var runs = data.runs, c = palette(), cmp = data.comparison;
    header('servebench compare: ' + runs.length + ' runs', runs.map(function (r) {
      return [r.label, r.run.model + ' · ' + r.run.endpoint_type + ' · ' + r.run.load_mode];
    }).concat([['Bootstrap', cmp.resamples + ' resamples per statistic, seed ' + cmp.seed + ', 95% percentile intervals']]));
    warnings(data.warnings, 'warnings', 'Comparability warnings');
    comparisonTable(panel('comparison', 'Comparison', 'Each run against ' + runs[0].label +
      ': difference, 95% bootstrap interval (requests resampled), and the verdict using each metric\'s better direction.'), cmp);
    var tags = [];
    runs.forEach(function (r) {
      (r.distributions || []).forEach(function (d) { if (tags.indexOf(d.tag) < 0) tags.push(d.tag); });
    });
    tags.forEach(function (tag) {
      // Runs without this metric (every request failed, not streamed) are left out and named.
      var have = [], ds = [];
      runs.forEach(function (r, j) {
        var d = (r.distributions || []).filter(function (x) { return x.tag === tag; })[0];
        if (d) { have.push(j); ds.push(d); }
      });
      var missing = runs.filter(function (r, j) { return have.indexOf(j) < 0; }).map(function (r) { return r.label; });
      var body = panel('overlay-' + tag, ds[0].header + ' (' + ds[0].unit + '): CDF overlay',
                       missing.length ? 'Not in: ' + missing.join(', ') + ' (no values).' : '');
      var x = unionSorted(ds.map(function (d) { return d.cdf.x; }));
      chart('cdf-' + tag, body, { title: 'CDF', xLabel: ds[0].unit, yLabel: 'fraction ≤ x', rows: [x].concat(ds.map(function (d) {
        return x.map(function (v) { return stepAt(d.cdf, v); }); })),
        series: have.map(function (j) { return { label: runs[j].label, color: c[j % c.length], stepped: true }; }) });
    });
    var withSeries = runs.filter(function (r) { return r.series; });
    if (withSeries.length === runs.length) {
      var body = panel('overlay-time', 'Over time', 'p50 TTFT, p50 latency and output tokens/s per bin, seconds from each run\'s first request.');
      var row = el('div', { cls: 'pair' });
      body.appendChild(row);
      var t = unionSorted(runs.map(function (r) { return r.series.t_s; }));
      var pick = function (get) {
        return runs.map(function (r) {
          var m = {};
          r.series.t_s.forEach(function (x, i) { m[x] = get(r.series)[i]; });
          return t.map(function (x) { return x in m ? m[x] : null; });
        });
      };
      var ser = runs.map(function (r, j) { return { label: r.label, color: c[j % c.length], spanGaps: true }; });
      chart('ttft-time', row, { title: 'TTFT p50', xLabel: 's', yLabel: 'ms', series: ser, rows: [t].concat(pick(function (s) { return s.ttft_ms.p50; })) });
      chart('latency-time', row, { title: 'Latency p50', xLabel: 's', yLabel: 'ms', series: ser, rows: [t].concat(pick(function (s) { return s.latency_ms.p50; })) });
      chart('throughput', row, { title: 'Output tokens/s', xLabel: 's', yLabel: 'tokens/s', series: ser, rows: [t].concat(pick(function (s) { return s.output_tokens_per_s; })) });
    }
    footer();
  }

  // ---- the report ----------------------------------------------------------------------------
  function renderReport() {
    var run = data.run;
    header('servebench report', [['Model', run.model], ['Endpoint', run.endpoint_type + (run.streaming ? ' (streaming)' : '')],
      ['Load', run.load_mode], ['Start', run.start_time], ['End', run.end_time], ['Benchmark id', run.benchmark_id]]);
    warnings(data.warnings);
    var aiperf = data.metrics.filter(function (m) { return !m.servebench; });
    var ours = data.metrics.filter(function (m) { return m.servebench; });
    metricsTable(panel('metrics', 'Metrics', 'profile_export_aiperf.json, as written: AIPerf\'s rows, exact statistics.'), aiperf);
    if (ours.length) metricsTable(panel('metrics-servebench', 'servebench\'s own metrics', 'Schedule-anchored latencies, schedule lag, per-token ITL.'), ours);
    if (!data.has_records) {
      note(panel('records-missing', 'Per-request panels'), 'No profile_export.jsonl in this folder (--export-level summary): only the summary is shown.');
    }
    if (data.distributions) distributions(data.distributions);
    if (data.series) overTime(data.series);
    if (data.requests) timeline(data.requests);
    if (data.server_metrics) serverMetrics(data.server_metrics);
    if (data.gpu) gpu(data.gpu);
    configuration(run, data.config, data.errors);
    footer();
  }

  function render() {
    root.innerHTML = '';
    state.charts = {}; state.panels = [];
    if (data.kind === 'compare') renderCompare(); else renderReport();
    // Charts in a grid row were sized before their neighbours existed: fit them to their cells.
    Object.keys(state.charts).forEach(function (k) {
      var u = state.charts[k];
      if (u && u.setSize && u.root && u.root.parentNode) {
        u.setSize({ width: Math.max(320, u.root.parentNode.clientWidth), height: u.height });
      }
    });
    state.rendered = true;
    document.documentElement.setAttribute('data-rendered', '1');
  }

  var resizeTimer = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(render, 200);
  });
  window.addEventListener('beforeprint', render);
  if (window.matchMedia) {
    var mq = window.matchMedia('(prefers-color-scheme: dark)');
    if (mq.addEventListener) mq.addEventListener('change', function () { render(); });
  }
  render();
})();
