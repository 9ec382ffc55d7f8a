// The landmark rule (lib/landmarks.js: its table, landmarkOf and regionOf, which run in the page
// too) over live DOM elements.
import { LANDMARKS as landmarkTable, landmarkOf, regionOf } from '../lib/landmarks.js';

/** The elements that can open a landmark: the table's tags and anything with a role attribute. */
export const landmarkSelector = ['[role]', ...new Set(landmarkTable.landmarks.flatMap((l) => l.tags))].join(',');

/** What bounds the section of a heading that read returns (the table's sectionEdges). */
export const sectionEdges = landmarkTable.sectionEdges;

/** An element as the landmark rule reads it. @param {any} n */
export function landmarkElement(n) { return { tag: n.localName, attr: (/** @type {any} */ a) => n.getAttribute(a) }; }

/** The element and its ancestors, outermost first. @param {any} n */
export function chainOf(n) { const chain = /** @type {any[]} */ ([]); for (let e = n; e; e = e.parentElement) chain.unshift(landmarkElement(e)); return chain; }

/** The region the element opens ('' for none). @param {any} n */
export function opens(n) { return landmarkOf(landmarkTable, chainOf(n)); }

/** The region the element lives in within its document. @param {any} n */
export function regionIn(n) { return regionOf(landmarkTable, chainOf(n), landmarkOf); }
