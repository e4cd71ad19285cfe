// Lighthouse report for Palaro's main pages: `go tool task lighthouse` (see docs/BENCHMARKS.md).
//
// Starts bin/palaro on a free loopback port with a temporary database and the demo data, runs the
// Lighthouse CLI (default mobile settings) against each page in Debian's Chromium with the flags of
// DESIGN.md "Measuring on these machines", and prints the four category scores per page plus the
// audits that lost points. Nothing leaves loopback. A report, not a test: it exits 0 unless the
// measurement itself failed.
//
// Flags: -runs N (runs per page, the median of each category is reported; default 3),
//        -out FILE (append or replace the "Lighthouse" section of FILE, e.g. docs/BENCHMARKS.md),
//        -pages LIST (comma-separated paths; default the seven below), -keep DIR (keep the JSON reports in DIR).
// Pages under /organizer/ are measured signed in as the demo gate member (a session cookie sent
// with every request Lighthouse makes).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// The island pages are the buy page and the seat map (a seated ticket type) of the same demo event,
// and its gate scanner (signed in).
const PAGES = ['/', '/e/mlbb-manila-showdown', '/f/valorant', '/calendar', '/b/mlbb-manila-showdown-gen', '/s/mlbb-manila-showdown-lower',
  '/organizer/events/mlbb-manila-showdown/check-in'];
// The demo gate member (store.DemoGateEmail, store.DemoOrganizerPassword) for the organizer pages.
const GATE_MEMBER = { email: 'gate@palaro.ph', password: 'Organizer2026' };
const CATEGORIES = [
  ['performance', 'Performance', 95],
  ['accessibility', 'Accessibility', 100],
  ['best-practices', 'Best practices', null],
  ['seo', 'SEO', 100],
];
// CLS_BUDGET is the most cumulative layout shift a page may have in any run.
const CLS_BUDGET = 0.02;
// budgetOf is a category's budget on a page: signed-in organizer pages are noindex on purpose, so
// SEO (is-crawlable) has none there.
const budgetOf = (page, id, budget) => (id === 'seo' && page.startsWith('/organizer/') ? null : budget);
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run ' +
  '--disable-background-networking --disable-component-update --disable-sync';

function parseArgs(argv) {
  const opts = { runs: 3, out: '', keep: '', pages: PAGES.join(',') };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--?/, '');
    if (!(name in opts) || i + 1 >= argv.length) throw new Error(`usage: lighthouse.mjs [-runs N] [-pages /,/calendar] [-out FILE] [-keep DIR] (got ${argv[i]})`);
    opts[name] = name === 'runs' ? Math.max(1, parseInt(argv[++i], 10) || 1) : argv[++i];
  }
  return opts;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// startPalaro runs `bin/palaro serve` and resolves once it answers / with 200.
async function startPalaro(dir) {
  const bin = path.resolve('bin/palaro');
  if (!fs.existsSync(bin)) throw new Error('bin/palaro is missing: run `go tool task build`');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = fs.openSync(path.join(dir, 'server.log'), 'w');
  const child = spawn(bin, ['serve'], {
    env: { ...process.env, PALARO_ADDR: `127.0.0.1:${port}`, PALARO_DB: path.join(dir, 'palaro.db'), PALARO_DEMO: '1', PALARO_BASE_URL: base },
    stdio: ['ignore', log, log],
  });
  let exited = null;
  child.on('exit', (code) => { exited = code ?? 'signal'; });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`palaro serve exited (${exited}):\n${fs.readFileSync(path.join(dir, 'server.log'), 'utf8')}`);
    try {
      const res = await fetch(base + '/', { signal: AbortSignal.timeout(2000) });
      if (res.ok) return { base, stop: () => stopChild(child) };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stopChild(child);
  throw new Error('palaro serve did not answer / within a minute');
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', () => { clearTimeout(kill); resolve(); });
    child.kill('SIGTERM');
  });
}

// signIn signs the demo gate member in and returns the session cookie ("name=value").
async function signIn(base) {
  const form = await fetch(base + '/sign-in', { redirect: 'manual' });
  const cookie = form.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = (await form.text()).match(/name="_csrf" value="([^"]+)"/)?.[1];
  if (!cookie || !csrf) throw new Error('sign-in page: no session cookie or CSRF token');
  const res = await fetch(base + '/sign-in', {
    method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: new URLSearchParams({ _csrf: csrf, email: GATE_MEMBER.email, password: GATE_MEMBER.password }),
  });
  const session = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (res.status !== 303 || !session) throw new Error(`sign-in answered ${res.status}`);
  return session;
}

// lighthouse runs the CLI once on url with a fresh Chromium profile and returns the parsed JSON report;
// cookie, when set, goes with every request (a signed-in page).
function lighthouse(url, dir, name, cookie) {
  const profile = fs.mkdtempSync(path.join(dir, 'chrome-'));
  const out = path.join(dir, `${name}.json`);
  const cli = path.resolve('node_modules/.bin/lighthouse');
  return new Promise((resolve, reject) => {
    const child = spawn(cli, [url, '--output=json', `--output-path=${out}`, '--quiet',
      `--chrome-flags=${CHROME_FLAGS} --user-data-dir=${profile}`, ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : [])], {
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('exit', (code) => {
      fs.rmSync(profile, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`lighthouse ${url} exited ${code}:\n${stderr}`));
      const report = JSON.parse(fs.readFileSync(out, 'utf8'));
      if (report.runtimeError) return reject(new Error(`lighthouse ${url}: ${report.runtimeError.code} ${report.runtimeError.message}`));
      resolve(report);
    });
  });
}

// lighthouseRetried runs lighthouse, again up to twice when a run fails (on a loaded machine Chromium
// sometimes loses the trace: NO_NAVSTART); a page that fails three times stops the report.
async function lighthouseRetried(url, dir, name, cookie) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouse(url, dir, name, cookie);
    } catch (err) {
      if (attempt >= 3) throw err;
      process.stderr.write(`  run failed, again (${String(err.message).split('\n').find((l) => l.includes('(')) || 'error'})\n`);
    }
  }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const score = (report, id) => Math.round((report.categories[id]?.score ?? 0) * 100);

// lostPoints lists the weighted audits of the report's categories that scored below 1, as "id (category)".
function lostPoints(report) {
  const lost = [];
  for (const [id] of CATEGORIES) {
    for (const ref of report.categories[id]?.auditRefs ?? []) {
      const a = report.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) lost.push(`${a.id} (${id})`);
    }
  }
  return lost;
}

function chromiumVersion() {
  try { return execFileSync(process.env.CHROME_PATH || '/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim(); } catch { return 'unknown Chromium'; }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = new Date();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'palaro-lighthouse-'));
  const load = os.loadavg()[0].toFixed(2);
  const server = await startPalaro(dir);
  const rows = [];
  try {
    for (const page of opts.pages.split(',')) {
      const reports = [];
      for (let run = 1; run <= opts.runs; run++) {
        const name = `${page.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}-${run}`;
        process.stderr.write(`lighthouse ${page} run ${run}/${opts.runs}\n`);
        const cookie = page.startsWith('/organizer/') ? await signIn(server.base) : '';
        reports.push(await lighthouseRetried(server.base + page, dir, name, cookie));
      }
      const scores = Object.fromEntries(CATEGORIES.map(([id]) => [id, median(reports.map((r) => score(r, id)))]));
      const perf = reports.map((r) => score(r, 'performance'));
      const mid = reports.find((r) => score(r, 'performance') === scores.performance);
      const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']
        .map((id) => `${mid.audits[id].title.replace('Largest Contentful Paint', 'LCP').replace('First Contentful Paint', 'FCP').replace('Total Blocking Time', 'TBT').replace('Cumulative Layout Shift', 'CLS')} ${mid.audits[id].displayValue}`);
      const longTasks = (mid.audits['long-tasks']?.details?.items ?? [])
        .map((t) => `${t.url.startsWith(server.base) ? t.url.slice(server.base.length) : t.url} ${Math.round(t.duration)} ms`);
      const cls = Math.max(...reports.map((r) => r.audits['cumulative-layout-shift']?.numericValue ?? 0));
      rows.push({ page, scores, longTasks, cls, perf, bench: reports.map((r) => Math.round(r.environment.benchmarkIndex)), metrics, lost: [...new Set(reports.flatMap(lostPoints))] });
    }
  } finally {
    await server.stop();
    if (opts.keep) {
      fs.mkdirSync(opts.keep, { recursive: true });
      for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) fs.copyFileSync(path.join(dir, f), path.join(opts.keep, f));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const lhVersion = JSON.parse(fs.readFileSync('node_modules/lighthouse/package.json', 'utf8')).version;
  const took = Math.round((Date.now() - started) / 1000);
  const section = render(rows, { started, took, load, after: os.loadavg()[0].toFixed(2), runs: opts.runs, lhVersion, chrome: chromiumVersion(), out: opts.out });
  process.stdout.write(section);
  if (opts.out) writeSection(opts.out, section);
}

function render(rows, m) {
  const stamp = m.started.toISOString().slice(0, 16).replace('T', ' ');
  const cmd = `go tool task lighthouse -- ${m.runs !== 3 ? `-runs ${m.runs} ` : ''}-out ${m.out || 'docs/BENCHMARKS.md'}`;
  const lines = [
    '## Lighthouse', '',
    `Produced by \`${cmd}\` (plain \`go tool task lighthouse\` only prints). It builds \`bin/palaro\`,`,
    'starts it on a free 127.0.0.1 port with a temporary database and the demo data, and runs Lighthouse',
    `${m.lhVersion} (npm devDependency) with its default mobile settings (simulated slow 4G, 4× CPU slowdown,`,
    'Moto G Power viewport) in Debian\'s Chromium with the flags of DESIGN.md "Measuring on these machines";',
    'nothing leaves loopback. Each page is measured `-runs` times and the median of each category is',
    'shown; the performance scores of every run are listed beside it, since they move with the load of',
    'the machine: "CPU index" is Lighthouse\'s own CPU benchmark of each run (higher is faster; the',
    'simulated 4× slowdown comes on top of what a busy machine gives, so it then scores lower). Budgets (DESIGN.md):',
    `performance ≥ 95, accessibility and SEO 100 (SEO not for the signed-in, noindex organizer pages), cumulative layout shift ≤ ${CLS_BUDGET} in every run.`, '',
    `Run ${stamp} UTC on ${os.cpus().length} CPUs, ${m.chrome}, ${m.runs} run(s) per page; load average ${m.load} before, ${m.after} after; took ${m.took}s.`, '',
    '| Page | ' + CATEGORIES.map(([, t]) => t).join(' | ') + ' | CLS (worst run) | Performance runs | CPU index | Metrics (median run) |',
    '|---|' + CATEGORIES.map(() => '---:').join('|') + '|---:|---|---|---|',
  ];
  for (const r of rows) {
    const cells = CATEGORIES.map(([id, , budget]) => {
      const v = r.scores[id];
      const b = budgetOf(r.page, id, budget);
      return b !== null && v < b ? `**${v}** ✗` : `${v}`;
    });
    const cls = r.cls > CLS_BUDGET ? `**${r.cls.toFixed(3)}** ✗` : r.cls.toFixed(3);
    lines.push(`| \`${r.page}\` | ${cells.join(' | ')} | ${cls} | ${r.perf.join(', ')} | ${r.bench.join(', ')} | ${r.metrics.join('; ')} |`);
  }
  lines.push('', 'Audits that lost points in any run:', '');
  for (const r of rows) lines.push(`- \`${r.page}\`: ${r.lost.length ? r.lost.join('; ') : 'none'}`);
  const below = rows.filter((r) => r.cls > CLS_BUDGET || CATEGORIES.some(([id, , budget]) => budgetOf(r.page, id, budget) !== null && r.scores[id] < budgetOf(r.page, id, budget)));
  if (below.length) {
    lines.push('', 'Below budget: the long main-thread tasks of the median run (observed time × the simulated 4× CPU',
      'slowdown; "Unattributable" is Chromium\'s own style, layout and paint work for the page, not a script):', '');
    for (const r of below) lines.push(`- \`${r.page}\`: ${r.longTasks.join(', ') || 'none'}`);
  }
  return lines.join('\n') + '\n';
}

// writeSection replaces the "## Lighthouse" section of file (up to the next "## " heading) or appends it.
function writeSection(file, section) {
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const start = old.search(/^## Lighthouse$/m);
  let next;
  if (start < 0) next = old.replace(/\n*$/, '\n\n') + section;
  else {
    const rest = old.slice(start + 1);
    const end = rest.search(/^## /m);
    next = old.slice(0, start) + section + (end < 0 ? '' : '\n' + rest.slice(end));
  }
  fs.writeFileSync(file, next);
  process.stderr.write(`wrote the Lighthouse section of ${file}\n`);
}

main().catch((err) => { console.error(err.stack || String(err)); process.exit(1); });
