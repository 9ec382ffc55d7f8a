#include "engine/frame_tracker.h"

#include <nlohmann/json.hpp>

#include "athena/limits.h"

namespace athena::engine {

Status FrameTracker::init(const std::vector<FrameInfo>& frames) {
  if (initialized_) return Ok{};
  if (frames.empty() || !frames[0].parent_id.empty() || frames[0].frame_id.empty())
    return make_error(ErrorCode::kMalformedCapture,
                      "capture has no main frame in its frame tree; capture the page again");
  std::map<std::string, Frame> tree;
  for (const FrameInfo& f : frames) {
    if (f.frame_id.empty() || !tree.emplace(f.frame_id, Frame{f.loader_id, f.parent_id}).second)
      return make_error(ErrorCode::kMalformedCapture, "capture frame tree lists frame '" + f.frame_id +
                                                          "' twice or without an id; capture the page again");
  }
  for (const FrameInfo& f : frames) {
    if (!f.parent_id.empty() && !tree.count(f.parent_id))
      return make_error(ErrorCode::kMalformedCapture,
                        "frame '" + f.frame_id + "' has unknown parent '" + f.parent_id + "'; capture the page again");
  }
  frames_ = std::move(tree);
  main_frame_id_ = frames[0].frame_id;
  index_[main_frame_id_] = 0;
  initialized_ = true;
  return Ok{};
}

void FrameTracker::retire(const std::string& frame_id, const std::string& loader_id, bool detached) {
  if (loader_id.empty()) return;
  auto key = std::make_pair(frame_id, loader_id);
  auto [it, inserted] = retired_.emplace(key, detached);
  if (!inserted) {
    it->second = it->second || detached;
    return;
  }
  retired_order_.push_back(std::move(key));
  while (retired_order_.size() > limits::kMaxRetiredDocuments) {
    retired_.erase(retired_order_.front());
    retired_order_.pop_front();
  }
}

void FrameTracker::detach(const std::string& frame_id) {
  auto it = frames_.find(frame_id);
  if (it == frames_.end()) return;
  retire(frame_id, it->second.loader_id, true);
  frames_.erase(it);
  index_.erase(frame_id);
  // Children go with their parent.
  std::vector<std::string> children;
  for (const auto& [id, f] : frames_)
    if (f.parent_id == frame_id) children.push_back(id);
  for (const std::string& c : children) detach(c);
}

Status FrameTracker::on_event(std::string_view event_json) {
  if (event_json.size() > limits::kMaxInputBytes)
    return make_error(ErrorCode::kInputTooLarge, "event JSON is over the input limit; drop it");
  nlohmann::json ev = nlohmann::json::parse(event_json, nullptr, false);
  if (ev.is_discarded() || !ev.is_object())
    return make_error(ErrorCode::kMalformedEvent,
                      "event is not a JSON object {\"method\",\"params\"}; send CDP events as received");
  auto m = ev.find("method");
  if (m == ev.end() || !m->is_string())
    return make_error(ErrorCode::kMalformedEvent, "event has no string \"method\"; send CDP events as received");
  const std::string method = m->get<std::string>();
  const nlohmann::json empty = nlohmann::json::object();
  auto p = ev.find("params");
  const nlohmann::json& params = (p != ev.end() && p->is_object()) ? *p : empty;
  auto str = [](const nlohmann::json& o, const char* k) -> std::string {
    auto it = o.find(k);
    return (it != o.end() && it->is_string()) ? it->get<std::string>() : std::string();
  };
  auto bad = [&](const std::string& what) {
    return make_error(ErrorCode::kMalformedEvent, method + " " + what + "; send CDP events as received");
  };

  if (method == "Page.frameNavigated") {
    auto f = params.find("frame");
    if (f == params.end() || !f->is_object()) return bad("has no params.frame");
    const std::string id = str(*f, "id"), loader = str(*f, "loaderId"), parent = str(*f, "parentId");
    if (id.empty() || loader.empty()) return bad("has no frame id or loaderId");
    if (!initialized_) return Ok{};  // the first capture's frame tree is the truth
    if (retired_.count({id, loader})) {
      needs_full_ = true;  // a document we already saw replaced comes back: events out of order
      return Ok{};
    }
    auto it = frames_.find(id);
    if (it != frames_.end()) {
      if (it->second.loader_id != loader) retire(id, it->second.loader_id, false);
      it->second.loader_id = loader;
      return Ok{};
    }
    if (parent.empty()) {
      // A different main frame than the one we know: another document tree entirely.
      for (auto& [fid, fr] : frames_) retire(fid, fr.loader_id, true);
      frames_.clear();
      index_.clear();
      main_frame_id_ = id;
      index_[id] = 0;
      frames_[id] = Frame{loader, ""};
      needs_full_ = true;
      return Ok{};
    }
    if (!frames_.count(parent)) {
      // Late news about a subtree a capture already showed gone is harmless; anything else is a
      // frame we cannot place.
      if (!gone(parent)) needs_full_ = true;
      return Ok{};
    }
    frames_[id] = Frame{loader, parent};
    return Ok{};
  }
  if (method == "Page.frameAttached") {
    const std::string id = str(params, "frameId"), parent = str(params, "parentFrameId");
    if (id.empty()) return bad("has no frameId");
    if (!initialized_) return Ok{};
    if (!frames_.count(parent)) {
      if (!gone(parent)) needs_full_ = true;
      return Ok{};
    }
    frames_.emplace(id, Frame{"", parent});
    return Ok{};
  }
  if (method == "Page.frameDetached" || method == "Target.detachedFromTarget") {
    const std::string id = method == "Page.frameDetached" ? str(params, "frameId") : str(params, "targetId");
    if (id.empty()) {
      if (method == "Page.frameDetached") return bad("has no frameId");
      return Ok{};
    }
    if (!initialized_) return Ok{};
    // Chrome sends frameDetached{reason:"swap"} when an iframe moves to another process: the
    // document lives on in the OOPIF session, so only a real removal retires it.
    if (str(params, "reason") == "swap") return Ok{};
    if (!frames_.count(id)) {
      if (method == "Page.frameDetached" && !gone(id)) needs_full_ = true;  // late detach of a known-gone frame: fine
      return Ok{};
    }
    if (id == main_frame_id_) {
      needs_full_ = true;
      return Ok{};
    }
    detach(id);
    return Ok{};
  }
  return Ok{};
}

bool FrameTracker::gone(const std::string& frame_id) const {
  auto it = retired_.lower_bound({frame_id, std::string()});
  return it != retired_.end() && it->first.first == frame_id && !frames_.count(frame_id);
}

Status FrameTracker::check_capture(const Snapshot& snapshot) const {
  for (const FrameInfo& f : snapshot.frames) {
    auto it = retired_.find({f.frame_id, f.loader_id});
    if (it != retired_.end())
      return make_error(ErrorCode::kWrongCallOrder,
                        "capture shows frame '" + f.frame_id + "' with document '" + f.loader_id + "', which a " +
                            (it->second ? "Page.frameDetached" : "Page.frameNavigated") +
                            " event already replaced: the capture is older than the events; capture the page again");
  }
  return Ok{};
}

void FrameTracker::sync(const Snapshot& snapshot) {
  std::map<std::string, Frame> next;
  for (const FrameInfo& f : snapshot.frames) next[f.frame_id] = Frame{f.loader_id, f.parent_id};
  for (const auto& [id, fr] : frames_) {
    auto it = next.find(id);
    if (it == next.end())
      retire(id, fr.loader_id, true);
    else if (it->second.loader_id != fr.loader_id)
      retire(id, fr.loader_id, false);
  }
  const std::string main = snapshot.frames.empty() ? std::string() : snapshot.frames[0].frame_id;
  if (main != main_frame_id_) {
    index_.erase(main_frame_id_);
    main_frame_id_ = main;
  }
  index_[main_frame_id_] = 0;
  for (auto it = index_.begin(); it != index_.end();) {
    if (!next.count(it->first))
      it = index_.erase(it);
    else
      ++it;
  }
  frames_ = std::move(next);
}

FrameTracker::Doc FrameTracker::doc(const std::string& frame_id, const std::string& loader_id) const {
  auto it = frames_.find(frame_id);
  if (it != frames_.end() && it->second.loader_id == loader_id) return Doc::kLive;
  auto r = retired_.find({frame_id, loader_id});
  if (r != retired_.end()) return r->second ? Doc::kDetached : Doc::kNavigated;
  if (it != frames_.end()) return Doc::kNavigated;
  return Doc::kUnknown;
}

int FrameTracker::frame_index(const std::string& frame_id) {
  if (frame_id == main_frame_id_) return 0;
  auto [it, inserted] = index_.emplace(frame_id, next_index_);
  if (inserted) ++next_index_;
  return it->second;
}

}  // namespace athena::engine
