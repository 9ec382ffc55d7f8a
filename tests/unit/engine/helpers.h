// Synthetic pages for engine tests: a tiny builder over athena::Snapshot.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "athena/engine.h"

namespace athena::testing {

class PageBuilder {
 public:
  explicit PageBuilder(const std::string& main_loader = "L1", const std::string& main_id = "MAIN") {
    s_.url = "https://a.test/";
    s_.title = "A";
    s_.frames.push_back(FrameInfo{main_id, main_loader, "", s_.url, false});
  }
  PageBuilder& frame(const std::string& id, const std::string& loader, const std::string& parent = "") {
    s_.frames.push_back(
        FrameInfo{id, loader, parent.empty() ? s_.frames[0].frame_id : parent, "https://f.test/", false});
    return *this;
  }
  /// An element; frame "" = main frame. Its loader is its frame's.
  PageBuilder& el(std::int64_t id, const std::string& role, const std::string& name, Region region = Region::kMain,
                  const std::string& frame = "", int overlay = -1) {
    ReadableNode n;
    n.backend_node_id = id;
    n.frame_id = frame.empty() ? s_.frames[0].frame_id : frame;
    for (const FrameInfo& f : s_.frames)
      if (f.frame_id == n.frame_id) n.loader_id = f.loader_id;
    n.role = role;
    n.name = name;
    n.region = region;
    n.overlay = overlay;
    if (role == "link") n.href = "/" + name;
    s_.nodes.push_back(n);
    return *this;
  }
  /// n buttons "B0".."B{n-1}" with ids base..base+n-1.
  PageBuilder& many(int n, std::int64_t base = 1000, Region region = Region::kMain) {
    for (int i = 0; i < n; ++i) el(base + i, "button", "B" + std::to_string(i), region);
    return *this;
  }
  ReadableNode& last() { return s_.nodes.back(); }
  PageBuilder& overlay(std::int64_t id, OverlayType type = OverlayType::kModal, const std::string& name = "Dialog",
                       const std::string& frame = "") {
    Overlay o;
    o.backend_node_id = id;
    o.frame_id = frame.empty() ? s_.frames[0].frame_id : frame;
    for (const FrameInfo& f : s_.frames)
      if (f.frame_id == o.frame_id) o.loader_id = f.loader_id;
    o.type = type;
    o.rule = 1;
    o.confidence = 1;
    o.name = name;
    o.parent = static_cast<int>(s_.overlays.size()) - 1;
    s_.overlays.push_back(o);
    return *this;
  }
  Snapshot build() const {
    Snapshot s = s_;
    return s;
  }

 private:
  Snapshot s_;
};

/// All elements a FactPack lists (regions, added, modified "after").
inline std::vector<Element> listed(const FactPack& p) {
  std::vector<Element> out;
  for (const RegionBlock& b : p.regions) out.insert(out.end(), b.elements.begin(), b.elements.end());
  out.insert(out.end(), p.added.begin(), p.added.end());
  for (const Modified& m : p.modified) out.push_back(m.after);
  return out;
}

/// Ref of the element with this role and name in the pack ("" if none).
inline std::string ref_of(const FactPack& p, const std::string& role, const std::string& name) {
  for (const Element& e : listed(p))
    if (e.role == role && e.name == name) return e.ref;
  return "";
}

inline std::vector<std::string> invalidated_refs(const FactPack& p) {
  std::vector<std::string> out;
  for (const Invalidation& i : p.invalidated) out.push_back(i.ref);
  return out;
}

inline std::string nav_event(const std::string& frame, const std::string& loader, const std::string& parent = "") {
  return R"({"method":"Page.frameNavigated","params":{"frame":{"id":")" + frame + R"(","loaderId":")" + loader + "\"" +
         (parent.empty() ? std::string() : R"(,"parentId":")" + parent + "\"") + R"(,"url":"https://x.test/"}}})";
}
inline std::string detach_event(const std::string& frame) {
  return R"({"method":"Page.frameDetached","params":{"frameId":")" + frame + R"(","reason":"remove"}})";
}

/// An engine with one open page and helpers for the action flow.
struct Harness {
  Engine engine;
  PageKey key{0, 1};
  explicit Harness(Config config = {}) : engine(config) { engine.open_page(key); }
  FactPack snap(const Snapshot& s) {
    auto r = engine.snapshot_from(key, s);
    if (!r) throw std::runtime_error("snapshot: " + r.error().message);
    return *r;
  }
  PreCheck begin(const Snapshot& s, std::optional<std::uint64_t> v) {
    auto r = engine.begin_action_from(key, s, v);
    if (!r) throw std::runtime_error("begin_action: " + r.error().message);
    return *r;
  }
  FactPack finish(const Snapshot& s, bool force_full = false) {
    ActionInfo info;
    info.kind = "click";
    info.force_full = force_full;
    auto r = engine.finish_action_from(key, s, info);
    if (!r) throw std::runtime_error("finish_action: " + r.error().message);
    return *r;
  }
  /// begin (agent at version v) + finish with the post-action state.
  FactPack act(std::uint64_t v, const Snapshot& after, const Snapshot* before = nullptr) {
    begin(before ? *before : after, v);
    return finish(after);
  }
  Result<Target> resolve(const std::string& ref) const { return engine.resolve(key, ref); }
};

}  // namespace athena::testing
