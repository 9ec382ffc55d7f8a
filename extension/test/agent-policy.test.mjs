// The user's policy wherever the page goes (README, "Install into your own Chrome"): a click or a redirect that lands on a site
// the user blocked gives blocked_origin and nothing of that page; a blocked frame's owner cannot
// be acted on and its dialog text is withheld; uploads come only from folders the user allowed;
// new tabs the page opens count against the agent's limit. Fake chrome and engine
// (extension/test/fake-page.mjs); the real chain is in tests/e2e/policy.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../lib/limits.js';
import { oneTab, setup } from './fake-page.mjs';

const block = (extra = {}) => ({ local: { policy: { block: ['bank.test'], ...extra } } });

test('a click that lands on a blocked site: blocked_origin, the action aborted, nothing compiled', async () => {
  let leadsTo = null;
  const { chrome, engine, agent } = await setup({
    ...block(),
    answer: (method, params) => { if (method === 'Input.dispatchMouseEvent' && params.type === 'mouseReleased') leadsTo = 'https://www.bank.test/account'; },
  });
  const ref = 'e1';
  const real = chrome.debugger.sendCommand;
  chrome.debugger.sendCommand = async (target, method, params) => {
    const r = await real(target, method, params);
    if (leadsTo) chrome.pageUrl = leadsTo;  // the link's page has loaded
    return r;
  };
  engine.calls.length = 0;
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref, version: engine.delivered } });
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'blocked_origin');
  // Named by the policy and the site's host, never by the page's path, title or text.
  assert.match(r.error.message, /policy.*www\.bank\.test is on the user's block-list.*back/);
  assert.doesNotMatch(r.error.message, /account/);
  assert.deepEqual(engine.calls, ['beginAction', 'resolve', 'abortAction']);
  // The tab stays unusable there: a snapshot compiles nothing either.
  const snap = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(snap.error.code, 'blocked_origin');
  assert.ok(!engine.calls.includes('snapshot'));
  // Back on an allowed page, the agent works again.
  leadsTo = null;
  chrome.pageUrl = 'https://a.test/';
  assert.equal((await agent.dispatch({ session: 'a', tool: 'snapshot' })).ok, true);
});

test('a navigation redirected to a blocked site: blocked_origin, never compiled', async () => {
  const { chrome, engine, agent } = await setup(block());
  engine.calls.length = 0;
  chrome.debugger.sendCommand = ((orig) => async (target, method, params) => {
    if (method === 'Page.navigate') {
      chrome.pageUrl = 'http://BANK.test.:8080/login';  // the server redirected
      // and the page loaded there, as Chrome then says (else the wait runs to navigationCapMs)
      setTimeout(() => agent.onDebuggerEvent({ tabId: 5 }, 'Page.frameStoppedLoading', { frameId: 'MAIN' }), 0);
    }
    return orig(target, method, params);
  })(chrome.debugger.sendCommand);
  const r = await agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/go' } });
  assert.equal(r.error?.code, 'blocked_origin', JSON.stringify(r));
  assert.deepEqual(engine.calls, []);
});

test('a frame from a blocked site: left out with a note, its owner refused, its dialog text withheld', async () => {
  const OWNER = 7;  // the fake engine resolves every ref to backendNodeId 7
  const { chrome, engine, agent, tab } = await setup({
    ...block(),
    answer: (method, params, sid) => {
      if (sid === 'S2' && method === 'Page.getFrameTree') return { frameTree: { frame: { id: 'F2', url: 'https://bank.test/widget' } } };
      if (method === 'DOM.getFrameOwner') return { backendNodeId: OWNER };
      return undefined;
    },
  });
  agent.onDebuggerEvent({ tabId: 5 }, 'Target.attachedToTarget', { sessionId: 'S2', targetInfo: { type: 'iframe', targetId: 'F2' } });
  const snap = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(snap.ok, true);
  assert.match(snap.text, /a frame from bank\.test was left out/);
  assert.deepEqual([...tab().withheldOwners], [OWNER]);
  const click = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  assert.equal(click.error?.code, 'blocked_origin');
  assert.match(click.error.message, /frame whose content the user's policy withholds/);
  assert.ok(!chrome.sent.some((c) => c.method === 'Input.dispatchMouseEvent'), 'nothing was clicked');
  agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'alert', message: 'your balance is 1,234', url: 'https://bank.test/widget' });
  const blocked = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(blocked.error.code, 'dialog_open');
  assert.doesNotMatch(blocked.error.message, /balance/);
  assert.match(blocked.error.message, /withheld: raised by bank\.test/);
});

test('uploads: only real paths inside a folder the user allowed (none by default)', async () => {
  const upload = async (agent, name, files) => agent.dispatch({ session: 'a', tool: 'upload', args: { ref: 'e1', files } });
  const none = await setup();
  const r0 = await upload(none.agent, none.name, ['/home/u/up/cv.pdf']);
  assert.equal(r0.error.code, 'upload_refused');
  assert.match(r0.error.message, /allows no folder/);
  const { chrome, agent, name } = await setup({ local: { policy: { uploadFolders: ['/home/u/up/'] } } });
  for (const bad of [['/home/u/.ssh/id_rsa'], ['/home/u/up/../.ssh/id_rsa'], ['/home/u/upload-other/x'], ['/home/u/up'], ['/home/u/up/a', '/etc/passwd']]) {
    const r = await upload(agent, name, bad);
    assert.equal(r.error?.code, 'upload_refused', `${bad}: ${JSON.stringify(r)}`);
  }
  assert.ok(!chrome.sent.some((c) => c.method === 'DOM.setFileInputFiles'));
  const ok = await upload(agent, name, ['/home/u/up/cv.pdf', '/home/u/up/sub/photo.png']);
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.deepEqual(chrome.sent.find((c) => c.method === 'DOM.setFileInputFiles').params.files, ['/home/u/up/cv.pdf', '/home/u/up/sub/photo.png']);
});

test(`a tab the page opens is not adopted beyond ${LIMITS.maxTabsPerSession} tabs, nor on a blocked site`, async () => {
  // The agent already controls maxTabsPerSession tabs (tab 5 and others).
  const state = oneTab();
  const tabs = [{ id: 5, url: 'https://a.test/' }];
  for (let i = 1; i < LIMITS.maxTabsPerSession; i++) {
    state.athenaState.tabMap.tabs.push({ tabId: 200 + i, key: { context: 0, page: 1 + i }, session: 'a' });
    tabs.push({ id: 200 + i, url: 'https://a.test/' });
  }
  state.athenaState.tabMap.nextPage[0] = LIMITS.maxTabsPerSession + 1;
  let agentRef;
  const { agent, engine } = await setup({
    ...block(), session: state, tabs,
    answer: (method, params) => {
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mouseReleased') {
        agentRef.onTabCreated({ id: 900, openerTabId: 5, pendingUrl: 'https://a.test/popup' });
        agentRef.onTabCreated({ id: 901, openerTabId: 5, pendingUrl: 'https://bank.test/' });
      }
      return undefined;
    },
  });
  agentRef = agent;
  const before = agent.status().tabs.length;
  assert.equal(before, LIMITS.maxTabsPerSession);
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(agent.status().tabs.length, before, 'no tab adopted');
  assert.ok(!agent.tabs.has(900) && !agent.tabs.has(901));
});

test('a tab its own page took to a blocked site after the action answered: read (region, ref), screenshot, wait_for and tabs list show nothing of it', async () => {
  const SECRET = 'Balance 1,234 on account 5678';
  const { chrome, agent } = await setup({
    ...block(),
    answer: (method, params) => {
      // What the page would answer, were it asked: the blocked page's text.
      if (method === 'Runtime.evaluate' && /querySelector|innerText/.test(params.expression)) return { result: { value: /querySelector/.test(params.expression) ? { text: SECRET, length: SECRET.length, url: chrome.pageUrl } : { has: true, url: chrome.pageUrl } } };
      if (method === 'Runtime.callFunctionOn') return { result: { value: { text: SECRET, length: SECRET.length } } };
      return undefined;
    },
  });
  const ref = 'e1';
  // The page's script, after the last action answered, went to the blocked site.
  chrome.pageUrl = 'https://bank.test/statement?acct=5678';
  const tabsGet = chrome.tabs.get;
  chrome.tabs.get = async (id) => (id === 5 ? { id: 5, url: chrome.pageUrl, title: SECRET } : tabsGet(id));
  const leaks = (/** @type {any} */ r) => JSON.stringify(r).match(/Balance|5678|statement/);
  for (const args of [{ region: 'main' }, {}, { ref }]) {
    const r = await agent.dispatch({ session: 'a', tool: 'read', args });
    assert.equal(r.error?.code, 'blocked_origin', `read ${JSON.stringify(args)}: ${JSON.stringify(r)}`);
    assert.match(r.error.message, /policy.*bank\.test is on the user's block-list/);
    assert.equal(leaks(r), null);
  }
  chrome.sent.length = 0;
  const shot = await agent.dispatch({ session: 'a', tool: 'screenshot' });
  assert.equal(shot.error?.code, 'blocked_origin', JSON.stringify(shot).slice(0, 300));
  assert.ok(!chrome.sent.some((c) => c.method === 'Page.captureScreenshot'), 'no picture taken');
  const list = await agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'list' } });
  assert.equal(list.ok, true);
  assert.equal(leaks(list), null, list.text);
  assert.match(list.text, /url="" title="" withheld="a site the user's policy does not let the agent see"/);
  const wait = await agent.dispatch({ session: 'a', tool: 'wait_for', args: { text: 'Balance', ms: 50 } });
  assert.equal(wait.error?.code, 'blocked_origin');
  assert.equal(leaks(wait), null);
  // Back on an allowed page, read works again.
  chrome.pageUrl = 'https://a.test/';
  assert.equal((await agent.dispatch({ session: 'a', tool: 'read', args: { region: 'main' } })).ok, true);
});

test('a tab the page opens onto a blocked site is not adopted, and neither its URL nor its title is shown', async () => {
  let agentRef;
  let later = null;
  const { agent, engine, chrome } = await setup({
    ...block(),
    answer: (method, params) => {
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mouseReleased') {
        // One popup named at once, one opened blank and sent to the blocked site by script.
        agentRef.onTabCreated({ id: 901, openerTabId: 5, pendingUrl: 'https://bank.test/private?acct=5678' });
        agentRef.onTabCreated({ id: 902, openerTabId: 5 });
        later = 902;
      }
      return undefined;
    },
  });
  agentRef = agent;
  // What the action's FactPack says (the fake engine drops its warnings): recorded here.
  let said = '';
  const finish = engine.finishAction;
  engine.finishAction = (key, capture, info) => { said = info.warnings.join('\n'); return finish(key, capture, info); };
  const tabsGet = chrome.tabs.get;
  chrome.tabs.get = async (id) => (id === later ? { id, url: 'https://www.bank.test/transfer?to=5678', title: 'Transfer to 5678' } : tabsGet(id));
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.ok(!agent.tabs.has(901) && !agent.tabs.has(902), 'neither tab is controlled');
  assert.equal(agent.status().tabs.length, 1);
  assert.doesNotMatch(said, /private|transfer|5678/i);
  assert.match(said, /a tab the agent may not control \(bank\.test is on the user's block-list/);
  assert.match(said, /this action opened a tab the agent may not control \(www\.bank\.test is on the user's block-list/);
});

test('screenshot of an allowed page paints the boxes of the frames the policy withholds', async () => {
  const OWNER = 7;
  const { chrome, agent } = await setup({
    ...block(),
    answer: (method, params, sid) => {
      if (sid === 'S2' && method === 'Page.getFrameTree') return { frameTree: { frame: { id: 'F2', url: 'https://bank.test/widget' } } };
      if (method === 'DOM.getFrameOwner') return { backendNodeId: OWNER };
      if (method === 'DOM.getBoxModel' && params.backendNodeId === OWNER) return { model: { border: [100, 50, 300, 50, 300, 150, 100, 150] } };
      return undefined;
    },
  });
  agent.onDebuggerEvent({ tabId: 5 }, 'Target.attachedToTarget', { sessionId: 'S2', targetInfo: { type: 'iframe', targetId: 'F2' } });
  // The service worker's canvas, recorded: the picture is 2 device pixels per CSS pixel (800 CSS px wide).
  const painted = [];
  const g = /** @type {any} */ (globalThis);
  const saved = { OffscreenCanvas: g.OffscreenCanvas, createImageBitmap: g.createImageBitmap };
  g.createImageBitmap = async () => ({ width: 1600, height: 1200 });
  g.OffscreenCanvas = class {
    getContext() { return { drawImage() {}, set fillStyle(v) { painted.push(['fill', v]); }, fillRect: (...a) => painted.push(a) }; }
    async convertToBlob() { return new Blob([new Uint8Array([1, 2, 3])]); }
  };
  try {
    const shot = await agent.dispatch({ session: 'a', tool: 'screenshot' });
    assert.equal(shot.ok, true, JSON.stringify(shot));
    assert.deepEqual(painted.filter((p) => p[0] !== 'fill'), [[200, 100, 400, 200], [200, 100, 400, 200]]);
    assert.equal(shot.image.data, btoa(String.fromCharCode(1, 2, 3)), 'the painted picture, not the raw one');
    assert.match(shot.text, /withheld_frames_blanked="1"/);
    // The frame itself is never photographed.
    const ref = await agent.dispatch({ session: 'a', tool: 'screenshot', args: { ref: 'e1' } });
    assert.equal(ref.error?.code, 'blocked_origin');
    // Without a canvas to paint with, no picture leaves the extension.
    g.OffscreenCanvas = undefined;
    const none = await agent.dispatch({ session: 'a', tool: 'screenshot' });
    assert.equal(none.error?.code, 'screenshot_refused');
  } finally {
    g.OffscreenCanvas = saved.OffscreenCanvas;
    g.createImageBitmap = saved.createImageBitmap;
  }
  assert.ok(chrome.sent.some((c) => c.method === 'Page.captureScreenshot'));
});

test('screenshot of a page with no frame to withhold takes no capture (a big page\'s capture costs several pictures)', async () => {
  const { chrome, agent } = await setup(block());
  chrome.sent.length = 0;
  const shot = await agent.dispatch({ session: 'a', tool: 'screenshot' });
  assert.equal(shot.ok, true, JSON.stringify(shot));
  assert.equal(shot.image.data, 'AAAA', 'the picture as taken');
  assert.ok(!chrome.sent.some((c) => c.method === 'DOMSnapshot.captureSnapshot'), 'no capture');
});

test('upload with uploads off: the same refusal whatever the path, existing or not', async () => {
  const { agent, chrome } = await setup();
  const answers = new Set();
  // athena-bridge passes an existing file resolved and a missing one as given.
  for (const f of ['/home/u/.ssh/id_rsa', '/home/u/no-such-file', '/home/u/x/../no-such-file', '/etc//shadow']) {
    const r = await agent.dispatch({ session: 'a', tool: 'upload', args: { ref: 'e1', files: [f], version: 1 } });
    answers.add(JSON.stringify(r));
  }
  assert.deepEqual([...answers], [JSON.stringify({ ok: false, error: { code: 'upload_refused', message: "upload: the user allows no folder for uploads (they can add one in the extension's options)" } })]);
  assert.ok(!chrome.sent.some((c) => c.method === 'DOM.setFileInputFiles'));
});

test('a frame from a blocked site that no capture has seen yet: its requests are not waited for', async () => {
  const { agent, tab } = await setup(block());
  const t = tab();
  // The iframe's document and what it loads name the blocked site as their document.
  agent.onDebuggerEvent({ tabId: 5 }, 'Network.requestWillBeSent', { requestId: 'B1', frameId: 'NEWFRAME', documentURL: 'https://www.bank.test/widget', request: { url: 'https://www.bank.test/widget' } });
  agent.onDebuggerEvent({ tabId: 5 }, 'Network.requestWillBeSent', { requestId: 'B2', frameId: 'NEWFRAME', documentURL: 'https://www.bank.test/widget', request: { url: 'https://cdn.test/x.js' } });
  assert.equal(t.inflight.size, 0);
  // The page's own request is the action's.
  agent.onDebuggerEvent({ tabId: 5 }, 'Network.requestWillBeSent', { requestId: 'A1', frameId: 'MAIN', documentURL: 'https://a.test/', request: { url: 'https://a.test/api' } });
  assert.deepEqual([...t.inflight.keys()], ['A1']);
});
