// Replaying a recorded case through the core, the one way everybody does it (goldens, the
// replay demo, the token benchmark, the wasm parity test and the web playground mirror it;
// tests/golden/README.md):
//   engine = Engine{}; key = PageKey{0, 1}; open_page(key)
//   step 0:  snapshot(key, capture_0)
//   step i:  begin_action(key, capture_{i-1}, previous version); on_event(key, e) for e in events_i
//            (seen while the action ran); finish_action(key, capture_i, ActionInfo{kind = step.json's action.op})
#pragma once

#include <string>
#include <vector>

#include "athena/factpack.h"
#include "corpus.h"

namespace athena::testing {

struct ReplayStep {
  std::string name;    // "03-open-modal"
  std::string action;  // step.json action.op ("navigate", "click", ...)
  bool ok = false;
  std::string error;  // when !ok: "<code>: <message>"
  FactPack pack;
  std::string text;          // render_text(pack)
  std::string json;          // render_json(pack)
  std::string nodedup_text;  // render_text without cross-baseline dedup (what dedup saves)
  std::string full_text;     // the same state as a fresh, untrimmed full snapshot (what peers send)
  std::string floor_text;    // one line per changed element: the least any tool could say
};

/// Replays one case (see the header comment). Never throws on bad captures: the step records the error.
std::vector<ReplayStep> replay_case(const corpus::Case& c);

/// The floor of a FactPack: one line per added, modified and invalidated element (and per element
/// of an opened overlay); "" when nothing changed.
std::string floor_text(const FactPack& pack);

}  // namespace athena::testing
