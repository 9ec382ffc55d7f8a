// Test-only wasm module (athena_core_test, never staged): runs the engine's fidelity property
// inside wasm (fidelity_driver.h, with the native suite's own support code), and exercises the
// boundary guard with exceptions the real API cannot be made to throw on demand.
#include <emscripten/bind.h>

#include <new>
#include <stdexcept>
#include <string>

#include "boundary.h"
#include "fidelity_driver.h"

namespace athena::wasm {
namespace {

/// Seeds first_seed.. first_seed+count-1, `steps` steps each; json = run_fidelity_json's answer.
Reply run_fidelity(double first_seed, double count, double steps) {
  return guard("runFidelity", [&] {
    Reply r;
    r.json = run_fidelity_json(static_cast<std::uint64_t>(first_seed), static_cast<std::size_t>(count),
                               static_cast<std::size_t>(steps));
    r.ok = true;
    return r;
  });
}

/// One seed's session as the texts an agent read (fidelity_texts_json).
Reply fidelity_texts(double seed, double steps, double token_budget) {
  return guard("fidelityTexts", [&] {
    Reply r;
    r.json = fidelity_texts_json(static_cast<std::uint64_t>(seed), static_cast<std::size_t>(steps),
                                 static_cast<std::size_t>(token_budget));
    r.ok = true;
    return r;
  });
}

/// Throws what `kind` names inside the boundary guard, to prove no exception escapes it.
Reply throw_inside_guard(const std::string& kind) {
  return guard("throwInsideGuard", [&]() -> Reply {
    if (kind == "bad_alloc") throw std::bad_alloc();
    if (kind == "runtime_error") throw std::runtime_error("boom");
    if (kind == "int") throw 42;
    if (kind == "huge_alloc") {
      // A real allocation failure: more than the 2 GB wasm32 heap can ever hold.
      void* p = ::operator new(static_cast<std::size_t>(3) << 30);
      ::operator delete(p);
      Reply r;
      r.ok = true;
      return r;
    }
    Reply r;
    r.ok = true;
    r.json = "null";
    return r;
  });
}

}  // namespace
}  // namespace athena::wasm

EMSCRIPTEN_BINDINGS(athena_core_test) {
  using namespace emscripten;
  athena::wasm::bind_reply();
  function("runFidelity", &athena::wasm::run_fidelity);
  function("fidelityTexts", &athena::wasm::fidelity_texts);
  function("throwInsideGuard", &athena::wasm::throw_inside_guard);
}
