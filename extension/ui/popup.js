// The popup: is the bridge connected, which agents, which tabs; stop, resume, share this tab.
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {any} m */
const ask = (m) => chrome.runtime.sendMessage(m);

async function refresh() {
  const s = await ask({ type: 'status' });
  if (!s || s.error) { $('bridge').textContent = `unknown (${s?.error ?? 'no answer'})`; return; }
  $('bridge').textContent = s.native.connected ? `connected (athena-bridge ${s.native.bridge})` : 'not connected';
  $('bridge').className = s.native.connected ? 'ok' : 'bad';
  $('bridgeError').textContent = s.native.connected ? '' : (s.native.error ?? '') + (s.native.nextRetryMs ? ` — retrying in ${Math.round(s.native.nextRetryMs / 1000)} s` : '');
  $('agents').textContent = s.sessions.length ? s.sessions.map((/** @type {{client: string}} */ x) => x.client).join(', ') : 'none';
  const ul = $('tabs');
  ul.replaceChildren();
  for (const t of s.agent.tabs) {
    const li = document.createElement('li');
    const tab = await chrome.tabs.get(t.tabId).catch(() => null);
    li.textContent = `${t.tab}: ${tab?.title || tab?.url || 'closed'}${t.dead ? ` (${t.dead})` : ''}`;
    ul.append(li);
  }
  if (!s.agent.tabs.length) { const li = document.createElement('li'); li.textContent = 'none'; ul.append(li); }
  $('stop').hidden = s.agent.stopped;
  $('resume').hidden = !s.agent.stopped;
}

$('stop').addEventListener('click', async () => { await ask({ type: 'stop' }); $('msg').textContent = 'Stopped: the agent released every tab.'; refresh(); });
$('resume').addEventListener('click', async () => { await ask({ type: 'resume' }); $('msg').textContent = 'The agent may act again.'; refresh(); });
$('share').addEventListener('click', async () => {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (!tab?.id) return;
  const r = await ask({ type: 'share', tabId: tab.id });
  $('msg').textContent = r?.error ? `Not shared: ${r.error}` : 'Shared: the agent may act in this tab.';
  refresh();
});
$('export').addEventListener('click', async () => {
  const r = await ask({ type: 'trace' });
  if (!r?.trace) { $('msg').textContent = r?.error ? `No trace: ${r.error}` : 'No trace yet: the agent has not acted in a tab.'; return; }
  const url = URL.createObjectURL(new Blob([JSON.stringify(r.trace)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `athena-trace-${r.traces.at(-1)}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  $('msg').textContent = 'Trace downloaded: open it in the playground (./athena demo --web, "Load a trace file").';
});
refresh();
setInterval(refresh, 1000);
