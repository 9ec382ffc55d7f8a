// The capture readers (JSON text and the ATHB binary form) and the compiler behind them: any
// bytes are an error or a page, never a crash (docs/capture-format.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "athena/compiler.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  auto r = athena::compile_capture(in);
  (void)r;
  return 0;
}
