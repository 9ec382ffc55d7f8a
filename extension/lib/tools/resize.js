// resize: the agent's tab at a phone's or a tablet's width (or any size), to check a responsive
// layout, and back to the window's own size. Chrome emulates the viewport for this tab only
// (Emulation.setDeviceMetricsOverride); the window the user sees keeps its size, and the override
// ends when the agent lets the tab go (the debugger detaches). The answer is the FactPack of what
// the new width changed (a menu collapsing into a button, columns stacking), with the viewport
// before and after.
import { LIMITS } from '../limits.js';
import { ToolError } from '../tab-state.js';
import { arg, defineTool, oneOf } from './define.js';

/** The presets: CSS px and whether the page is told it is on a mobile device (its meta viewport applies). */
const DEVICES = Object.freeze({
  phone: { width: 390, height: 844, mobile: true },
  tablet: { width: 820, height: 1180, mobile: true },
});

/** The size asked for: a preset, width/height, or null (desktop: the window's own size). @param {any} args */
function sizeOf(args) {
  const has = args.width !== undefined || args.height !== undefined;
  if (args.device && has) throw new ToolError('bad_arguments', 'resize: give device, or width and height, not both');
  if (args.device === 'desktop') return null;
  if (args.device) return DEVICES[/** @type {'phone' | 'tablet'} */ (args.device)];
  if (!has) throw new ToolError('bad_arguments', 'resize: give device (phone, tablet, desktop) or width and height');
  const ok = (/** @type {unknown} */ v) => Number.isInteger(v) && /** @type {number} */ (v) >= LIMITS.resizeMinPx && /** @type {number} */ (v) <= LIMITS.resizeMaxPx;
  if (!ok(args.width) || !ok(args.height)) throw new ToolError('bad_arguments', `resize: width and height are both needed, whole CSS px from ${LIMITS.resizeMinPx} to ${LIMITS.resizeMaxPx}`);
  return { width: args.width, height: args.height, mobile: false };
}

export const resize = defineTool({
  name: 'resize',
  title: 'Resize viewport',
  // Only the viewport changes (the page may lay itself out anew); the same size again changes nothing.
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  description: 'Set the viewport: a device, or width and height (desktop: the window\'s own).',
  args: { device: oneOf(['phone', 'tablet', 'desktop']), width: arg('integer'), height: arg('integer') },
  mutating: true, factpack: true, group: 'debug',
  precheck(args) { sizeOf(args); },
  async handler(t, args, ctx) {
    const size = sizeOf(args);
    return ctx.flow.run(t, 'resize', args, async () => {
      /** The layout viewport, CSS px. */
      const viewport = async () => {
        const m = await ctx.send(t, 'Page.getLayoutMetrics');
        const v = m.cssLayoutViewport ?? m.layoutViewport;
        return `${Math.round(v.clientWidth)}x${Math.round(v.clientHeight)}`;
      };
      const was = await viewport();
      if (size) await ctx.send(t, 'Emulation.setDeviceMetricsOverride', { width: size.width, height: size.height, deviceScaleFactor: 0, mobile: size.mobile });
      else await ctx.send(t, 'Emulation.clearDeviceMetricsOverride');
      const now = await viewport();
      t.actNote(`viewport ${now}${args.device ? ` (${args.device})` : ''}, was ${was}`);
    });
  },
});
