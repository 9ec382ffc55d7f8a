#include "engine/find_query.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "render/lines.h"
#include "words.h"

namespace athena::engine {
namespace {

// A listing in an error message stays short: the agent needs examples, not the whole page.
constexpr std::size_t kMaxListed = 30;

/// Whether frame `index` is in the query's frame or run of frames.
bool frame_in(int index, const std::pair<long, long>& span) {
  return index >= span.first && index <= span.second;
}

/// "a, b, c" of the distinct words in first-appearance order, cut at kMaxListed.
std::string listing(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size() && i < kMaxListed; ++i) out += (i ? ", " : "") + words[i];
  if (words.size() > kMaxListed) out += ", …";
  return out;
}

void add_unique(std::vector<std::string>& words, std::string w) {
  if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(std::move(w));
}

/// `nav "Main"` or `main`: how a region is named to the agent (label quoted as FactPacks do).
std::string region_word(const Element& e) {
  std::string w = region_name(e.region);
  if (!e.region_label.empty()) {
    w.push_back(' ');
    render::quoted(w, e.region_label);
  }
  return w;
}

/// The query's role, region and frame each exist somewhere on the page; else the Error to return.
Result<Ok> check_query(const View& view, const FindQuery& q) {
  bool role_seen = q.role.empty(), region_seen = q.region.empty(), frame_seen = q.frame.empty();
  const std::pair<long, long> span = frame_span(q.frame);
  std::vector<std::string> roles, regions, frames;
  for (const ViewEntry& e : view.entries) {
    role_seen = role_seen || e.element.role == q.role;
    region_seen = region_seen || region_matches(e.element, q.region);
    frame_seen = frame_seen || frame_in(e.frame_index, span);
    add_unique(roles, e.element.role);
    add_unique(regions, region_word(e.element));
    add_unique(frames, frame_word(e.frame_index));
  }
  if (!region_seen)
    return make_error(ErrorCode::kNoSuchRegion,
                      "find: this page has no region \"" + q.region + "\"; regions: " + listing(regions));
  if (!role_seen)
    return make_error(ErrorCode::kInvalidArgument,
                      "find: this page has no role \"" + q.role + "\"; roles: " + listing(roles));
  if (!frame_seen)
    return make_error(ErrorCode::kInvalidArgument,
                      "find: this page has no frame \"" + q.frame + "\"; frames: " + listing(frames));
  return Ok{};
}

/// `s` as find's name matches it: ASCII letters in lower case and no whitespace. Pages break
/// long names where they like (rustdoc's `std::<wbr>vec::<wbr>Vec` is named "std:: vec:: Vec",
/// as Chrome reads it), and an agent searches "Vec::push" as it would write it.
std::string name_key(std::string_view s) {
  std::string out = render::ascii_lower(s);
  out.erase(std::remove_if(out.begin(), out.end(), [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }),
            out.end());
  return out;
}

}  // namespace

bool region_matches(const Element& e, std::string_view region) {
  const std::string want = render::ascii_lower(region);
  return want == region_name(e.region) || (!e.region_label.empty() && want == render::ascii_lower(e.region_label));
}

Result<FindResult> find_in_view(const View& view, const FindQuery& q) {
  if (q.limit < 1 || q.limit > limits::kMaxFindLimit)
    return make_error(
        ErrorCode::kInvalidArgument,
        "find: limit must be from 1 to " + std::to_string(limits::kMaxFindLimit) + ", got " + std::to_string(q.limit));
  const std::string name = name_key(q.name);
  const std::pair<long, long> span = frame_span(q.frame);
  auto checked = check_query(view, q);
  if (!checked) return checked.error();
  std::size_t start = 0;
  if (!q.after.empty()) {
    auto it = std::find_if(view.entries.begin(), view.entries.end(),
                           [&](const ViewEntry& e) { return e.element.ref == q.after; });
    if (it == view.entries.end())
      return make_error(ErrorCode::kInvalidArgument, "find: after=\"" + q.after +
                                                         "\" is not a ref of this page's latest FactPack; "
                                                         "use a ref from it, or the next of the previous find");
    start = static_cast<std::size_t>(it - view.entries.begin()) + 1;
  }
  // within=REF: the lines that follow REF one level or more below it, in its frame, region and
  // context, up to the first that is not (a collapsed group, listed whole and paged like any other).
  std::size_t lo = 0, hi = view.entries.size();
  if (!q.within.empty()) {
    auto it = std::find_if(view.entries.begin(), view.entries.end(),
                           [&](const ViewEntry& e) { return e.element.ref == q.within; });
    if (it == view.entries.end())
      return make_error(ErrorCode::kInvalidArgument, "find: within=\"" + q.within +
                                                         "\" is not a ref of this page's latest FactPack; "
                                                         "use the ref of a line that ends with \"(N more …)\"");
    const ViewEntry& top = *it;
    lo = static_cast<std::size_t>(it - view.entries.begin()) + 1;
    hi = lo;
    while (hi < view.entries.size()) {
      const ViewEntry& e = view.entries[hi];
      if (e.element.depth <= top.element.depth || e.frame_index != top.frame_index ||
          e.element.region != top.element.region || e.element.region_label != top.element.region_label ||
          e.element.overlay != top.element.overlay)
        break;
      ++hi;
    }
  }
  FindResult r;
  r.version = view.version;
  // The lines of one page stay within the token budget (the answer's head and its "... N more"
  // line are small and bounded): a page that would pass it ends early, and `next` goes on from there.
  const std::size_t max_bytes = q.token_budget * limits::kBytesPerToken;
  std::size_t bytes = 0;
  bool full = false;
  std::string line;
  for (std::size_t i = lo; i < hi; ++i) {
    const ViewEntry& e = view.entries[i];
    if (!q.role.empty() && e.element.role != q.role) continue;
    if (!q.region.empty() && !region_matches(e.element, q.region)) continue;
    if (!q.frame.empty() && !frame_in(e.frame_index, span)) continue;
    if (!name.empty() && name_key(e.element.name).find(name) == std::string::npos) continue;
    ++r.total;
    if (i < start) continue;
    if (!full && r.elements.size() < q.limit) {
      line.clear();
      render::element_line(line, e.element);
      if (r.elements.empty() || bytes + line.size() <= max_bytes) {
        bytes += line.size();
        r.elements.push_back(e.element);
        continue;
      }
      full = true;
    }
    ++r.remaining;
  }
  if (r.remaining) r.next = r.elements.back().ref;
  return r;
}

}  // namespace athena::engine
