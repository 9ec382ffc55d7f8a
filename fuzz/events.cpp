// The CDP event reader and the engine around it: a page is opened and snapshotted once, then the
// input is fed as events (one per line) and as the capture of an action. Bad input is an error
// and leaves the page usable.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "athena/engine.h"

namespace {
const char* kPage =
    R"({"v":1,"styles":["display","visibility","opacity","z-index","position"],)"
    R"("frameTree":{"frame":{"id":"F0","loaderId":"L0","url":"https://example.test/"}},)"
    R"("snapshot":{"strings":["#document","HTML","BODY","BUTTON","#text","OK","F0","https://example.test/"],)"
    R"("documents":[{"frameId":6,"documentURL":7,"title":-1,"nodes":{"parentIndex":[-1,0,1,2,3],"nodeType":[9,1,1,1,3],)"
    R"("nodeName":[0,1,2,3,4],"nodeValue":[-1,-1,-1,-1,5],"backendNodeId":[1,2,3,4,5],"attributes":[[],[],[],[],[]]},)"
    R"("layout":{"nodeIndex":[1,2,3,4],"bounds":[[0,0,800,600],[0,0,800,600],[0,0,80,20],[0,0,20,10]],)"
    R"("styles":[[],[],[],[]],"text":[-1,-1,-1,5]}}]}})";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  athena::Engine engine;
  const athena::PageKey key{0, 1};
  if (!engine.open_page(key)) return 0;
  if (!engine.snapshot(key, kPage)) __builtin_trap();  // the seed page itself must compile
  std::size_t start = 0;
  while (start <= in.size()) {
    const std::size_t nl = in.find('\n', start);
    const std::string_view line = in.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    (void)engine.on_event(key, line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  if (engine.begin_action(key, in, std::nullopt)) (void)engine.finish_action(key, in, {});
  // Whatever happened, the page still answers (a value, or an error if the events said its
  // document was replaced: both are answers).
  (void)engine.snapshot(key, kPage);
  if (!engine.stats(key)) __builtin_trap();
  return 0;
}
