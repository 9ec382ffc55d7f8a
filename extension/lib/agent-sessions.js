// The agents' sessions: each one's client and current tab (a Map of session id -> {client,
// current}, saved with the agent's state across service-worker restarts), when its last call came,
// how many of its calls are under way, and which one makes room when one more than
// LIMITS.maxSessions comes. The Agent owns one (extension/lib/agent.js) and lets the chosen one's
// tabs go.
import { LIMITS } from './limits.js';

/** @typedef {{client: string, current: number | null}} Session */

/** @extends {Map<string, Session>} */
export class AgentSessions extends Map {
  /** When each session's last call came (the one idle the longest makes room). @type {Map<string, number>} */
  #lastCall = new Map();
  /** Calls of each session under way (Agent.dispatch). @type {Map<string, number>} */
  #inFlight = new Map();

  /** A call of the session came now. @param {string} session */
  touch(session) {
    this.#lastCall.set(session, Date.now());
  }

  /** A call of the session began (it counts as at work until callEnded). @param {string} session */
  callBegan(session) {
    this.touch(session);
    this.#inFlight.set(session, (this.#inFlight.get(session) ?? 0) + 1);
  }

  /** @param {string} session */
  callEnded(session) {
    const n = (this.#inFlight.get(session) ?? 1) - 1;
    if (n > 0) this.#inFlight.set(session, n); else this.#inFlight.delete(session);
  }

  /**
   * Room for one more session: when all LIMITS.maxSessions are taken, the one let go (removed
   * here; the caller lets its tabs go), else null.
   * @param {(session: string) => boolean} holdsTab
   * @returns {string | null}
   */
  makeRoom(holdsTab) {
    if (this.size < LIMITS.maxSessions) return null;
    // Room first from sessions holding no tab (e.g. agents gone while the port was down), else
    // from the one whose last call is the oldest: athena-bridge lets an idle agent's slot go
    // and keeps its session, so every session ends up holding a tab, and room was never made.
    // Its tabs are let go (they stay open for the user); its next call starts afresh. A
    // session with a call running is let go last: athena-bridge lets an agent's slot go only
    // between its calls, so an agent at work never loses its tabs under its call.
    const ids = [...this.keys()];
    const between = ids.filter((id) => !this.#inFlight.get(id));
    const age = (/** @type {string} */ id) => this.#lastCall.get(id) ?? 0;
    const oldest = (/** @type {string[]} */ of) => of.reduce((a, b) => (age(a) <= age(b) ? a : b));
    const idle = ids.find((id) => !holdsTab(id)) ?? oldest(between.length ? between : ids);
    this.delete(idle);
    this.#lastCall.delete(idle);
    return idle;
  }

  /** The session's current tab, or null. @param {string} session */
  current(session) {
    return this.get(session)?.current ?? null;
  }

  /** @param {string} session @param {number | null} tabId */
  setCurrent(session, tabId) {
    const s = this.get(session);
    if (s) s.current = tabId;
  }
}
