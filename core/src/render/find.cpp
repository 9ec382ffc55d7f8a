// The agent text of a find answer: the element lines of FactPacks (plus ` frame=f2` for an element
// in an iframe, which no region line says here), and a last line that says how
// many matches remain and the exact call that lists them.
#include <string>

#include "athena/render.h"
#include "render/lines.h"

namespace athena {
namespace {

/// A query value as the agent would type it: a plain word bare, anything else quoted.
void hint_value(std::string& out, const char* key, const std::string& value) {
  if (value.empty()) return;
  bool plain = true;
  for (const char c : value)
    plain =
        plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
  out.push_back(' ');
  out += key;
  out.push_back('=');
  if (plain)
    out += value;
  else
    render::quoted(out, value);
}

}  // namespace

std::string render_find(const FindResult& r, const FindQuery& q) {
  std::string out = "<find v=\"" + std::to_string(r.version) + "\" total=\"" + std::to_string(r.total) + "\" shown=\"" +
                    std::to_string(r.elements.size()) + "\"";
  if (!r.next.empty()) out += " next=\"" + r.next + "\"";
  out += ">\n";
  // A found element in an iframe says which: the agent drops it when that frame navigates.
  for (const Element& e : r.elements) render::element_line(out, e, /*say_frame=*/true);
  if (r.remaining) {
    out += "... " + std::to_string(r.remaining) + " more: find";
    hint_value(out, "role", q.role);
    hint_value(out, "name", q.name);
    hint_value(out, "region", q.region);
    hint_value(out, "frame", q.frame);
    hint_value(out, "within", q.within);
    out += " after=" + r.next + "\n";
  }
  out += "</find>\n";
  return out;
}

}  // namespace athena
