// Frame tree of one page: loaderId per frame, fed by captures (the truth at capture time) and by
// CDP events (what happened since). docs/design.md, "Identity".
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "athena/error.h"
#include "athena/snapshot.h"

namespace athena::engine {

class FrameTracker {
 public:
  /// What became of a document (frame_id, loader_id).
  enum class Doc { kLive, kNavigated, kDetached, kUnknown };

  bool initialized() const { return initialized_; }

  /// Initializes from a capture's frame tree. Idempotent (a second call is a no-op); on failure
  /// nothing is kept, so the next capture retries (docs/design.md, "Identity").
  Status init(const std::vector<FrameInfo>& frames);

  /// One CDP event {"method","params"}: Page.frameNavigated / frameDetached / frameAttached,
  /// Target.detachedFromTarget. Other methods are ignored. Events the tree cannot place
  /// (unknown frame or parent) are kept as "needs a full snapshot", never guessed.
  Status on_event(std::string_view event_json);

  /// Error when the capture shows a document an event already retired: it predates the event.
  Status check_capture(const Snapshot& snapshot) const;

  /// Adopts the capture's frame tree (documents it replaced become retired).
  void sync(const Snapshot& snapshot);

  Doc doc(const std::string& frame_id, const std::string& loader_id) const;
  const std::string& main_frame_id() const { return main_frame_id_; }

  /// Per-page frame index of refs: 0 = main frame, then 1, 2, ... per frame_id, never reused.
  int frame_index(const std::string& frame_id);

  bool needs_full() const { return needs_full_; }
  void clear_needs_full() { needs_full_ = false; }

  std::size_t frame_count() const { return frames_.size(); }
  std::size_t retired_count() const { return retired_.size(); }

 private:
  struct Frame {
    std::string loader_id;
    std::string parent_id;
  };
  void retire(const std::string& frame_id, const std::string& loader_id, bool detached);
  void detach(const std::string& frame_id);
  /// The frame existed and is gone (detached or its parent's document replaced).
  bool gone(const std::string& frame_id) const;

  bool initialized_ = false;
  bool needs_full_ = false;
  std::string main_frame_id_;
  std::map<std::string, Frame> frames_;
  // Retired documents, bounded (limits::kMaxRetiredDocuments): value = detached?
  std::map<std::pair<std::string, std::string>, bool> retired_;
  std::deque<std::pair<std::string, std::string>> retired_order_;
  std::map<std::string, int> index_;
  int next_index_ = 1;
};

}  // namespace athena::engine
