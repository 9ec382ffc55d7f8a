// The capture recorder: loads each case's page in Debian's Chromium (headless, through
// playwright-core), performs its scripted steps with real input, and after each step saves
// what the core is fed — the capture made by extension/lib/capture.js over raw CDP sessions
// (the page's, plus one per out-of-process iframe), the CDP frame events seen since the last
// step, and Chrome's own accessibility tree per frame (for the compiler's agreement test).
//
//   node tests/recorder/record.mjs [case ...]           (./athena record)
//   node tests/recorder/record.mjs --unseen [case ...]  (./athena record --unseen: UNSEEN_CASES into
//                                                       tests/cases-unseen, the agreement check only)
//   node tests/recorder/record.mjs --accname [case ...] (./athena record --accname: ACCNAME_CASES, the
//                                                       accname rule pages, into tests/cases-accname)
//
// Output: tests/cases/<case>/{case.json, NN-step/{step.json, capture.json.gz, ax.json.gz, events.json}}
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { capture, CORE_EVENTS } from '../../extension/lib/capture.js';
import { startSites } from '../sites/serve.mjs';
import { ACCNAME_CASES, CASES, UNSEEN_CASES } from './cases.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const UNSEEN = process.argv.includes('--unseen');
const ACCNAME = process.argv.includes('--accname');
const OUT = UNSEEN ? path.join(root, 'tests/cases-unseen')
  : ACCNAME ? path.join(root, 'tests/cases-accname') : process.env.ATHENA_CASES_DIR ?? path.join(root, 'tests/cases');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Bounds of the recorder. */
export const RECORDER_LIMITS = Object.freeze({
  settleMs: 400,         // quiet time after each action before capturing (animations, renders)
  navigationMs: 15_000,  // page loads
  actionMs: 10_000,      // one scripted action
});

const gz = (obj) => gzipSync(JSON.stringify(obj), { level: 9 });

/** A recording session on one page: CDP sessions, events, captures. */
class Recorder {
  constructor(context, page) {
    this.context = context;
    this.page = page;
    this.events = [];
    this.oopifSessions = new Map();  // frameId -> CDPSession
  }

  async start() {
    this.cdp = await this.context.newCDPSession(this.page);
    await this.cdp.send('Page.enable');
    for (const method of CORE_EVENTS) {
      if (!method.startsWith('Page.')) continue;
      this.cdp.on(method, (params) => this.events.push({ method, params }));
    }
  }

  /** Out-of-process iframes have their own CDP session (Playwright attaches them for us). */
  async attachOopifs() {
    for (const frame of this.page.frames()) {
      if (frame === this.page.mainFrame()) continue;
      let session;
      try { session = await this.context.newCDPSession(frame); } catch { continue; }  // in-process frame
      const { frameTree } = await session.send('Page.getFrameTree');
      const id = frameTree.frame.id;
      if (this.oopifSessions.has(id)) { await session.detach().catch(() => {}); continue; }
      this.oopifSessions.set(id, session);
    }
    for (const [id, s] of this.oopifSessions) {
      try { await s.send('Page.getFrameTree'); } catch { this.oopifSessions.delete(id); }  // detached
    }
  }

  send = (method, params, sessionId) => {
    const s = sessionId === undefined ? this.cdp : this.oopifSessions.get(sessionId);
    if (!s) return Promise.reject(new Error(`no CDP session ${sessionId}`));
    return s.send(method, params);
  };

  async capture() {
    await this.attachOopifs();
    const oopifs = [...this.oopifSessions.keys()].map((frameId) => ({ frameId, sessionId: frameId }));
    const result = await capture(this.send, { oopifs });
    // Chrome's accessibility tree, per frame (same-process frames by frameId, OOPIFs by session).
    const ax = {};
    const t0 = performance.now();
    const walk = async (tree) => {
      const id = tree.frame.id;
      if (!this.oopifSessions.has(id)) {
        try { ax[id] = (await this.cdp.send('Accessibility.getFullAXTree', { frameId: id })).nodes; } catch { /* gone */ }
      }
      for (const child of tree.childFrames ?? []) await walk(child);
    };
    await walk(result.capture.frameTree);
    for (const [id, s] of this.oopifSessions) {
      try { ax[id] = (await s.send('Accessibility.getFullAXTree')).nodes; } catch { /* gone */ }
    }
    result.timings.axTree = Math.round((performance.now() - t0) * 100) / 100;
    const events = this.events;
    this.events = [];
    return { ...result, ax, events };
  }
}

async function settle(page) {
  await page.waitForLoadState('load', { timeout: RECORDER_LIMITS.navigationMs }).catch(() => {});
  await page.waitForTimeout(RECORDER_LIMITS.settleMs);
}

async function recordCase(browser, sites, c) {
  const dir = path.join(OUT, c.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  page.setDefaultTimeout(RECORDER_LIMITS.actionMs);
  const rec = new Recorder(context, page);
  await rec.start();
  const startUrl = c.start(sites);
  const stepsMeta = [];
  try {
    for (let i = 0; i < c.steps.length; i++) {
      const step = c.steps[i];
      const name = `${String(i).padStart(2, '0')}-${step.name}`;
      const t0 = performance.now();
      if (i === 0) await page.goto(startUrl, { timeout: RECORDER_LIMITS.navigationMs });
      else await step.run(page, sites);
      await settle(page);
      if (step.ready) await step.ready(page);
      const actionMs = Math.round(performance.now() - t0);
      const { capture: cap, timings, warnings, ax, events } = await rec.capture();
      const sdir = path.join(dir, name);
      mkdirSync(sdir, { recursive: true });
      writeFileSync(path.join(sdir, 'capture.json.gz'), gz(cap));
      writeFileSync(path.join(sdir, 'ax.json.gz'), gz(ax));
      writeFileSync(path.join(sdir, 'events.json'), JSON.stringify(events, null, 1) + '\n');
      const stepJson = { name, action: step.action ?? { op: i === 0 ? 'navigate' : step.name }, url: page.url(),
        actionMs, timings, warnings, oopifs: cap.oopifs.length };
      writeFileSync(path.join(sdir, 'step.json'), JSON.stringify(stepJson, null, 1) + '\n');
      stepsMeta.push(name);
      const nodes = cap.snapshot.documents.reduce((n, d) => n + d.nodes.parentIndex.length, 0);
      console.log(`  ${c.name}/${name}: ${nodes} DOM nodes, ${cap.oopifs.length} OOPIF(s), capture ${timings.total} ms, ${events.length} event(s)`);
    }
  } finally {
    await context.close();
  }
  const url = new URL(startUrl);
  writeFileSync(path.join(dir, 'case.json'), JSON.stringify({ name: c.name, description: c.description,
    start: url.pathname + url.search, steps: stepsMeta }, null, 1) + '\n');
}

async function main() {
  const only = process.argv.slice(2).filter((a) => a !== '--unseen' && a !== '--accname');
  const all = UNSEEN ? UNSEEN_CASES : ACCNAME ? ACCNAME_CASES : CASES;
  const cases = only.length ? all.filter((c) => only.includes(c.name)) : all;
  if (only.length && cases.length !== only.length) {
    throw new Error(`unknown case(s): ${only.filter((n) => !all.some((c) => c.name === n)).join(', ')}; known: ${all.map((c) => c.name).join(', ')}`);
  }
  const sites = await startSites({ port: 47801, otherPort: 47802 });  // fixed: stable URLs in the corpus
  const home = mkdtempSync(path.join(os.tmpdir(), 'athena-record-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--site-per-process'],
    env: { ...process.env, HOME: home, TMPDIR: home },
  });
  console.log(`recording ${cases.length} case(s) into ${OUT} (sites on ${sites.origin}, cross-site ${sites.otherOrigin})`);
  try {
    for (const c of cases) await recordCase(browser, sites, c);
  } finally {
    await browser.close();
    await sites.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
