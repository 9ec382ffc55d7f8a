// The error type every module reports to the agent with (its codes: rules/errors.json). A tab's
// state is its TabSession (extension/lib/tab-session.js).

/** An error for the agent: a stable code and a message saying what to do. */
export class ToolError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}
