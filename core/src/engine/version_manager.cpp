#include "engine/version_manager.h"

namespace athena::engine {

bool SnapshotVersionManager::peek(std::uint64_t view_hash) const {
  return current_.version == 0 || current_.hash != view_hash;
}

std::pair<const SnapshotVersionManager::Entry*, bool> SnapshotVersionManager::capture_if_changed(const View& view) {
  if (!peek(view.hash)) return {&current_, false};
  current_.version += 1;
  current_.hash = view.hash;
  return {&current_, true};
}

}  // namespace athena::engine
