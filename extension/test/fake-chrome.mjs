// A small fake `chrome` for unit tests of the service worker's logic: storage, tabs and a
// debugger that records commands. Only what extension/lib uses.
export function fakeChrome({ tabs = [], session = {}, local = {} } = {}) {
  const area = (data) => ({
    data,
    get: async (keys) => Object.fromEntries((Array.isArray(keys) ? keys : [keys]).filter((k) => k in data).map((k) => [k, structuredClone(data[k])])),
    set: async (o) => { Object.assign(data, structuredClone(o)); },
    remove: async (k) => { delete data[k]; },
  });
  const tabMap = new Map(tabs.map((t) => [t.id, { ...t }]));
  let nextTab = 100;
  const sent = [];
  return {
    sent,
    storage: { local: area(local), session: area(session) },
    tabs: {
      query: async () => [...tabMap.values()],
      get: async (id) => { const t = tabMap.get(id); if (!t) throw new Error(`No tab with id: ${id}.`); return { ...t }; },
      create: async ({ url }) => { const t = { id: nextTab++, url, incognito: false }; tabMap.set(t.id, t); return { ...t }; },
      update: async (id) => tabMap.get(id),
      remove: async (id) => { tabMap.delete(id); },
      reload: async () => {},
    },
    debugger: {
      attach: async () => {},
      detach: async () => {},
      sendCommand: async (target, method, params) => { sent.push({ target, method, params }); return {}; },
    },
  };
}
