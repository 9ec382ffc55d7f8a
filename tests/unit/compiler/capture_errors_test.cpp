// Malformed, truncated and hostile captures: a clear error naming the field, never a crash.
#include <functional>

#include "athena/limits.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;
using nlohmann::json;

namespace {
json ok_page() {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, body, "button"), "OK");
  return b.json();
}
}  // namespace

TEST_CASE("not JSON, truncated JSON, not an object", "[compiler][errors]") {
  Error e = compile_err("{\"v\":1,");
  CHECK(e.code == ErrorCode::kMalformedJson);
  CHECK(e.message == "capture: not valid JSON (error at byte 7 of 7; truncated?); re-capture the page");
  const std::string full = ok_page().dump();
  e = compile_err(full.substr(0, full.size() / 2));
  CHECK(e.code == ErrorCode::kMalformedJson);
  e = compile_err("[1,2]");
  CHECK(e.code == ErrorCode::kMalformedCapture);
  CHECK(e.message == "capture: expected a JSON object (docs/capture-format.md), got array");
}

TEST_CASE("wrong version and missing parts name the field", "[compiler][errors]") {
  json j = ok_page();
  j["v"] = 2;
  CHECK(compile_err(j.dump()).message == "v: capture format version 2 is not supported (this core reads v1)");
  j = ok_page();
  j.erase("snapshot");
  CHECK(compile_err(j.dump()).message == "snapshot: missing object (see docs/capture-format.md; re-capture the page)");
  j = ok_page();
  j["snapshot"].erase("strings");
  CHECK(compile_err(j.dump()).message ==
        "snapshot.strings: missing array (see docs/capture-format.md; re-capture the page)");
  j = ok_page();
  j["snapshot"]["documents"] = json::array();
  CHECK(compile_err(j.dump()).message ==
        "snapshot.documents: empty (a snapshot has at least the main document) (see docs/capture-format.md; re-capture "
        "the page)");
  j = ok_page();
  j["frameTree"]["frame"].erase("loaderId");
  CHECK(compile_err(j.dump()).message ==
        "frameTree.frame.loaderId: missing string (see docs/capture-format.md; re-capture the page)");
  j = ok_page();
  j["styles"] = "display";
  CHECK(compile_err(j.dump()).message ==
        "styles: expected an array, got string (see docs/capture-format.md; re-capture the page)");
}

TEST_CASE("wrong types inside the snapshot", "[compiler][errors]") {
  json j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["parentIndex"][2] = "1";
  Error e = compile_err(j.dump());
  CHECK(e.code == ErrorCode::kMalformedCapture);
  CHECK(e.message ==
        "snapshot.documents[0].nodes.parentIndex[2]: expected an integer, got string (see docs/capture-format.md; "
        "re-capture the page)");
  j = ok_page();
  j["snapshot"]["strings"][0] = 5;
  CHECK(compile_err(j.dump()).message ==
        "snapshot.strings[0]: expected a string, got number (see docs/capture-format.md; re-capture the page)");
  j = ok_page();
  j["snapshot"]["documents"][0]["layout"]["bounds"][1] = json::array({1, 2, 3});
  CHECK(compile_err(j.dump()).message ==
        "snapshot.documents[0].layout.bounds[1]: expected [x, y, width, height] (see docs/capture-format.md; "
        "re-capture the page)");
  j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["attributes"][1] = json::array({0});
  CHECK(compile_err(j.dump()).message ==
        "snapshot.documents[0].nodes.attributes[1]: odd number of entries (name/value pairs expected) (see "
        "docs/capture-format.md; re-capture the page)");
  j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["nodeType"].push_back(1);
  CHECK(compile_err(j.dump()).message ==
        "snapshot.documents[0].nodes.nodeType: has 5 entries but parentIndex has 4 (see docs/capture-format.md; "
        "re-capture the page)");
  j = ok_page();
  j["viewport"]["width"] = nullptr;
  CHECK(compile_err(j.dump()).message ==
        "viewport.width: expected a number, got null (see docs/capture-format.md; re-capture the page)");
}

TEST_CASE("out-of-range indices", "[compiler][errors]") {
  json j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["nodeName"][1] = 999;
  CHECK(compile_err(j.dump()).message.rfind(
            "snapshot.documents[0].nodes.nodeName[1]: string index 999 out of range (snapshot.strings has ", 0) == 0);
  j = ok_page();
  j["snapshot"]["documents"][0]["layout"]["nodeIndex"][0] = 4;
  CHECK(compile_err(j.dump()).message ==
        "snapshot.documents[0].layout.nodeIndex[0]: node index 4 out of range (4 nodes) (see docs/capture-format.md; "
        "re-capture the page)");
  j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["contentDocumentIndex"] = {{"index", {1}}, {"value", {7}}};
  CHECK(compile_err(j.dump()).message ==
        "snapshot.documents[0].nodes.contentDocumentIndex.value[0]: document index 7 is not a later document of this "
        "snapshot (1 documents) (see docs/capture-format.md; re-capture the page)");
  j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["isClickable"] = {{"index", {-1}}};
  CHECK(compile_err(j.dump()).message ==
        "snapshot.documents[0].nodes.isClickable.index[0]: node index -1 out of range (4 nodes) (see "
        "docs/capture-format.md; re-capture the page)");
  j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["inputValue"] = {{"index", {1, 2}}, {"value", {0}}};
  CHECK(compile_err(j.dump()).message ==
        "snapshot.documents[0].nodes.inputValue: index has 2 entries but value has 1 (see docs/capture-format.md; "
        "re-capture the page)");
}

TEST_CASE("parentIndex cycles and self-references are refused", "[compiler][errors]") {
  json j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["parentIndex"][1] = 2;  // 1 -> 2 -> 1
  Error e = compile_err(j.dump());
  CHECK(e.code == ErrorCode::kMalformedCapture);
  CHECK(e.message ==
        "snapshot.documents[0].nodes.parentIndex[1]: parent 2 is not an earlier node (a cycle, or not DOMSnapshot's "
        "pre-order) (see docs/capture-format.md; re-capture the page)");
  j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["parentIndex"][2] = 2;
  CHECK(compile_err(j.dump()).code == ErrorCode::kMalformedCapture);
  j = ok_page();
  j["snapshot"]["documents"][0]["nodes"]["parentIndex"][3] = -7;
  CHECK(compile_err(j.dump()).code == ErrorCode::kMalformedCapture);
}

TEST_CASE("an iframe document cycle is refused", "[compiler][errors]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int f = b.el(0, body, "iframe");
  const int d1 = b.add_document("F1");
  const int f2 = b.el(d1, 0, "iframe");
  b.add_frame("F1", "L1", "F0");
  b.content_document(0, f, d1);
  b.content_document(d1, f2, 0);  // back to the main document
  const Error e = compile_err(b.str());
  CHECK(e.message ==
        "snapshot.documents[1].nodes.contentDocumentIndex.value[0]: document index 0 is not a later document of this "
        "snapshot (2 documents) (see docs/capture-format.md; re-capture the page)");
}

TEST_CASE("a 100 MB capture is refused by its size before it is parsed: kInputTooLarge", "[compiler][errors]") {
  // Left unterminated: were it parsed first, the answer would be a parse error.
  std::string big = "{\"v\":1,\"styles\":[\"";
  big.append(100u << 20, 'a');
  const Error e = compile_err(big);
  CHECK(e.code == ErrorCode::kInputTooLarge);
  CHECK(e.message ==
        "capture: 104857618 bytes exceed limits::kMaxInputBytes (67108864); capture a smaller page or frame");
}

TEST_CASE("too many nodes or frames is kInputTooLarge", "[compiler][errors]") {
  json j = ok_page();
  auto& nodes = j["snapshot"]["documents"][0]["nodes"];
  const std::size_t n = limits::kMaxNodes + 1;
  json parents = json::array(), types = json::array(), names = json::array(), ids = json::array();
  parents.push_back(-1);
  for (std::size_t i = 0; i < n; ++i) {
    if (i) parents.push_back(0);
    types.push_back(1);
    names.push_back(0);
    ids.push_back(i + 1);
  }
  nodes = {{"parentIndex", parents}, {"nodeType", types}, {"nodeName", names}, {"backendNodeId", ids}};
  Error e = compile_err(j.dump());
  CHECK(e.code == ErrorCode::kInputTooLarge);
  CHECK(e.message == "capture: more than 500000 DOM nodes (limits::kMaxNodes); capture a smaller page or frame");

  j = ok_page();
  json kids = json::array();
  for (std::size_t i = 0; i < limits::kMaxFrames + 1; ++i)
    kids.push_back({{"frame", {{"id", "K" + std::to_string(i)}, {"loaderId", "L"}}}});
  j["frameTree"]["childFrames"] = kids;
  e = compile_err(j.dump());
  CHECK(e.code == ErrorCode::kInputTooLarge);
  CHECK(e.message == "capture: more than 512 frames (limits::kMaxFrames)");
}

TEST_CASE("deep nesting does not crash: walked to kMaxDepth and reported", "[compiler][errors]") {
  CaptureBuilder b;
  int parent = b.el(0, 0, "body");
  for (std::size_t d = 0; d < limits::kMaxDepth + 50; ++d) parent = b.el(0, parent, "div");
  b.text(0, b.el(0, parent, "button"), "deep");
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "deep") == nullptr);
  REQUIRE(!s.warnings.empty());
  CHECK(s.warnings.back() == "DOM deeper than 4096 levels (limits::kMaxDepth): deeper elements left out");
}

TEST_CASE("random byte corruption never crashes: each result is a snapshot or an error that says what",
          "[compiler][errors]") {
  const std::string good = ok_page().dump();
  std::uint32_t seed = 12345;
  int ok = 0, err = 0;
  for (int k = 0; k < 2000; ++k) {
    std::string s = good;
    for (int m = 0; m < 3; ++m) {
      seed = seed * 1664525u + 1013904223u;
      const std::size_t at = seed % s.size();
      seed = seed * 1664525u + 1013904223u;
      s[at] = "0123456789-[]{}\",:eE.tn"[seed % 23];
    }
    auto r = compile_capture(s);  // ok or an error, never UB (checked under ASan/UBSan)
    (r.ok() ? ok : err)++;
    if (!r.ok()) CHECK_FALSE(r.error().message.empty());
  }
  // Both outcomes occur, so the loop above checked real errors and real snapshots.
  CHECK(ok > 0);
  CHECK(err > 0);
}

TEST_CASE("structural mutations (wrong types, wild indices) never crash", "[compiler][errors]") {
  // Replace random values anywhere in a real-shaped capture with hostile ones.
  const json good = json::parse(rich_capture());
  std::vector<json::json_pointer> leaves;
  std::function<void(const json&, const json::json_pointer&)> walk = [&](const json& j, const json::json_pointer& p) {
    leaves.push_back(p);
    if (j.is_object())
      for (auto it = j.begin(); it != j.end(); ++it) walk(it.value(), p / it.key());
    else if (j.is_array())
      for (std::size_t i = 0; i < j.size(); ++i) walk(j[i], p / i);
  };
  walk(good, json::json_pointer());
  const json hostile[] = {nullptr,
                          -1,
                          -2,
                          0,
                          1,
                          7,
                          99999,
                          4294967296LL,
                          -9223372036854775807LL,
                          1.5,
                          "x",
                          json::array(),
                          json::array({-1, -1}),
                          json::object(),
                          true};
  std::uint32_t seed = 7;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  int ok = 0, err = 0;
  for (int k = 0; k < 3000; ++k) {
    json j = good;
    for (int m = 0; m < 2; ++m) {
      const auto& p = leaves[next() % leaves.size()];
      if (p.empty() || !j.contains(p)) continue;  // an earlier mutation replaced a parent
      j[p] = hostile[next() % (sizeof hostile / sizeof hostile[0])];
    }
    auto r = compile_capture(j.dump());
    (r.ok() ? ok : err)++;
    if (!r.ok()) CHECK_FALSE(r.error().message.empty());
  }
  CHECK(ok > 0);
  CHECK(err > 0);
}
