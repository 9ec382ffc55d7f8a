// fill_form: a whole form in one call and one FactPack, where type/select/click would cost one
// call and one FactPack per field. Each field is filled by the very path its own tool takes
// (extension/lib/tools/input.js: typeInto, selectIn, clickOn), looked at first like them.
// Everything that can be known before touching the page (stale or withheld refs, disabled fields,
// a value of the wrong kind) is checked for every field first, so such a call fills nothing; a
// field that fails while filling stops the call and the error says which fields were filled.
import { who } from '../actionability.js';
import { LIMITS } from '../limits.js';
import { pageFunction } from '../page-code.js';
import { fieldKind } from '../../page/form.js';
import { ToolError } from '../tab-state.js';
import { defineTool, msg } from './define.js';
import { clickOn, selectIn, typeInto } from './input.js';

/** @typedef {import('./define.js').ToolContext} ToolContext @typedef {import('../tab-session.js').TabSession} TabSession */

/** Page code (extension/page/form.js), as the text CDP runs. */
export const FIELD_KIND_FN = pageFunction(fieldKind);

/** The fields of a call, checked for shape (no page needed). @param {any} args @returns {Array<{ref: string, value: string | boolean}>} */
function fieldsOf(args) {
  const f = args.fields;
  if (!Array.isArray(f) || f.length === 0 || f.length > LIMITS.fillFormMaxFields)
    throw new ToolError('bad_arguments', `fill_form: fields is a list of 1..${LIMITS.fillFormMaxFields} {ref, value}`);
  f.forEach((x, i) => {
    const at = `fill_form: field ${i + 1}`;
    if (!x || typeof x !== 'object' || typeof x.ref !== 'string' || !x.ref) throw new ToolError('bad_arguments', `${at} needs a ref (like e5) from your last FactPack`);
    const extra = Object.keys(x).filter((k) => k !== 'ref' && k !== 'value');
    if (extra.length) throw new ToolError('bad_arguments', `${at} (${x.ref}): unknown key "${extra[0]}" (a field is {ref, value})`);
    if (typeof x.value !== 'string' && typeof x.value !== 'boolean') throw new ToolError('bad_arguments', `${at} (${x.ref}): value is text (a field's value or an option) or true/false (a check box or radio)`);
    if (typeof x.value === 'string' && x.value.length > LIMITS.typeMaxChars) throw new ToolError('bad_arguments', `${at} (${x.ref}): value longer than ${LIMITS.typeMaxChars} characters`);
  });
  return f;
}

export const fillForm = defineTool({
  name: 'fill_form',
  title: 'Fill form',
  // Each field is typed, chosen or clicked as type, select and click do: what they may do, it may.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Fill fields in order, each replacing its value: text, an option, true/false.',
  args: { fields: { type: 'array', items: { type: 'object' }, description: '[{ref, value}]' } },
  required: ['fields'], mutating: true, factpack: true, group: 'input',
  // The tab of the first field's ref, as a tool with one ref runs on that ref's tab.
  tab: (args, ctx) => ctx.tabFor({ tab: args.tab, ref: Array.isArray(args.fields) ? args.fields[0]?.ref : undefined }),
  precheck(args) { fieldsOf(args); },
  async handler(t, args, ctx) {
    const fields = fieldsOf(args);
    return ctx.flow.run(t, 'fill_form', args, async () => {
      // First every field, before any is touched: a call refused here fills nothing.
      const plan = [];
      for (const [i, f] of fields.entries()) {
        const at = `fill_form: field ${i + 1} of ${fields.length} (${f.ref})`;
        /** @type {any} */ let target;
        try { target = ctx.flow.resolve(t, 'fill_form', f.ref, true); } catch (e) {
          const code = e && typeof e === 'object' && 'code' in e ? String(e.code) : 'bad_ref';
          throw new ToolError(code, `${at}: ${msg(e)}; nothing was filled${code === 'element_disabled' ? '' : ': take a snapshot and use its refs'}`);
        }
        let k;
        try { k = await ctx.driver.callOn(t, target, FIELD_KIND_FN, [target.role]); } catch (e) {
          if (e instanceof ToolError && e.code !== 'page_error') throw e;
          throw new ToolError('not_attached', `${at}: ${who(target)} is no longer in the page: nothing was filled; take a snapshot`);
        }
        const name = `field ${i + 1} of ${fields.length} (${who(target)})`;
        if (k?.kind === 'none' || !k) throw new ToolError('not_a_field', `fill_form: ${name} is not a form field (a textbox, check box, radio, select or combobox): nothing was filled; use click for buttons and links`);
        if (k.kind === 'check' && typeof f.value !== 'boolean') throw new ToolError('bad_arguments', `fill_form: ${name} is a ${k.radio ? 'radio' : 'check box'}: its value is true or false; nothing was filled`);
        if (k.kind !== 'check' && typeof f.value !== 'string') throw new ToolError('bad_arguments', `fill_form: ${name} takes text${k.kind === 'options' ? ' (an option\'s label or value)' : ''}, not ${f.value}; nothing was filled`);
        if (k.kind === 'check' && k.radio && f.value === false && k.checked) throw new ToolError('bad_arguments', `fill_form: ${name} is a checked radio: a radio is unchecked by checking another of its group; nothing was filled`);
        plan.push({ target, kind: k.kind, value: f.value, name });
      }
      /** @type {string[]} */
      const filled = [];
      for (const p of plan) {
        try {
          if (p.kind === 'text') await typeInto(ctx, t, p.target, /** @type {string} */ (p.value), { kind: 'fill_form' });
          else if (p.kind === 'options') await selectIn(ctx, t, p.target, [/** @type {string} */ (p.value)], 'fill_form');
          else {
            const now = await ctx.driver.callOn(t, p.target, FIELD_KIND_FN, [p.target.role]);
            if (now?.checked !== p.value) {
              await clickOn(ctx, t, p.target, 'fill_form');
              const after = await ctx.driver.callOn(t, p.target, FIELD_KIND_FN, [p.target.role]);
              if (after?.checked !== p.value) throw new ToolError('not_changed', `clicking it left it ${after?.checked ? 'checked' : 'unchecked'} (the page decides otherwise)`);
            }
          }
        } catch (e) {
          const code = e instanceof ToolError ? e.code : 'page_error';
          const rest = plan.slice(filled.length).map((x) => x.target.ref);
          throw new ToolError(code, `fill_form stopped at ${p.name}: ${msg(e)}. ` +
            (filled.length ? `Filled before it: ${filled.join(', ')}` : 'No field was filled before it') +
            (rest.length ? `; not filled: ${rest.join(', ')}` : '') +
            (filled.length ? '. The page has changed: take a snapshot to see it' : ''));
        }
        filled.push(p.target.ref);
      }
    });
  },
});
