#include "engine/version_manager.h"

#include <algorithm>

#include "athena/limits.h"

namespace athena::engine {

SnapshotVersionManager::SnapshotVersionManager(std::size_t history)
    : history_(std::clamp<std::size_t>(history, 1, limits::kMaxHistory)) {}

bool SnapshotVersionManager::peek(std::uint64_t view_hash) const {
  return entries_.empty() || entries_.back().hash != view_hash;
}

std::pair<const SnapshotVersionManager::Entry*, bool> SnapshotVersionManager::capture_if_changed(const View& view) {
  if (!peek(view.hash)) return {&entries_.back(), false};
  return {push(view.hash), true};
}


const SnapshotVersionManager::Entry* SnapshotVersionManager::push(std::uint64_t hash) {
  Entry e;
  e.version = ++last_;
  e.hash = hash;
  entries_.push_back(e);
  while (entries_.size() > history_ + 1) entries_.pop_front();
  return &entries_.back();
}

const SnapshotVersionManager::Entry* SnapshotVersionManager::get(std::uint64_t version) const {
  for (const Entry& e : entries_)
    if (e.version == version) return &e;
  return nullptr;
}

}  // namespace athena::engine
