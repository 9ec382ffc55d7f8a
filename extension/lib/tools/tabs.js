// tabs: the agent's tabs (list, new, select, close) and the tabs the user shared with it.
import { checkUrl } from '../policy.js';
import { quoteValue } from '../quote.js';
import { ToolError } from '../tab-state.js';
import { tabName } from '../tabs.js';
import { arg, defineTool, oneOf, str } from './define.js';

export const tabs = defineTool({
  name: 'tabs',
  description: 'List, open, select or close tabs.',
  args: { action: oneOf(['list', 'new', 'select', 'close']), url: arg('string') },
  required: ['action'],
  async handler(ctx, session, args) {
    const s = ctx.sessions.get(session);
    switch (args.action ?? 'list') {
      case 'list': {
        const lines = [];
        for (const r of ctx.tabMap.ofSession(session)) {
          const tab = await ctx.chrome.tabs.get(r.tabId).catch(() => null);
          if (!tab) continue;
          lines.push(`  <tab id="${tabName(r.key)}"${s?.current === r.tabId ? ' current="true"' : ''} url=${quoteValue(tab.url ?? '')} title=${quoteValue(tab.title ?? '')}/>`);
        }
        for (const id of ctx.shared) if (!ctx.tabs.has(id)) {
          const tab = await ctx.chrome.tabs.get(id).catch(() => null);
          if (tab) lines.push(`  <tab id="shared-${id}" shared_by_user="true" url=${quoteValue(tab.url ?? '')} title=${quoteValue(tab.title ?? '')}/>`);
        }
        return { ok: true, text: `<tabs count="${lines.length}">\n${lines.join('\n')}\n</tabs>` };
      }
      case 'new': {
        if (!ctx.policy.allowNewTabs) throw new ToolError('new_tabs_disabled', 'the user does not allow the agent to open new tabs (extension options)');
        const url = args.url ?? 'about:blank';
        const ok = checkUrl(ctx.policy, url);
        if (!ok.ok) throw new ToolError(ok.code, ok.message);
        const tab = await ctx.chrome.tabs.create({ url: 'about:blank', active: true });
        const t = await ctx.adopt(session, tab.id);
        if (s) s.current = t.tabId;
        return ctx.flow.run(t, 'navigate', args, async () => { await ctx.send(t, 'Page.navigate', { url }); });
      }
      case 'select': {
        const name = str(args, 'tab', true);
        const shared = /^shared-(\d+)$/.exec(name);
        if (shared) {
          const id = Number(shared[1]);
          if (!ctx.shared.has(id) || ctx.tabs.has(id)) throw new ToolError('unknown_tab', `${name} is not a tab the user shared (or another agent took it): use tabs list`);
          const t = await ctx.adopt(session, id);
          if (s) s.current = t.tabId;
          return ctx.flow.run(t, 'snapshot', {}, null);
        }
        const t = await ctx.tabFor(session, { tab: name });
        await ctx.chrome.tabs.update(t.tabId, { active: true }).catch(() => {});
        return ctx.flow.run(t, 'snapshot', { tab: args.tab }, null);
      }
      case 'close': {
        const t = await ctx.tabFor(session, { tab: str(args, 'tab', true) });
        const name = tabName(t.key);
        await ctx.release(t.tabId, null);
        await ctx.chrome.tabs.remove(t.tabId).catch(() => {});
        if (s && s.current === t.tabId) s.current = null;
        return { ok: true, text: `<tabs closed="${name}"/>` };
      }
      default: throw new ToolError('bad_arguments', 'tabs: action is list, new, select or close');
    }
  },
});
