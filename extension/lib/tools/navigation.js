// Tools that load a page or show it whole: navigate, back, forward, reload, snapshot.
import { LIMITS } from '../limits.js';
import { checkUrl } from '../policy.js';
import { ToolError } from '../tab-state.js';
import { arg, defineTool, str } from './define.js';

export const navigate = defineTool({
  name: 'navigate',
  title: 'Navigate',
  // Leaving a page loses what was typed into it (a beforeunload prompt is accepted on the way).
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Open a URL in the agent\'s tab. Returns a full FactPack.',
  args: { url: arg('string') },
  required: ['url'], mutating: true, factpack: true,
  // A new tab when the agent has none, but only for a URL it may open.
  tab: 'create',
  // Leaving the page is always possible: an open dialog (an alert loop, a beforeunload prompt) is answered on the way.
  dialog: 'leaves',
  // It replaces the document, and leaves a crashed page as reload does.
  navigates: true, revivesCrashed: true,
  precheck(args, ctx) {
    const url = str(args, 'url', true);
    if (url.length > LIMITS.urlMaxChars) throw new ToolError('bad_arguments', `navigate: url longer than ${LIMITS.urlMaxChars} characters`);
    const ok = checkUrl(ctx.policy, url);
    if (!ok.ok) throw new ToolError(ok.code, ok.message);
  },
  async handler(t, args, ctx) {
    const url = str(args, 'url', true);
    return ctx.flow.run(t, 'navigate', args, async () => {
      await ctx.flow.leaveHeld(t, 'navigate');
      // A crashed page is left by navigating, as by reloading.
      t.recovered();
      const r = await ctx.send(t, 'Page.navigate', { url });
      // A hop the policy stopped (a redirect to a blocked site) fails the load as aborted: the
      // capture that follows says why (agent.js captureTab), the tab where it was.
      if (r.errorText && !t.stoppedPending) throw new ToolError('navigation_failed', `navigate to ${url} failed: ${r.errorText}`);
    });
  },
});

/**
 * back or forward: the history entry is checked against the policy before going there. A page a
 * dialog loop or its own script holds is left through about:blank first (ActionFlow.hop), as
 * navigate does, and the entry's URL is then loaded as a new page: going through history would
 * take it back to the renderer the page holds (a page of the same site keeps its entry's), and
 * about:blank took the place of the entries after this one. An entry of the same document (a
 * single-page app's route, pushState) is no new page: its answer is the delta from what the agent
 * holds, whose refs stay bound (`inDocument`; the engine still sends a full for a new document).
 * @param {'back' | 'forward'} name
 */
function historyTool(name) {
  return defineTool({
    name,
    // A step within a single-page app answers a delta (kept under the bridge's 80-character bound).
    description: `Go ${name} in history; a step within a single-page app answers a delta.`,
    title: name === 'back' ? 'Go back' : 'Go forward',
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    mutating: true, factpack: true,
    dialog: 'leaves', navigates: true,
    async handler(t, args, ctx) {
      return ctx.flow.run(t, name, args, async () => {
        const h = await ctx.send(t, 'Page.getNavigationHistory');
        const i = h.currentIndex + (name === 'back' ? -1 : 1);
        if (i < 0 || i >= h.entries.length) throw new ToolError('no_history', `${name}: there is no page ${name === 'back' ? 'before' : 'after'} this one in the tab's history`);
        const ok = checkUrl(ctx.policy, h.entries[i].url);
        if (!ok.ok) throw new ToolError(ok.code, ok.message);
        if (await ctx.flow.leaveHeld(t, name, ` and loaded the ${name === 'back' ? 'previous' : 'next'} page's address as a new page`)) {
          const r = await ctx.send(t, 'Page.navigate', { url: h.entries[i].url });
          if (r.errorText && !t.stoppedPending) throw new ToolError('navigation_failed', `${name} to ${h.entries[i].url} failed: ${r.errorText}`);
          return;
        }
        await ctx.send(t, 'Page.navigateToHistoryEntry', { entryId: h.entries[i].id });
      }, { inDocument: true });
    },
  });
}

export const back = historyTool('back');
export const forward = historyTool('forward');

export const reload = defineTool({
  name: 'reload',
  title: 'Reload',
  // A reload loses what was typed into the page, and may send a form again.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Reload the page.',
  mutating: true, factpack: true,
  // It replaces the document in the same renderer, and is the way back from a crashed one.
  navigates: true, revivesCrashed: true,
  async handler(t, args, ctx) {
    return ctx.flow.run(t, 'reload', args, async () => { t.recovered(); await ctx.reload(t); });
  },
});

export const snapshot = defineTool({
  name: 'snapshot',
  title: 'Snapshot',
  hints: { readOnly: true, openWorld: true },
  description: 'Full FactPack of the page now, every region shown (recovers a lost context).',
  factpack: true,
  // The page whole, every region shown: what recovers a context the agent lost.
  baseline: true, collapsesUnchanged: false,
  async handler(t, args, ctx) {
    return ctx.flow.run(t, 'snapshot', args, null);
  },
});
