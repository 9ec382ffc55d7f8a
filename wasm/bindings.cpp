// Embind facade over athena_core. Coarse calls only: one per CDP result, event or action.
#include <emscripten/bind.h>

#include <string>

#include "athena/version.h"

namespace {
std::string core_version() { return athena::kVersion; }
}  // namespace

EMSCRIPTEN_BINDINGS(athena_core) {
  emscripten::function("version", &core_version);
}
