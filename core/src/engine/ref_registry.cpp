#include "engine/ref_registry.h"

#include "athena/limits.h"

namespace athena::engine {

RefId RefRegistry::issue(const Binding& binding) {
  const RefId id = (*next_)++;
  if (!lo_) lo_ = id;
  hi_ = id;
  RefRecord& r = records_[id];
  r.binding = binding;
  r.live = true;
  return id;
}

const RefRecord* RefRegistry::find(RefId ref) const {
  auto it = records_.find(ref);
  return it == records_.end() ? nullptr : &it->second;
}

void RefRegistry::rebind(RefId ref, const Binding& binding) {
  auto it = records_.find(ref);
  if (it == records_.end()) return;
  if (!it->second.live) --dead_;
  it->second.binding = binding;
  it->second.live = true;
  it->second.cause.clear();
  it->second.dead_in = 0;
}

void RefRegistry::kill(RefId ref, const std::string& cause) {
  auto it = records_.find(ref);
  if (it == records_.end() || !it->second.live) return;
  if (!it->second.shown) {
    records_.erase(it);
    return;
  }
  it->second.live = false;
  it->second.cause = cause;
  it->second.dead_in = 0;
  it->second.seq = ++seq_;
  ++dead_;
  tomb_order_.emplace_back(ref, seq_);
  unstamped_.push_back(ref);
}

void RefRegistry::stamp(std::uint64_t version) {
  for (RefId ref : unstamped_) {
    auto it = records_.find(ref);
    if (it != records_.end() && !it->second.live && it->second.dead_in == 0) it->second.dead_in = version;
  }
  unstamped_.clear();
  // Bounded only now: until the pack is made, a ref killed by this capture may be revived by
  // region dedup (a navigation to a page with the same nav keeps the agent's nav refs).
  trim();
}

void RefRegistry::show(RefId ref, std::uint64_t ident, const std::string& role, const std::string& name) {
  auto it = records_.find(ref);
  if (it == records_.end()) return;
  if (it->second.shown && it->second.shown_ident == ident) return;  // already known as this
  it->second.shown = true;
  it->second.shown_ident = ident;
  it->second.shown_role = role;
  it->second.shown_name = name;
}

std::unordered_map<std::uint64_t, RefId> RefRegistry::recall_index(const std::string& frame_id,
                                                                   const std::string& loader_id) const {
  // ident -> the one ref; 0 when several removed refs were shown as it (the "Delete" of each row
  // of a list): which one a new node is would be a guess, so none is recalled.
  std::unordered_map<std::uint64_t, RefId> out;
  for (const auto& [ref, r] : records_) {
    if (r.live || !r.shown || r.cause != "removed") continue;
    if (r.binding.frame_id != frame_id || r.binding.loader_id != loader_id) continue;
    auto [it, fresh] = out.emplace(r.shown_ident, ref);
    if (!fresh) it->second = 0;
  }
  return out;
}

void RefRegistry::drop_unshown(RefId ref) {
  auto it = records_.find(ref);
  if (it != records_.end() && !it->second.shown && it->second.live) records_.erase(it);
}

void RefRegistry::trim() {
  // Oldest tombstones go first; entries revived (or re-killed later) since are skipped by seq.
  const auto drop_oldest = [this] {
    auto [ref, seq] = tomb_order_.front();
    tomb_order_.pop_front();
    auto it = records_.find(ref);
    if (it != records_.end() && !it->second.live && it->second.seq == seq) {
      records_.erase(it);
      --dead_;
    }
  };
  while (dead_ > limits::kMaxRemovedTombstones && !tomb_order_.empty()) drop_oldest();
  // Stale queue entries (revived refs) must not grow the queue without bound.
  while (tomb_order_.size() > 2 * limits::kMaxRemovedTombstones + 16) drop_oldest();
}

}  // namespace athena::engine
