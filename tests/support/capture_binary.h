// A capture's JSON text -> its binary form (docs/capture-format.md), for tests and benches: the
// native twin of wasm/capture_pack.mjs (what the extension really sends), so Catch2 can hold the
// binary reader to the JSON reader on the whole corpus, natively and under ASan/UBSan.
#pragma once

#include <string>

namespace athena::testing {

/// The binary form of a capture given as JSON text. Throws std::runtime_error when the JSON is
/// not a capture the binary form can express (wrong types, integers beyond 32 bits, U+0000 in a
/// string): the JS packer sends those as JSON instead.
std::string to_binary_capture(const std::string& capture_json);

}  // namespace athena::testing
