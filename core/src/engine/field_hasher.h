// xxHash3 over a sequence of length-prefixed fields, so ("ab","c") != ("a","bc").
//
// Fields are gathered in a buffer on the stack and hashed in one shot: XXH3's streaming state
// costs more to set up than the few dozen bytes of a node. A long input (a whole snapshot) is
// fed to the streaming state one buffer at a time. XXH3 gives the same value either way, so
// the hashes do not depend on how the bytes were chunked.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace athena::engine {

class FieldHasher {
 public:
  FieldHasher() = default;
  FieldHasher(const FieldHasher&) = delete;
  FieldHasher& operator=(const FieldHasher&) = delete;

  FieldHasher& str(const std::string& s) {
    num(s.size());
    put(s.data(), s.size());
    return *this;
  }
  FieldHasher& num(std::uint64_t v) {
    put(reinterpret_cast<const char*>(&v), sizeof v);
    return *this;
  }
  /// Hash of everything added so far. Call once.
  std::uint64_t digest() {
    if (!streaming_) return XXH3_64bits(buf_, len_);
    XXH3_64bits_update(&state_, buf_, len_);
    len_ = 0;
    return XXH3_64bits_digest(&state_);
  }

 private:
  void put(const char* p, std::size_t n) {
    while (n > 0) {
      if (len_ == sizeof buf_) flush();
      const std::size_t k = n < sizeof buf_ - len_ ? n : sizeof buf_ - len_;
      std::memcpy(buf_ + len_, p, k);
      len_ += k;
      p += k;
      n -= k;
    }
  }
  void flush() {
    if (!streaming_) {
      XXH3_64bits_reset(&state_);
      streaming_ = true;
    }
    XXH3_64bits_update(&state_, buf_, len_);
    len_ = 0;
  }

  char buf_[512];
  std::size_t len_ = 0;
  bool streaming_ = false;
  XXH3_state_t state_;  // set up only when the input outgrows buf_
};

}  // namespace athena::engine
