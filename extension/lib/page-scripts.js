// The text CDP runs (Runtime.evaluate / callFunctionOn) for the page code of stabilization, read,
// wait_for and the input tools: the functions live in extension/page/ (lib/page-code.js says how
// they become text). Password and payment values are redacted there, before anything leaves the page.

import { INVALID_MARK_ATTR, isSecretField, SECRET_MARK_ATTR, WAS_PASSWORD_ATTR } from './secrets.js';
import { LANDMARKS as landmarkTable, landmarkOf, regionOf } from './landmarks.js';
import { headingLevel } from './headings.js';
import { LIMITS } from './limits.js';
import { callExpression, pageFunction } from './page-code.js';
import { whyHidden } from './visibility.js';
import { scrollFor, selectOptions } from '../page/input.js';
import { chainOf, landmarkElement, landmarkSelector, opens, regionIn, sectionEdges } from '../page/landmarks.js';
import { readLandmark, readRegion, readText } from '../page/read.js';
import { whyHiddenInPage } from '../page/visible.js';
import { hasText, liveState } from '../page/wait.js';
import { beginWatch, pageWatcher, settleWatch } from '../page/watcher.js';

/**
 * The watcher's source for Page.addScriptToEvaluateOnNewDocument (and the document already there).
 * @param {string} key its property name on the page's global object
 */
export const WATCHER_JS = (key) => `(${pageWatcher})(${JSON.stringify(key)}, ${JSON.stringify({
  trackMaxMs: LIMITS.settleTimerMaxMs, windowMs: LIMITS.settleTrackWindowMs, repeats: LIMITS.settleTimerRepeats,
  animationMaxMs: LIMITS.settleAnimationMaxMs, animationsJudgedMax: LIMITS.settleAnimationsJudgedMax,
  collapseElementsMax: LIMITS.settleCollapseElementsMax, laterMaxMs: LIMITS.settleLaterMaxMs, wasPassword: WAS_PASSWORD_ATTR,
  secretMark: SECRET_MARK_ATTR, secretLabelMax: LIMITS.secretLabelMaxChars, otpBoxesMin: LIMITS.otpGroupBoxesMin,
  invalidMark: INVALID_MARK_ATTR, invalidMessageMax: LIMITS.invalidMessageMaxChars, framesMax: LIMITS.framesCapturedMax,
  ancestorsMax: LIMITS.watcherAncestorsMax,
})}, ${isSecretField})`;

const BEGIN_FN = pageFunction(beginWatch);
const SETTLE_FN = pageFunction(settleWatch);

/** Expression: the watcher (and those of same-origin iframes) starts watching an action. @param {string} key */
export const BEGIN_JS = (key) => callExpression(BEGIN_FN, key);

/**
 * Expression: resolves when the page has settled (see pageWatcher), or at capMs.
 * @param {string} key @param {number} quietMs @param {number} capMs
 */
export const SETTLE_JS = (key, quietMs, capMs) => callExpression(SETTLE_FN, key, quietMs, capMs, LIMITS.settleTickMs);

/** What the page code of read uses besides its own bodies. */
const LANDMARK_SCOPE = { landmarkTable, landmarkOf, regionOf, landmarkElement, chainOf, opens, regionIn };
const READ_SCOPE = { isSecretField, headingLevel, sectionEdges, LIMITS };

/** Text of an element (extension/page/read.js readText). */
export const READ_FN = pageFunction(readText, READ_SCOPE);

/** Text of the landmark of region `want` around this node (extension/page/read.js readLandmark). */
export const READ_LANDMARK_FN = pageFunction(readLandmark, LANDMARK_SCOPE);

const READ_REGION_FN = pageFunction(readRegion, { ...READ_SCOPE, readText, ...LANDMARK_SCOPE, landmarkSelector });

/**
 * Expression: the text of region `region` of the main document (extension/page/read.js readRegion).
 * @param {string} region @param {number} max characters at most @param {number} [from] where the part starts
 */
export const READ_REGION_JS = (region, max, from) => callExpression(READ_REGION_FN, region, max, from);

/** Selects the options of a <select> (extension/page/input.js selectOptions). */
export const SELECT_FN = pageFunction(selectOptions);

/** Scrolls for an element or the page (extension/page/input.js scrollFor). */
export const SCROLL_FN = pageFunction(scrollFor);

/** Live state of a node for wait_for (extension/page/wait.js liveState). */
export const LIVE_STATE_FN = pageFunction(liveState, { whyHidden, whyHiddenInPage });

/** Expression: whether the page's text holds `text`, and its URL. @param {string} text */
export const HAS_TEXT_JS = (text) => callExpression(pageFunction(hasText), text);
