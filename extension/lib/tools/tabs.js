// tabs: the agent's tabs (list, new, select, close) and the tabs the user shared with it.
import { listedTab } from '../page-gate.js';
import { checkUrl } from '../policy.js';
import { quoteValue } from '../quote.js';
import { ToolError } from '../tab-state.js';
import { tabName } from '../tabs.js';
import { arg, defineTool, oneOf, str } from './define.js';
import { navigate, snapshot } from './navigation.js';

export const tabs = defineTool({
  name: 'tabs',
  title: 'Tabs',
  // new opens a page, close loses one.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'List, open, select or close tabs.',
  args: { action: oneOf(['list', 'new', 'select', 'close']), url: arg('string') },
  required: ['action'],
  // The tab the call is about, whose queue runs it (list is about none).
  tab: tabOf,
  // Selecting a tab shows it (a snapshot), which its open dialog blocks; closing one does not.
  dialog: (args) => (args.action === 'select' ? 'blocks' : 'ignores'),
  // Closing a tab stops what runs on it (a wait_for, a settle wait), which then answers first.
  ends: (args) => (args.action === 'close' ? 'the agent closed this tab' : null),
  async handler(t, args, ctx) {
    switch (args.action ?? 'list') {
      case 'list': {
        // A tab on a site the policy does not allow shows neither its URL nor its title.
        /** @param {any} tab */
        const shown = (tab) => {
          const v = listedTab(ctx.policy, tab);
          return 'withheld' in v ? ` url="" title="" withheld=${quoteValue(v.withheld)}` : ` url=${quoteValue(v.url)} title=${quoteValue(v.title)}`;
        };
        const lines = [];
        for (const r of ctx.ownTabs()) {
          const tab = await ctx.chromeTab(r.tabId);
          if (!tab) continue;
          lines.push(`  <tab id="${tabName(r.key)}"${ctx.currentTabId() === r.tabId ? ' current="true"' : ''}${shown(tab)}/>`);
        }
        for (const id of ctx.sharedTabs()) {
          const tab = await ctx.chromeTab(id);
          if (tab) lines.push(`  <tab id="shared-${id}" shared_by_user="true"${shown(tab)}/>`);
        }
        return { ok: true, text: `<tabs count="${lines.length}">\n${lines.join('\n')}\n</tabs>` };
      }
      case 'new': {
        // The tab was opened by tabOf; the URL it goes to was checked there.
        const url = args.url ?? 'about:blank';
        return ctx.flow.run(tab(t), navigate.name, args, async () => { await ctx.send(tab(t), 'Page.navigate', { url }); });
      }
      case 'select': {
        if (/^shared-\d+$/.test(args.tab)) return ctx.flow.run(tab(t), snapshot.name, {}, null);
        await ctx.activate(tab(t));
        return ctx.flow.run(tab(t), snapshot.name, { tab: args.tab }, null);
      }
      case 'close': {
        const name = tabName(tab(t).key);
        await ctx.close(tab(t));
        return { ok: true, text: `<tabs closed="${name}"/>` };
      }
      default: throw new ToolError('bad_arguments', 'tabs: action is list, new, select or close');
    }
  },
});

/** @param {import('../tab-session.js').TabSession | null} t */
const tab = (t) => { if (!t) throw new ToolError('internal', 'tabs: no tab'); return t; };

/**
 * The tab a tabs call is about: none for list, the new one for new (opened only when the user
 * allows new tabs and the URL), the named one for select and close (a tab the user shared is
 * adopted when selected).
 * @param {any} args @param {import('./define.js').ToolContext} ctx
 */
async function tabOf(args, ctx) {
  switch (args.action ?? 'list') {
    case 'list': return null;
    case 'new': {
      if (!ctx.policy.allowNewTabs) throw new ToolError('new_tabs_disabled', 'the user does not allow the agent to open new tabs (extension options)');
      const ok = checkUrl(ctx.policy, args.url ?? 'about:blank');
      if (!ok.ok) throw new ToolError(ok.code, ok.message);
      return ctx.openTab();
    }
    case 'select': {
      const name = str(args, 'tab', true);
      const shared = /^shared-(\d+)$/.exec(name);
      if (!shared) return ctx.tabFor({ tab: name });
      const id = Number(shared[1]);
      if (!ctx.sharedTabs().includes(id)) throw new ToolError('unknown_tab', `${name} is not a tab the user shared (or another agent took it): use tabs list`);
      return ctx.adoptShared(id);
    }
    case 'close': return ctx.tabFor({ tab: str(args, 'tab', true) }, { keepCurrent: true });
    default: throw new ToolError('bad_arguments', 'tabs: action is list, new, select or close');
  }
}
