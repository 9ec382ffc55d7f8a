// A closed <details> shows its first <summary> and nothing else, even when the capture still has
// boxes for its content: Chrome keeps them after a script closes a <details> that was open (the
// "collapse all" step of tests/cases-unseen/rustdoc-cell), and leaves that content out of its
// accessibility tree.
#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {
// <details [open]><summary>Methods</summary><a>Examples</a><summary>Second summary</summary>
//   <details open><summary>Nested</summary><button>Copy</button></details></details>, every node boxed.
std::string page(bool open) {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  Attrs attrs;
  if (open) attrs.push_back({"open", ""});
  const int det = b.el(0, body, "details", attrs, {0, 0, 600, 200});
  b.text(0, b.el(0, det, "summary", {}, {0, 0, 600, 20}), "Methods");
  b.text(0, b.el(0, det, "a", {{"href", "#examples"}}, {0, 20, 80, 20}), "Examples");
  b.text(0, b.el(0, det, "summary", {}, {0, 40, 600, 20}), "Second summary");
  const int inner = b.el(0, det, "details", {{"open", ""}}, {0, 60, 600, 60});
  b.text(0, b.el(0, inner, "summary", {}, {0, 60, 600, 20}), "Nested");
  b.text(0, b.el(0, inner, "button", {}, {0, 80, 80, 20}), "Copy");
  return b.str();
}
}  // namespace

TEST_CASE("a closed details shows only its first summary, even when its content kept its boxes",
          "[compiler][visibility]") {
  const Snapshot closed = compile_ok(page(false));
  REQUIRE(by_name(closed, "Methods") != nullptr);
  CHECK(by_name(closed, "Methods")->role == "button");
  CHECK(by_name(closed, "Methods")->state.expanded == Tri::kFalse);
  CHECK(by_name(closed, "Examples") == nullptr);
  CHECK(by_name(closed, "Second summary") == nullptr);  // only the first <summary> is the summary
  CHECK(by_name(closed, "Nested") == nullptr);          // an open <details> inside a closed one
  CHECK(by_name(closed, "Copy") == nullptr);

  const Snapshot open = compile_ok(page(true));
  CHECK(by_name(open, "Methods")->state.expanded == Tri::kTrue);
  REQUIRE(by_name(open, "Examples") != nullptr);
  CHECK(by_name(open, "Examples")->role == "link");
  CHECK(by_name(open, "Nested") != nullptr);
  CHECK(by_name(open, "Copy") != nullptr);
}
