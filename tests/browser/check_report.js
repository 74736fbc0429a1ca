// Opens a servebench report.html (or compare.html) in headless Chromium through puppeteer-core
// and checks it: no console error or page error, every expected panel present, each chart with
// the number of points the data and the run's files imply, the metrics table equal to
// profile_export_aiperf.json, both themes render; writes a screenshot and prints the load time.
//
//   node check_report.js report DIR SCREENSHOT.png     # DIR/report.html against DIR's files
//   node check_report.js compare PAGE.html SCREENSHOT.png N_RUNS
//
// Exit 0 when every check passes, 1 otherwise (each failure printed).
'use strict';
const fs = require('fs');
const path = require('path');
const npmDir = process.env.SERVEBENCH_NPM_DIR ||
  path.join(process.env.XDG_CACHE_HOME || path.join(process.env.HOME, '.cache'), 'servebench', 'npm');
const puppeteer = require(path.join(npmDir, 'node_modules', 'puppeteer-core'));

const failures = [];
function check(cond, what) {
  if (!cond) failures.push(what);
}

async function open(browser, file, scheme) {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warn') errors.push(m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
  page.on('requestfailed', (r) => errors.push('request failed: ' + r.url()));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) errors.push('network request: ' + r.url()); });
  await page.setViewport({ width: 1280, height: 900 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  const t0 = Date.now();
  await page.goto('file://' + path.resolve(file), { waitUntil: 'load', timeout: 60000 });
  await page.waitForFunction(() => window.servebenchReport && window.servebenchReport.rendered, { timeout: 60000 });
  const loadMs = Date.now() - t0;
  return { page, errors, loadMs };
}

function chartPoints(page) {
  return page.evaluate(() => {
    const out = {};
    const charts = window.servebenchReport.charts;
    Object.keys(charts).forEach((k) => {
      const c = charts[k];
      out[k] = c.data ? c.data[0].length : c.points;
      if (c.data) out[k + ':series'] = c.data.length - 1;
      if (c.missing) out[k + ':missing'] = true;
    });
    out['timeline:drawn'] = charts.timeline ? charts.timeline.drawn : -1;
    return out;
  });
}

async function checkReport(browser, dir, shot) {
  const file = path.join(dir, 'report.html');
  const doc = JSON.parse(fs.readFileSync(path.join(dir, 'profile_export_aiperf.json'), 'utf8'));
  const profiling = [];
  for (const l of fs.readFileSync(path.join(dir, 'profile_export.jsonl'), 'utf8').split('\n')) {
    if (!l.trim()) continue;
    const m = JSON.parse(l).metadata;
    if (m.benchmark_phase !== 'warmup') profiling.push({ metadata: { request_start_ns: m.request_start_ns, request_end_ns: m.request_end_ns } });
  }
  const { page, errors, loadMs } = await open(browser, file, 'light');
  check(errors.length === 0, 'console errors: ' + errors.join(' | '));
  const data = await page.evaluate(() => JSON.parse(document.getElementById('sb-data').textContent));
  const panels = await page.evaluate(() => Array.from(document.querySelectorAll('section.panel')).map((s) => s.dataset.panel));
  const expected = ['metrics', 'metrics-servebench', 'latency-time', 'load-time', 'schedule-lag', 'errors-time', 'timeline', 'config'];
  // A distribution panel for each of these the summary reports (TTFT/ITL need streaming).
  for (const tag of ['time_to_first_token', 'inter_token_latency', 'request_latency', 'input_sequence_length', 'output_sequence_length'])
    if (doc[tag] && doc[tag].count > 0) expected.push('dist-' + tag);
  if (doc.servebench && (doc.servebench.client_limited || (doc.osl_mismatch_count && doc.osl_mismatch_count.avg > 0))) expected.push('warnings');
  for (const p of expected) check(panels.includes(p), 'panel missing: ' + p);
  if (fs.existsSync(path.join(dir, 'server_metrics_export.json'))) check(panels.includes('server-metrics'), 'panel missing: server-metrics');
  if (fs.existsSync(path.join(dir, 'gpu_telemetry_export.jsonl'))) {
    check(panels.includes('gpu'), 'panel missing: gpu');
    // One chart per numeric field, one series per device.
    const fields = data.gpu ? data.gpu.fields.length : 0;
    const p = await chartPoints(page);
    for (let i = 0; i < fields; i++)
      check(p['gpu-' + i + ':series'] === data.gpu.series.length, `gpu-${i}: ${p['gpu-' + i + ':series']} series`);
    check(fields > 0, 'gpu panel has no field');
  }
  if (fs.existsSync(path.join(dir, 'server_metrics_export.json'))) {
    const rows = await page.evaluate(() => document.querySelectorAll('table.server tbody tr').length);
    check(rows === data.server_metrics.rows.length && rows > 0, `server metrics table has ${rows} rows`);
  }
  check(panels[0] === 'warnings' || !expected.includes('warnings'), 'warnings are not the first panel');

  // Points: the timeline draws every profiling record (run under 100k), the histograms hold
  // every request that has the metric, the series have one point per bin.
  const pts = await chartPoints(page);
  // Past 100,000 requests the timeline keeps every k-th (k = ceil(n / 100000)).
  const stride = profiling.length > 100000 ? Math.ceil(profiling.length / 100000) : 1;
  const kept = Math.ceil(profiling.length / stride);
  check(data.requests.total === profiling.length, `report data counts ${data.requests.total} requests, the JSONL ${profiling.length}`);
  check(pts.timeline === kept, `timeline has ${pts.timeline} requests, want ${kept} of ${profiling.length}`);
  check(pts['timeline:drawn'] === kept, `timeline drew ${pts['timeline:drawn']} of ${kept}`);
  const bins = data.series.t_s.length;
  const overTime = ['rate', 'throughput', 'concurrency', 'lag', 'latency-time'];
  if (doc.time_to_first_token) overTime.push('ttft-time');
  for (const name of overTime) check(pts[name] === bins, `${name}: ${pts[name]} points, ${bins} bins`);
  let last = -Infinity, first = Infinity;
  for (const r of profiling) { last = Math.max(last, r.metadata.request_end_ns); first = Math.min(first, r.metadata.request_start_ns); }
  check(Math.abs(bins * data.series.bin_s - (last - first) / 1e9) <= 2 * data.series.bin_s,
        `bins ${bins} x ${data.series.bin_s} s do not cover the run (${(last - first) / 1e9} s)`);
  for (const d of data.distributions) {
    const json = doc[d.tag];
    check(json && json.count === d.count, `${d.tag}: histogram holds ${d.count}, the JSON counts ${json && json.count}`);
    check(pts['hist-' + d.tag] === d.hist.counts.length, `hist-${d.tag}: ${pts['hist-' + d.tag]} bars`);
    check(pts['cdf-' + d.tag] === Math.min(d.count, 400), `cdf-${d.tag}: ${pts['cdf-' + d.tag]} points`);
  }
  // The metrics table equals the JSON file, every cell, and shows it rounded.
  const cells = await page.evaluate(() => Array.from(document.querySelectorAll('table.metrics td[data-stat]')).map((td) => ({
    tag: td.parentElement.dataset.tag, stat: td.dataset.stat, value: td.dataset.value, text: td.textContent })));
  let compared = 0;
  for (const c of cells) {
    const row = doc[c.tag] || (doc.servebench || {})[c.tag];
    check(row && row[c.stat] !== undefined && Number(c.value) === row[c.stat], `table ${c.tag}.${c.stat} = ${c.value}, JSON ${row && row[c.stat]}`);
    const shown = Number(c.text);
    if (!isNaN(shown) && row) check(Math.abs(shown - row[c.stat]) <= Math.max(0.051, Math.abs(row[c.stat]) * 0.001), `table ${c.tag}.${c.stat} shows ${c.text}, JSON ${row[c.stat]}`);
    compared++;
  }
  let jsonCells = 0;
  const count = (o) => Object.keys(o).forEach((k) => { if (o[k] && typeof o[k] === 'object' && 'unit' in o[k] && 'avg' in o[k])
    Object.keys(o[k]).forEach((s) => { if (s !== 'unit' && typeof o[k][s] === 'number') jsonCells++; }); });
  count(doc); count(doc.servebench || {});
  check(compared === jsonCells, `table has ${compared} cells, the JSON ${jsonCells} numbers`);
  await page.screenshot({ path: shot, fullPage: true });
  // Dark theme (the toggle) renders without errors and changes the background.
  const bgBefore = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.click('.theme-toggle');
  const bgAfter = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(bgBefore !== bgAfter, 'theme toggle did not change the background');
  check(errors.length === 0, 'console errors after the theme toggle: ' + errors.join(' | '));
  // Print: the toggle is hidden.
  await page.emulateMediaType('print');
  const printed = await page.evaluate(() => getComputedStyle(document.querySelector('.theme-toggle')).display);
  check(printed === 'none', 'theme toggle visible when printed');
  await page.close();
  const dark = await open(browser, file, 'dark');
  check(dark.errors.length === 0, 'console errors (dark): ' + dark.errors.join(' | '));
  await dark.page.screenshot({ path: shot.replace(/\.png$/, '-dark.png'), fullPage: false });
  await dark.page.close();
  console.log(`report: ${profiling.length} requests, ${panels.length} panels, ${Object.keys(pts).length} chart entries, ${compared} table cells, load ${loadMs} ms, ${fs.statSync(file).size} bytes`);
}

async function checkCompare(browser, file, shot, nRuns) {
  const { page, errors, loadMs } = await open(browser, file, 'light');
  check(errors.length === 0, 'console errors: ' + errors.join(' | '));
  const data = await page.evaluate(() => JSON.parse(document.getElementById('sb-data').textContent));
  const panels = await page.evaluate(() => Array.from(document.querySelectorAll('section.panel')).map((s) => s.dataset.panel));
  check(panels.includes('comparison'), 'panel missing: comparison');
  check(panels.includes('overlay-time'), 'panel missing: overlay-time');
  const pts = await chartPoints(page);
  check(data.runs.length === nRuns, `${data.runs.length} runs in the page, want ${nRuns}`);
  const tags = new Set();
  data.runs.forEach((r) => (r.distributions || []).forEach((d) => tags.add(d.tag)));
  for (const d of [...tags].map((tag) => ({ tag }))) {
    // One series per run that has the metric.
    const want = data.runs.filter((r) => (r.distributions || []).some((x) => x.tag === d.tag)).length;
    check(pts['cdf-' + d.tag + ':series'] === want, `cdf-${d.tag}: ${pts['cdf-' + d.tag + ':series']} series, want ${want}`);
  }
  const rows = await page.evaluate(() => document.querySelectorAll('table.compare tbody tr').length);
  const want = data.comparison.rows.reduce((n, r) => n + r.versus.length, 0);
  check(rows === want && want > 0, `comparison table has ${rows} rows, the data ${want}`);
  await page.screenshot({ path: shot, fullPage: true });
  await page.close();
  console.log(`compare: ${nRuns} runs, ${rows} rows, ${panels.length} panels, load ${loadMs} ms`);
}

(async () => {
  const [mode, target, shot, n] = process.argv.slice(2);
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'] });
  try {
    if (mode === 'compare') await checkCompare(browser, target, shot, Number(n));
    else await checkReport(browser, target, shot);
  } finally {
    await browser.close();
  }
  for (const f of failures) console.error('FAIL: ' + f);
  process.exit(failures.length ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(1); });
