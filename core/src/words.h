#pragma once
// The words a FactPack names a tab and a frame by, and find's frame argument reads
// (rules/words.json, the one table of them; extension/lib/ref.js and tabs.js are the extension's
// side): a tab is c{context}p{page}, a frame f{index}, a run of frames f{from}..f{to}. Every
// number is decimal with no leading zero, so each word has one spelling.
// tests/unit/engine/words_rule_test.cpp runs the table's cases through these.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace athena {

/// At most this many digits in a frame's index (rules/words.json frame.maxDigits).
constexpr std::size_t kFrameWordMaxDigits = 9;

/// "f3" for frame index 3.
inline std::string frame_word(long long index) {
  return "f" + std::to_string(index);
}

/// "c0p3" for context 0, page 3.
inline std::string tab_word(long long context, long long page) {
  return "c" + std::to_string(context) + "p" + std::to_string(page);
}

/// `fA` or a run `fA..fB` (A <= B): the indices it spans, or {-1, -1} when it is neither.
inline std::pair<long, long> frame_span(std::string_view s) {
  // One index: digits after an 'f', no leading zero, at most kFrameWordMaxDigits of them.
  auto index = [](std::string_view w) -> long {
    if (w.size() < 2 || w[0] != 'f' || w.size() - 1 > kFrameWordMaxDigits) return -1;
    if (w[1] == '0' && w.size() > 2) return -1;
    long n = 0;
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (w[i] < '0' || w[i] > '9') return -1;
      n = n * 10 + (w[i] - '0');
    }
    return n;
  };
  const std::size_t dots = s.find("..");
  if (dots == std::string_view::npos) {
    const long n = index(s);
    return {n, n};
  }
  const long lo = index(s.substr(0, dots)), hi = index(s.substr(dots + 2));
  if (lo < 0 || hi < lo) return {-1, -1};
  return {lo, hi};
}

}  // namespace athena
