#include "engine/version_manager.h"

#include <algorithm>

#include "athena/limits.h"

namespace athena::engine {

SnapshotVersionManager::SnapshotVersionManager(std::size_t history)
    : history_(std::clamp<std::size_t>(history, 1, limits::kMaxHistory)) {}

bool SnapshotVersionManager::peek(std::uint64_t view_hash) const {
  return entries_.empty() || entries_.back().hash != view_hash;
}

std::pair<const SnapshotVersionManager::Entry*, bool> SnapshotVersionManager::capture_if_changed(View view) {
  if (!peek(view.hash)) return {&entries_.back(), false};
  return {push(std::move(view)), true};
}

const SnapshotVersionManager::Entry* SnapshotVersionManager::force_capture(View view) { return push(std::move(view)); }

const SnapshotVersionManager::Entry* SnapshotVersionManager::push(View view) {
  Entry e;
  e.version = ++last_;
  e.hash = view.hash;
  view.version = e.version;
  e.view = std::make_shared<const View>(std::move(view));
  entries_.push_back(std::move(e));
  while (entries_.size() > history_ + 1) entries_.pop_front();
  return &entries_.back();
}

const SnapshotVersionManager::Entry* SnapshotVersionManager::get(std::uint64_t version) const {
  for (const Entry& e : entries_)
    if (e.version == version) return &e;
  return nullptr;
}

}  // namespace athena::engine
