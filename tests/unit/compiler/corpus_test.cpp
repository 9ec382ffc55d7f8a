// Every recorded step of tests/cases compiles into a sane Snapshot, and each real library is
// understood: TodoMVC's new-todo field, Bootstrap's modal and dropdown, Shoelace's dialog
// through shadow DOM, out-of-process iframes with their own frame and loader.
#include "corpus.h"

#include <cmath>
#include <set>

#include "athena/limits.h"
#include "compiler/capture.h"
#include "compiler/dom_view.h"
#include "compiler/node_state.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {

bool contains(const std::string& s, const char* part) {
  return s.find(part) != std::string::npos;
}

const FrameInfo* frame_of(const Snapshot& s, const std::string& id) {
  for (const FrameInfo& f : s.frames)
    if (f.frame_id == id) return &f;
  return nullptr;
}

int modal_overlays(const Snapshot& s) {
  int n = 0;
  for (const Overlay& o : s.overlays) n += o.type == OverlayType::kModal || o.type == OverlayType::kDialog;
  return n;
}

}  // namespace

TEST_CASE("every recorded step compiles into a sane snapshot", "[compiler][corpus]") {
  const auto cases = corpus::load_cases();
  REQUIRE_FALSE(cases.empty());  // tests/cases is recorded by ./athena record
  for (const auto& c : cases) {
    for (const auto& st : c.steps) {
      INFO(c.name << "/" << st.name);
      auto r = compile_capture(st.capture_json);
      INFO((r.ok() ? std::string() : r.error().message));
      REQUIRE(r.ok());
      const Snapshot& s = r.value();
      CHECK_FALSE(s.url.empty());
      REQUIRE_FALSE(s.frames.empty());
      // Every node's frame is known, with that frame's loader; unknown frames are explained.
      for (const ReadableNode& n : s.nodes) {
        const FrameInfo* f = frame_of(s, n.frame_id);
        REQUIRE(f != nullptr);
        CHECK(n.loader_id == f->loader_id);
        CHECK(std::isfinite(n.bbox.x));
        CHECK(std::isfinite(n.bbox.y));
        CHECK(n.bbox.width >= 0);
        CHECK(n.bbox.height >= 0);
        CHECK(n.name.size() <= limits::kMaxTextChars);
        CHECK(n.overlay < static_cast<int>(s.overlays.size()));
      }
      if (s.has_unknown_frames) CHECK_FALSE(s.warnings.empty());
      for (std::size_t k = 0; k < s.overlays.size(); ++k) {
        CHECK(s.overlays[k].parent < static_cast<int>(s.overlays.size()));
        if (k) CHECK(s.overlays[k - 1].z_index <= s.overlays[k].z_index);
      }
      // Deterministic: the same capture gives the same snapshot.
      auto again = compile_capture(st.capture_json);
      REQUIRE(again.ok());
      CHECK(content_hash(again.value()) == content_hash(s));
    }
  }
}

TEST_CASE("TodoMVC: the New Todo textbox, and todos as they are added", "[compiler][corpus]") {
  int seen = 0;
  for (const auto& c : corpus::load_cases()) {
    if (!contains(c.name, "todo")) continue;
    for (const auto& st : c.steps) {
      INFO(c.name << "/" << st.name);
      const Snapshot s = compile_ok(st.capture_json);
      bool found = false;
      for (const ReadableNode& n : s.nodes)
        found = found || (n.role == "textbox" && (n.name == "New Todo" || n.name == "What needs to be done?"));
      CHECK(found);
      ++seen;
    }
  }
  if (!seen)
    FAIL(
        "no TodoMVC case recorded"
        ": the corpus in tests/cases is incomplete (./athena record)");
}

TEST_CASE("Bootstrap: modal overlay after opening, gone after closing: dropdown menu", "[compiler][corpus]") {
  int seen = 0;
  for (const auto& c : corpus::load_cases()) {
    if (!contains(c.name, "bootstrap")) continue;
    for (const auto& st : c.steps) {
      INFO(c.name << "/" << st.name);
      const Snapshot s = compile_ok(st.capture_json);
      if (contains(st.name, "open") && contains(st.name, "modal")) {
        ++seen;
        CHECK(modal_overlays(s) == 1);
        bool inside = false;
        for (const ReadableNode& n : s.nodes) inside = inside || (n.overlay >= 0 && n.role == "button");
        CHECK(inside);
      }
      if (contains(st.name, "close") && contains(st.name, "modal")) CHECK(modal_overlays(s) == 0);
      if (contains(st.name, "open") && contains(st.name, "dropdown")) {
        ++seen;
        bool dropdown = false;
        for (const Overlay& o : s.overlays) dropdown = dropdown || o.type == OverlayType::kDropdown;
        CHECK(dropdown);
      }
    }
  }
  if (!seen)
    FAIL(
        "no Bootstrap open-modal/open-dropdown step recorded"
        ": the corpus in tests/cases is incomplete (./athena record)");
}

TEST_CASE("Shoelace: the dialog is found through shadow DOM: menus open as dropdowns", "[compiler][corpus]") {
  int seen = 0;
  for (const auto& c : corpus::load_cases()) {
    if (!contains(c.name, "shoelace")) continue;
    for (const auto& st : c.steps) {
      INFO(c.name << "/" << st.name);
      const Snapshot s = compile_ok(st.capture_json);
      if (contains(st.name, "open") && contains(st.name, "dialog")) {
        ++seen;
        REQUIRE(modal_overlays(s) >= 1);
        CHECK(s.overlays.back().rule == 1);
        bool shadow = false;
        for (const ReadableNode& n : s.nodes)
          shadow = shadow || (n.overlay >= 0 && contains(n.shadow_path, "sl-dialog"));
        CHECK(shadow);
      }
      if (contains(st.name, "close") && contains(st.name, "dialog")) CHECK(modal_overlays(s) == 0);
      if (contains(st.name, "open") && (contains(st.name, "menu") || contains(st.name, "dropdown"))) {
        ++seen;
        bool menu = false;
        for (const ReadableNode& n : s.nodes) menu = menu || (n.overlay >= 0 && contains(n.role, "menuitem"));
        CHECK(menu);
      }
    }
  }
  if (!seen)
    FAIL(
        "no Shoelace open-dialog/open-menu step recorded"
        ": the corpus in tests/cases is incomplete (./athena record)");
}

TEST_CASE("iframes: same-origin and out-of-process nodes carry their own frame and loader", "[compiler][corpus]") {
  int seen = 0;
  for (const auto& c : corpus::load_cases()) {
    if (!contains(c.name, "frame")) continue;
    for (const auto& st : c.steps) {
      INFO(c.name << "/" << st.name);
      const Snapshot s = compile_ok(st.capture_json);
      std::set<std::string> frames_with_nodes;
      for (const ReadableNode& n : s.nodes) {
        frames_with_nodes.insert(n.frame_id);
        if (n.frame_id != s.frames[0].frame_id) {
          // Inside the page's viewport width (iframes sit inside the main document).
          CHECK(n.bbox.x >= 0);
          CHECK(n.bbox.x + n.bbox.width <= s.viewport.width + 1);
        }
      }
      CHECK(frames_with_nodes.size() >= 2);
      for (const FrameInfo& f : s.frames)
        if (f.out_of_process) {
          ++seen;
          CHECK(frames_with_nodes.count(f.frame_id));
          CHECK(f.loader_id != s.frames[0].loader_id);
        }
    }
  }
  if (!seen)
    FAIL(
        "no out-of-process iframe recorded"
        ": the corpus in tests/cases is incomplete (./athena record)");
}

TEST_CASE("no secret value of any recorded page reaches its snapshot", "[compiler][corpus][redaction]") {
  int secrets = 0;
  for (const auto& c : corpus::load_cases()) {
    for (const auto& st : c.steps) {
      INFO(c.name << "/" << st.name);
      // Find the secret fields' values in the raw capture with the compiler's own reader...
      auto j = compiler::parse_json(st.capture_json);
      REQUIRE(j.ok());
      auto raw = compiler::read_capture(j.value().root());
      REQUIRE(raw.ok());
      std::vector<std::string> values;
      {
        std::vector<std::string> warnings;
        const compiler::Dom dom(raw.value(), warnings);
        for (const int i : dom.order)
          if (compiler::is_secret_field(dom, i)) {
            const std::string v = compiler::unredacted_value(dom, i, "textbox");
            if (v.size() >= 3) values.push_back(v);
          }
      }
      // ...then grep the compiled snapshot for them.
      const std::string text = snapshot_text(compile_ok(st.capture_json));
      for (const std::string& v : values) {
        ++secrets;
        CHECK(text.find(v) == std::string::npos);
      }
    }
  }
  if (!secrets) FAIL("no filled password / cc-* / one-time-code field in the corpus: nothing checked the redaction");
}
