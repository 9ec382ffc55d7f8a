// Native-messaging framing and chunk reassembly: arbitrary bytes split at arbitrary points.
#include "framing.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "untrusted_json.h"

using namespace athena::bridge;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FrameReader reader(1u << 20);
  ChunkAssembler chunks;
  const char* p = reinterpret_cast<const char*>(data);
  std::size_t off = 0;
  while (off < size && !reader.failed()) {
    const std::size_t n = 1 + (static_cast<std::size_t>(data[off]) % 64);  // the input decides the cuts
    const std::size_t take = n < size - off ? n : size - off;
    if (!reader.feed(p + off, take)) break;
    off += take;
    while (auto payload = reader.next()) {
      std::string why;
      const json m = parse_untrusted(*payload, why);
      if (str_field(m, "type") != "chunk") continue;
      try {
        (void)chunks.add(m);
      } catch (const std::invalid_argument&) {
      }
    }
  }
  return 0;
}
