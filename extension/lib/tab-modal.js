// The modal state of one tab (TabSession's, extension/lib/tab-session.js): the JavaScript dialog
// (or beforeunload prompt) open in the page, the action it interrupted and holds until the agent
// answers, a held action orphaned when the page or the user closed its dialog, and the waits
// racing a dialog's opening. Owned by its TabSession, which routes Chrome's dialog events here.

/** @typedef {{type: string, message: string, defaultPrompt?: string, url?: string}} Dialog */
/** The action a dialog interrupted, finished when the agent answers it. @typedef {{kind: string, acting: Promise<any>, notes: string[]}} Held */

export class ModalState {
  /** The JavaScript dialog open in the page. @type {Dialog | null} */
  dialog = null;
  /** The dialog the agent is answering (`answering` to `answered`). @type {Dialog | null} */
  #answeredDialog = null;
  /** The action that dialog interrupted. @type {Held | null} */
  #held = null;
  /** A held action whose dialog the page or the user closed: the next call on the tab ends it. @type {{held: Held, dialog: Dialog} | null} */
  #orphan = null;
  /** Waits in progress for a dialog (each dropped when its race settles). @type {Set<(d: any) => void>} */
  waiters = new Set();
  /** The navigation under way is to leave the page through about:blank (leaveThroughBlank). */
  #throughBlank = false;

  /** A dialog opened: waits racing one end. @param {Dialog} d */
  opened(d) {
    this.dialog = d;
    for (const w of [...this.waiters]) w(d);
    this.waiters.clear();
  }

  /** The dialog closed: closed by the page or the user, the action it held is orphaned. */
  closed() {
    if (this.#held && this.dialog) this.#orphan = { held: this.#held, dialog: this.dialog };
    this.#held = null;
    this.dialog = null;
  }

  /** An action was interrupted by the open dialog. @param {Held} h */
  hold(h) { this.#held = h; }

  /** The agent answers the open dialog: the action it held (null: none), no longer held. */
  answering() {
    const h = this.#held;
    this.#held = null;
    this.#answeredDialog = this.dialog;
    return h;
  }

  /** The agent's answer was taken by the page: a next dialog the page opened meanwhile stays open. */
  answered() {
    if (this.dialog === this.#answeredDialog) this.dialog = null;
    this.#answeredDialog = null;
  }

  /** A held action whose dialog closed without the agent's answer, once. */
  takeOrphan() {
    const o = this.#orphan;
    this.#orphan = null;
    return o;
  }

  /** A dialog was dismissed to leave the page: the navigation goes through about:blank. */
  leaveThroughBlank() { this.#throughBlank = true; }
  /** Whether the navigation is to go through about:blank, once. */
  takeThroughBlank() {
    const b = this.#throughBlank;
    this.#throughBlank = false;
    return b;
  }
}
