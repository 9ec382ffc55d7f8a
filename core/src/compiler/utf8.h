// UTF-8 as RFC 3629 has it (no overlongs, no surrogates, nothing above U+10FFFF): the one rule
// both capture readers apply (the JSON parser per string byte, the binary form per text column),
// so text from either form is equally safe to render.
#pragma once

#include <cstddef>

namespace athena::compiler {

/// The sequence at the start of [p, p + n), n >= 1: its length (1 to 4), or 0 when it is not
/// valid UTF-8; `bad` is then the offset of the first byte that makes it so (0 for a bad lead
/// byte), or n when the bytes end inside the sequence.
inline std::size_t utf8_sequence(const unsigned char* p, std::size_t n, std::size_t& bad) {
  const unsigned char b0 = p[0];
  if (b0 < 0x80) return 1;
  std::size_t extra = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range; later ones are always 80..BF
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    extra = 1;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    extra = 2;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    extra = 3;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    bad = 0;
    return 0;
  }
  for (std::size_t k = 1; k <= extra; ++k, lo = 0x80, hi = 0xBF) {
    if (k == n) {
      bad = n;
      return 0;
    }
    if (p[k] < lo || p[k] > hi) {
      bad = k;
      return 0;
    }
  }
  return extra + 1;
}

}  // namespace athena::compiler
