// The native host's routing: each input line is one message, alternately from the extension and
// from one of three socket clients, parsed as the host parses them.
#include "host.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "untrusted_json.h"

using namespace athena::bridge;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  HostRouter router;
  (void)router.from_extension({{"type", "hello"}, {"protocol", 1}});
  for (int c = 1; c <= 3; ++c) (void)router.client_connected(c);
  std::size_t start = 0, k = 0;
  while (start <= in.size()) {
    const std::size_t nl = in.find('\n', start);
    const std::string_view line = in.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    std::string why;
    const json m = parse_untrusted(line, why);
    if (m.is_object()) {
      const int who = static_cast<int>(k++ % 4);  // 0 = the extension
      if (who == 0)
        (void)router.from_extension(m);
      else
        (void)router.from_client(who, m);
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  for (int c = 1; c <= 3; ++c) (void)router.client_gone(c);
  return 0;
}
