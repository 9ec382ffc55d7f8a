// Every bound of the extension, in one place (STYLE: no magic numbers elsewhere).
// Waits are in milliseconds, sizes in bytes or characters as named.

export const LIMITS = Object.freeze({
  // --- refs (extension/lib/browser-engine.js) ---
  /** Refs are numbered by one engine; storage.session holds a number past every ref delivered, raised by this much when reached, and a restarted worker's engine starts there. */
  refBlock: 100_000,
  // --- bounded stabilization after an action (extension/lib/stabilize.js) ---
  /** The page counts as settled after this long with no DOM change, no timer of the action firing, and no request of the action in flight. */
  settleQuietMs: 100,
  /** How often the page's watcher and the request count are looked at while waiting. */
  settleTickMs: 20,
  /** Timers the action sets with a delay up to this long are waited for. */
  settleTimerMaxMs: 1_000,
  /** Longer ones, up to this long, are reported as work scheduled for later (not waited for). */
  settleLaterMaxMs: 10_000,
  /** The colour painted over a frame the policy withholds in a screenshot (page-gate.js). */
  screenshotBlankFill: '#808080',
  /** Bytes turned into a string at once when a screenshot is base64-encoded again (one call's arguments stay bounded). */
  base64ChunkBytes: 0x8000,
  /** The browser's validation message kept on a field it refused (page/watcher.js; the core cuts a description at kMaxNameChars anyway). */
  invalidMessageMaxChars: 200,
  /** A frame owner's label in a refusal (input-guard.js: the owner is no line, so its aria-label or title is quoted, cut here). */
  frameOwnerLabelMaxChars: 80,
  /** Timers set this long after the action began are no longer the action's. */
  settleTrackWindowMs: 2_000,
  /** One callback scheduled more often than this in one action is a loop: no longer waited for. */
  settleTimerRepeats: 2,
  /** CSS animations and transitions ending within this long are waited for (longer or infinite ones are not). */
  settleAnimationMaxMs: 1_000,
  /**
   * Running animations the page's watcher looks at per check for whether they can change a line at
   * all (page/watcher.js `inert`: a colour, a move inside the viewport); past this many, each one is
   * waited for unjudged. Each look reads its keyframes, computed style and box.
   */
  settleAnimationsJudgedMax: 200,
  /** An element collapsing to no width or height (page/watcher.js `folds`) is looked into only if it holds fewer elements than this; a bigger one is waited for. */
  settleCollapseElementsMax: 16,
  /**
   * Ancestors the page's watcher looks through for aria-hidden per DOM change (page/watcher.js):
   * a change deeper under an aria-hidden element than this counts as visible. A script building a
   * 20,000-level document made the walk quadratic: seconds of the page's own main thread.
   */
  watcherAncestorsMax: 64,
  /** Documents an action may replace (navigations it starts) while its stabilization follows them. */
  settleDocumentsMax: 2,
  /** Hard cap of the whole stabilization wait: a page that never settles returns after this, with a warning. */
  stabilizeCapMs: 4_000,
  /** Hard cap for a navigation (navigate/back/forward/reload) to reach its load event. */
  navigationCapMs: 15_000,
  /** Requests of the action still in flight after this long are not waited for (long polls, SSE). */
  longRequestMs: 5_000,

  // --- the service worker's life ---
  /** Chrome stops an idle service worker and wakes it only for an event: an alarm this often (minutes; Chrome's shortest) wakes it, and it reconnects the native port. athena-bridge waits kReconnectWaitMs (bridge/src/limits.h) for it. A copy of rules/wire-bounds.json's (tests/node/wire-bounds.test.mjs). */
  wakeAlarmMinutes: 0.5,

  // --- CDP ---
  /**
   * One chrome.debugger command. A page whose main thread does not answer within this is busy (a
   * script of its own still running): the call answers page_busy (extension/lib/tab-session.js).
   */
  cdpCommandMs: 15_000,
  /**
   * A call on a tab whose page is still busy (a command of an earlier call has not been answered)
   * waits this long for the page to answer again, then answers page_busy without sending more.
   */
  pageBusyWaitMs: 5_000,
  /** Capture attempts when a navigation races the capture (context destroyed, frame gone). */
  captureAttempts: 3,
  /** Frame owners of one snapshot whose borders a capture measures (DOM.getBoxModel each); the rest keep none. */
  frameOwnersMeasuredMax: 64,
  /** Pause between two capture attempts. */
  captureRetryMs: 150,
  /**
   * Frames of one page (besides the top one) whose content a capture keeps (capture.js capFrames):
   * the rest are left out of the FactPack, and a load that attaches more is stopped there, since
   * waiting for frames not shown buys nothing (a page of 10,000 iframes kept every CDP call
   * waiting 10-30 s while Chrome loaded its first 1,000). Well under the core's kMaxFrames (512).
   */
  framesCapturedMax: 100,

  // --- actionability before a press (extension/lib/actionability.js) ---
  /** Longest wait for the animation frames of one check that an element's box holds still (a hidden tab runs no frames). */
  actionFrameWaitMs: 100,
  /**
   * Animation frames over which an element's box must stay the same before it is pressed. For
   * click and hover the last of them is the frame the pointer's move is delivered in (Chromium
   * holds a move for the next frame once the page is producing frames, so a frame waited for
   * before the move would be a second wait): the check waits one frame fewer and looks again
   * once the pointer is there (actionability.js confirm).
   */
  actionStableFrames: 2,
  /** Checks (of the frames above each) before an element that keeps moving is refused (not_stable). */
  actionStableAttempts: 3,
  /** Points tried inside the element: its centre, then the centres of its quarters. */
  actionHitPoints: 5,
  /** Labels of a control whose points are tried when the control itself cannot be hit (a checkbox drawn by its label). */
  actionLabelsTried: 3,
  /** Other places the element is scrolled to, in turn, when every point is covered (scrollIntoView block values). */
  actionScrollBlocks: Object.freeze(['center', 'start', 'end']),
  /** Out-of-process frames a hit test follows down; for the focus, frames and closed shadow roots. */
  actionFrameDepth: 8,
  /**
   * Nodes of the target looked at to tell whether a control nested in it is its whole content
   * (a tab's own link) or one part among others (a row's Edit button); past it, a part.
   */
  actionContentNodes: 2_000,

  // --- tools ---
  /** Longest wait_for the agent may ask for. */
  waitForMaxMs: 30_000,
  /** Default wait_for when the agent gives no ms. */
  waitForDefaultMs: 5_000,
  /** How often wait_for looks again. */
  waitForPollMs: 200,
  /** Elements one find may ask for (its default is the core's: limits.h kDefaultFindLimit). */
  findMaxLimit: 500,
  /** Characters of text one type call may insert. */
  typeMaxChars: 100_000,
  /** Fields one fill_form may fill (a long form is several calls: each answer's FactPack stays small). */
  fillFormMaxFields: 50,
  /**
   * drag: the pointer goes from one end to the other in this many moves, each after this many ms,
   * then rests on the drop point this long before it is released: libraries that track the pointer
   * by polling (SortableJS's fallback mode looks every 50 ms) see it arrive, as with a hand.
   */
  dragSteps: 10,
  dragStepMs: 16,
  dragRestMs: 120,
  /** How long drag waits for the browser to hand over an HTML5 drag the page started (Input.dragIntercepted). */
  dragInterceptMs: 2_000,
  /** Largest drag offset (dx, dy) in CSS px. */
  dragMaxPx: 10_000,
  /** resize: the narrowest and widest viewport (CSS px, either side) an agent may ask for. */
  resizeMinPx: 200,
  resizeMaxPx: 4_000,
  /** network: requests kept per tab since its last navigation (the oldest go first). */
  netLogMax: 500,
  /** network: requests listed per answer (offset pages on). */
  netListMax: 40,
  /** network: characters of a URL shown in the list (the details show it whole). */
  netUrlMaxChars: 160,
  /** network {id}: characters of a request's or response's body shown. */
  netBodyMaxChars: 4_000,
  /** network {id}: a response body is fetched from the browser only up to this size (a 50 MB download is not carried to say 4,000 characters of it). */
  netBodyFetchMaxBytes: 1_000_000,
  /** console: messages kept per tab since its last navigation (the oldest go first). */
  consoleLogMax: 500,
  /** console: messages listed per answer (offset pages on). */
  consoleListMax: 40,
  /** console: characters of one message shown (a logged object or a long text is cut, and says by how much). */
  consoleTextMaxChars: 500,
  /** console: execution contexts known per tab (one per frame and world; a page that makes frames without end stops adding). */
  consoleContextsMax: 1_000,
  /** console: objects of console calls CDP holds for a session before they are let go (they are never read). */
  consoleReleaseEvery: 200,
  /** evaluate: characters of the function the agent sends. */
  evaluateFunctionMaxChars: 20_000,
  /** evaluate: how long its function may run or its promise stay unsettled before the call answers eval_timeout. */
  evaluateWaitMs: 5_000,
  /** evaluate: how long past evaluateWaitMs the call waits for V8's own stop of a function that ran too long to come back. */
  evaluateGraceMs: 2_000,
  /** evaluate: characters of the JSON result shown (the rest is cut, and the answer says by how much). */
  evaluateResultMaxChars: 4_000,
  /** Files one upload may set. */
  uploadMaxFiles: 20,
  /** Default scroll amount as a share of the viewport height. */
  scrollViewportShare: 0.8,
  /** Largest scroll amount in CSS px. */
  scrollMaxPx: 100_000,
  /** Dialogs navigate, back or forward answer while leaving a page (a page that opens the next alert as each is answered); beyond, the navigation waits for its CDP bound. */
  leaveDialogsMax: 20,
  /**
   * navigate, back or forward leaving a page a dialog loop or its own script holds goes through
   * about:blank first (a renderer of its own, which the page cannot hold): how long it waits for
   * about:blank to commit, then to load, before it goes on anyway.
   */
  leaveHopMs: 5_000,
  /** Longest URL navigate accepts. */
  urlMaxChars: 8_192,

  // --- request interception (lib/tab-session.js #paused) ---
  /** Stopped navigations remembered per tab until the next answer names them. */
  stoppedRequestsKept: 16,

  // --- secrets by meaning (page/watcher.js pageWatcher, lib/secrets.js) ---
  /** Label text read to tell whether a field holds a secret (the core's kMaxSecretLabelChars). */
  secretLabelMaxChars: 400,
  /** One-character inputs side by side that make a one-time-code group (each box a secret). */
  otpGroupBoxesMin: 4,

  // --- traces of live sessions (lib/trace.js, replayed by the web playground) ---
  /** Core calls recorded per agent tab; recording stops (and says so) beyond. */
  traceMaxEntries: 2_000,
  /** Bytes of captures/events/texts recorded per agent tab (capture objects by the estimate below). */
  traceMaxBytes: 64 * 1024 * 1024,
  /**
   * A capture object held in memory costs about traceBytesPerNode per DOM node, plus
   * traceBytesPerChar per character and traceBytesPerString per string of its table, plus
   * traceBytesPerCapture: 3.6-5x its JSON. Calibrated on tests/cases (V8 heap of parsed captures);
   * the estimate is at or above the measured heap on every recorded page.
   */
  traceBytesPerNode: 400,
  traceBytesPerChar: 2,
  traceBytesPerString: 32,
  traceBytesPerCapture: 8_192,
  /** Agent tabs whose traces are kept (oldest dropped first). */
  traceMaxPages: 8,

  // --- native messaging (docs/wire-protocol.md) ---
  /** First reconnect delay after the port dropped; doubles up to nativeBackoffMaxMs. */
  nativeBackoffStartMs: 500,
  nativeBackoffMaxMs: 30_000,
  // The chunk rule's bounds, on both sides of the wire: rules/native-chunks.json `bounds` is their
  // one source (athena-bridge's are generated from it, bridge/gen-tools.mjs); the extension cannot
  // read rules/ at run time, so they are copied here, held equal by tests/node/wire-bounds.test.mjs.
  /** Messages above this many UTF-8 bytes of JSON are sent as chunks (Chrome's 1 MiB host->browser cap). */
  nativeChunkBytes: 1024 * 1024,
  /** Pieces one chunked message may have. */
  nativeMaxChunks: 256,
  /** Largest message, framed or reassembled from chunks (UTF-8 bytes). */
  nativeMaxMessageBytes: 64 * 1024 * 1024,
  /**
   * The longest a call may run: the deadline athena-bridge sends with each call (`deadline_ms`,
   * its own less a margin) is honoured up to this, and a call without one gets this. It is what
   * the bridge ever sends (bridge/src/limits.h kCallDeadlineMs less kDeadlineMarginMs: every call
   * is answered before an MCP client's own 60 s timeout), checked there at compile time. A copy of
   * rules/wire-bounds.json's, as is callDeadlineGraceMs (tests/node/wire-bounds.test.mjs).
   */
  callDeadlineMaxMs: 53_000,
  /**
   * At its deadline a call is cancelled (the tab stops waiting and reports what was done); if it
   * has still not answered this much later, the extension answers `deadline` itself. Less than
   * the bridge's margin (kDeadlineMarginMs, 2 s), so the agent gets the extension's answer.
   */
  callDeadlineGraceMs: 1_500,
  /**
   * Largest FactPack JSON a result carries (UTF-8 bytes of render_json), and only to an
   * `athena-bridge mcp --structured` server (its call says `structured: true`): past it the
   * result's `factpack` says how large it was and that the text is the FactPack. Half the queue
   * the native host keeps for one MCP server (bridge/src/limits.h kMaxClientQueueBytes, 8 MiB),
   * which a larger answer would overflow, disconnecting the agent.
   */
  structuredFactpackMaxBytes: 4 * 1024 * 1024,
  /** Agent sessions kept at once: as many as athena-bridge serves agents (bridge/src/limits.h kMaxClients); past it the one idle the longest is let go. */
  maxSessions: 32,
  /** Tabs one session may control at once. */
  maxTabsPerSession: 32,
  /** Tabs one action may open that become the agent's (browser-events.js onTabCreated); the rest stay open, counted, not controlled. */
  popupsAdoptedMax: 5,
  /** Calls whose time breakdown the action flow keeps (extension/lib/action-flow.js timings; the benchmark reads them). */
  timingsKept: 64,
});

/** Wire protocol version this extension speaks. */
export const PROTOCOL_VERSION = 1;
