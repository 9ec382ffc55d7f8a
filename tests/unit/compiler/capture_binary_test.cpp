// The binary form of a capture (docs/capture-format.md "Binary form"): the same Snapshot as the
// JSON form on every recorded page, the same error for the same defect, and a clear error (never
// a crash, never a huge allocation) for a truncated, inconsistent or hostile buffer.
#include "capture_binary.h"

#include <cstring>
#include <sstream>

#include "athena/limits.h"
#include "corpus.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;
using athena::testing::to_binary_capture;
using nlohmann::json;

namespace {

// Everything a Snapshot holds, numbers included (snapshot_text has the strings).
std::string full_dump(const Snapshot& s) {
  std::ostringstream o;
  o.precision(17);
  o << snapshot_text(s) << s.viewport.x << ',' << s.viewport.y << ',' << s.viewport.width << ',' << s.viewport.height
    << ' ' << s.has_unknown_frames << '\n';
  for (const ReadableNode& n : s.nodes)
    o << n.bbox.x << ',' << n.bbox.y << ',' << n.bbox.width << ',' << n.bbox.height << ' ' << n.z_index << n.visible
      << n.in_viewport << ' ' << static_cast<int>(n.region) << ' ' << n.overlay << ' ' << n.level << ' '
      << static_cast<int>(n.category) << ' ' << n.state.disabled << n.state.focused << n.state.required
      << n.state.invalid << n.state.selected << n.state.readonly << static_cast<int>(n.state.checked)
      << static_cast<int>(n.state.expanded) << static_cast<int>(n.state.pressed) << n.state.value_redacted << '\n';
  for (const Overlay& ov : s.overlays)
    o << ov.backend_node_id << ' ' << static_cast<int>(ov.type) << ' ' << ov.rule << ' ' << ov.confidence << ' '
      << ov.z_index << ' ' << ov.parent << '\n';
  return o.str();
}

json page() {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, body, "button"), "OK");
  return b.json();
}

Error binary_err(const std::string& json_text) {
  auto r = compile_capture(to_binary_capture(json_text));
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

TEST_CASE("every recorded capture compiles to the same Snapshot from either form", "[compiler][binary]") {
  std::size_t compared = 0;
  for (const corpus::Case& c : corpus::load_cases()) {
    for (const corpus::Step& s : c.steps) {
      INFO(c.name << "/" << s.name);
      const std::string bin = to_binary_capture(s.capture_json);
      auto from_json = compile_capture(s.capture_json);
      auto from_bin = compile_capture(bin);
      REQUIRE(from_json.ok());
      REQUIRE(from_bin.ok());
      CHECK(full_dump(from_bin.value()) == full_dump(from_json.value()));
      ++compared;
    }
  }
  CHECK(compared >= 40);
  const std::string rich = rich_capture();
  CHECK(full_dump(compile_ok(to_binary_capture(rich))) == full_dump(compile_ok(rich)));
}

TEST_CASE("a defect of the content gives the same error in both forms", "[compiler][binary][errors]") {
  auto same = [](const json& j) {
    const Error from_json = compile_err(j.dump());
    const Error from_bin = binary_err(j.dump());
    CHECK(from_bin.code == from_json.code);
    CHECK(from_bin.message == from_json.message);
  };
  json j = page();
  j["snapshot"]["documents"][0]["nodes"]["parentIndex"][1] = 2;
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["nodes"]["nodeType"][2] = 13;
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["nodes"]["nodeName"][1] = 999;
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["nodes"]["nodeName"][1] = -1;
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["nodes"]["attributes"][1] = json::array({0});
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["layout"]["nodeIndex"][0] = 4;
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["layout"]["styles"][0] =
      json::array({0, 0, 0, 0, 77});  // a string index past the table, in a style the compiler reads
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["nodes"]["contentDocumentIndex"] = {{"index", {1}}, {"value", {7}}};
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["nodes"]["isClickable"] = {{"index", {-1}}};
  same(j);
  j = page();
  j["snapshot"]["documents"][0]["frameId"] = 42;
  same(j);
  j = page();
  j["snapshot"]["documents"] = json::array();
  same(j);
  j = page();
  j["frameTree"]["frame"]["loaderId"] = "";
  same(j);
  j = page();
  j["frameTree"]["childFrames"] = {{{"frame", {{"id", "K"}, {"loaderId", "L"}}}},
                                   {{"frame", {{"id", ""}, {"loaderId", "L"}}}}};
  same(j);
  j = page();
  json kids = json::array();
  for (std::size_t i = 0; i < limits::kMaxFrames + 1; ++i)
    kids.push_back({{"frame", {{"id", "K" + std::to_string(i)}, {"loaderId", "L"}}}});
  j["frameTree"]["childFrames"] = kids;
  same(j);
}

TEST_CASE("the form's own defects name the byte and the field", "[compiler][binary][errors]") {
  const std::string good = to_binary_capture(page().dump());
  REQUIRE(compile_capture(good).ok());

  std::string s = good;
  s[4] = 2;  // version
  Error e = compile_capture(s).error();
  CHECK(e.message == "v: capture format version 2 is not supported (this core reads v1)");

  e = compile_capture(good.substr(0, good.size() - 4)).error();
  CHECK(e.code == ErrorCode::kMalformedCapture);
  CHECK(e.message == "capture (binary form): the header says " + std::to_string(good.size()) + " bytes but " +
                         std::to_string(good.size() - 4) + " arrived (truncated?); re-capture the page");

  // The header's size agrees, but a count runs past the end.
  s = good;
  const std::uint32_t huge = 0x7fffffff;
  const std::size_t styles_at = 12;  // after "ATHB", version, total
  std::memcpy(&s[styles_at], &huge, 4);
  e = compile_capture(s).error();
  CHECK(e.message.rfind("capture (binary form): truncated at byte ", 0) == 0);

  s = good + std::string(8, '\0');
  const auto total = static_cast<std::uint32_t>(s.size());
  std::memcpy(&s[8], &total, 4);
  CHECK(
      compile_capture(s).error().message ==
      "capture (binary form): 8 bytes left over after the capture (not this core's binary form?); re-capture the page");

  // Invalid UTF-8 in the string table (an overlong '/').
  json j = page();
  j["snapshot"]["strings"].push_back("zz");
  s = to_binary_capture(j.dump());
  const std::size_t zz = s.find(std::string("zz\0", 3));
  REQUIRE(zz != std::string::npos);
  s[zz] = static_cast<char>(0xC0);
  s[zz + 1] = static_cast<char>(0xAF);
  CHECK(compile_capture(s).error().message ==
        "capture (binary form): snapshot.strings is not valid UTF-8; re-capture the page");
}

TEST_CASE("every truncation and random corruption of a buffer is an error or a page, never a crash",
          "[compiler][binary][errors]") {
  const std::string good = to_binary_capture(rich_capture());
  REQUIRE(compile_capture(good).ok());
  for (std::size_t n = 0; n < good.size(); ++n) {
    std::string cut = good.substr(0, n);
    if (n >= 12) {  // also with a header that agrees with the cut size: the reader must still stop
      const auto sz = static_cast<std::uint32_t>(n);
      std::memcpy(&cut[8], &sz, 4);
    }
    auto r = compile_capture(cut);
    if (n >= 4) {
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().code == ErrorCode::kMalformedCapture);
    }
  }
  std::uint32_t seed = 99;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  int ok = 0, err = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string s = good;
    for (int m = 0; m < 1 + static_cast<int>(next() % 3); ++m) {
      const std::size_t at = 12 + next() % (s.size() - 12);  // keep the header: test what is behind it
      const std::uint32_t pick = next() % 4;
      s[at] = static_cast<char>(pick == 0 ? 0xff : pick == 1 ? 0x00 : pick == 2 ? 0x80 : next() & 0xff);
    }
    auto r = compile_capture(s);  // ok or an error, never UB (checked under ASan/UBSan)
    (r.ok() ? ok : err)++;
    if (!r.ok()) CHECK_FALSE(r.error().message.empty());
  }
  CHECK(ok > 0);
  CHECK(err > 0);
}

TEST_CASE("attribute offsets must climb within their column", "[compiler][binary][errors]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, body, "button", {{"id", "ok"}, {"title", "Confirm"}}), "OK");
  const std::string good = to_binary_capture(b.str());
  REQUIRE(compile_capture(good).ok());
  // The attribute offsets read [0, 0, 0, 4, 4, ...]: swap the climbing pair (0, 4) to (4, 0).
  int offsets_errors = 0;
  for (std::size_t at = 16; at + 8 <= good.size(); at += 4) {
    std::int32_t a, c;
    std::memcpy(&a, &good[at], 4);
    std::memcpy(&c, &good[at + 4], 4);
    if (a != 0 || c != 4) continue;
    std::string t = good;
    std::memcpy(&t[at], &c, 4);
    std::memcpy(&t[at + 4], &a, 4);
    auto bad = compile_capture(t);
    REQUIRE_FALSE(bad.ok());
    if (bad.error().message.find(".attributes offsets must climb from 0 to 4") != std::string::npos) ++offsets_errors;
  }
  CHECK(offsets_errors == 1);
}
