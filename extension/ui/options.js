// Options: allow/block lists (sites), upload folders, sites for scripts (evaluate), new tabs, screenshots. Stored in
// chrome.storage.local "policy"; the service worker follows changes at once.
import { normalizePolicy } from '../lib/policy.js';

const el = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));

async function load() {
  const { policy } = normalizePolicy((await chrome.storage.local.get('policy')).policy);
  el('allow').value = policy.allow.join('\n');
  el('block').value = policy.block.join('\n');
  el('uploadFolders').value = policy.uploadFolders.join('\n');
  el('evaluateSites').value = policy.evaluateSites.join('\n');
  el('allowNewTabs').checked = policy.allowNewTabs;
  el('allowScreenshots').checked = policy.allowScreenshots;
}

el('save').addEventListener('click', async () => {
  const raw = { allow: el('allow').value.split('\n'), block: el('block').value.split('\n'), uploadFolders: el('uploadFolders').value.split('\n'), evaluateSites: el('evaluateSites').value.split('\n'), allowNewTabs: el('allowNewTabs').checked, allowScreenshots: el('allowScreenshots').checked };
  const { policy, errors } = normalizePolicy(raw);
  el('errors').replaceChildren(...errors.map((e) => Object.assign(document.createElement('li'), { textContent: e })));
  if (errors.length) { el('msg').textContent = 'Not saved: fix the entries below.'; return; }
  await chrome.storage.local.set({ policy });
  el('msg').textContent = 'Saved.';
  load();
});
load();
