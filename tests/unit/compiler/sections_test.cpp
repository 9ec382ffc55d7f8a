// Roles by context (HTML-AAM, as Chrome computes them) and the items that hold their controls: a
// <header>/<footer> inside sectioning content is its section's, an <aside> there a landmark only
// when named; an article's, a list item's and a row's lines sit under the item's first line, in a
// full snapshot and in a delta; mdBook's sidebar nests its sections under their chapters. (The
// landmark rule's own table of cases is landmark_rule_test.cpp.)
#include <optional>

#include "athena/engine.h"
#include "athena/render.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {

/// A feed as blogs write it: `posts` articles, each a heading with a link, a paragraph and a
/// <footer> holding its Like button and count; a page header and footer around it. The extra post
/// (`extra`) is built last, so every other node keeps its backend id.
CaptureBuilder feed(int posts, bool extra = false) {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, b.el(0, body, "header"), "a", {{"href", "/"}}), "Garden club");
  const int main = b.el(0, body, "main");
  const int list = b.el(0, main, "div", {{"role", "feed"}});
  auto post = [&](int n) {
    const int a = b.el(0, list, "article");
    b.text(0, b.el(0, b.el(0, a, "h2"), "a", {{"href", "#post-" + std::to_string(n)}}), "Post " + std::to_string(n));
    b.text(0, b.el(0, a, "p"), "Text of post " + std::to_string(n) + ".");
    const int f = b.el(0, a, "footer");
    b.text(0, b.el(0, f, "button", {{"aria-label", "Like post " + std::to_string(n)}}), "Like");
    b.text(0, b.el(0, f, "span"), std::to_string(n) + " likes");
  };
  for (int n = 1; n <= posts; ++n) post(n);
  b.text(0, b.el(0, b.el(0, body, "footer"), "a", {{"href", "/contact"}}), "Contact");
  if (extra) post(posts + 1);
  return b;
}

struct Flow {
  Engine engine;
  PageKey key{0, 1};
  Flow() { REQUIRE(engine.open_page(key)); }
  FactPack first(const std::string& capture) {
    auto p = engine.snapshot(key, capture);
    REQUIRE(p);
    return *p;
  }
  FactPack act(const std::string& before, const std::string& after) {
    REQUIRE(engine.begin_action(key, before, std::nullopt));
    auto p = engine.finish_action(key, after, ActionInfo{"click", {}, false});
    REQUIRE(p);
    return *p;
  }
};

}  // namespace

TEST_CASE("roles by context: a footer inside an article is the post's, its Like button under the post's title",
          "[compiler][regions][sections]") {
  const Snapshot s = compile_ok(feed(3));
  for (int n = 1; n <= 3; ++n) {
    INFO(n);
    const ReadableNode* like = by_name(s, "Like post " + std::to_string(n));
    REQUIRE(like);
    CHECK(like->region == Region::kMain);  // not the page's footer
    CHECK(like->heading == "Post " + std::to_string(n));
    CHECK(like->depth == 1);  // under the title, the article's first line
    CHECK(by_name(s, "Post " + std::to_string(n))->depth == 0);
    CHECK(by_name(s, std::to_string(n) + " likes")->depth == 1);
  }
  // The page's own header and footer are still its banner and contentinfo.
  CHECK(by_name(s, "Garden club")->region == Region::kHeader);
  CHECK(by_name(s, "Contact")->region == Region::kFooter);
}

TEST_CASE("roles by context: an added post's Like button is added under that post, not in a page footer",
          "[engine][sections]") {
  Flow f;
  const std::string before = feed(3).str(), after = feed(3, true).str();
  f.first(before);
  const FactPack d = f.act(before, after);
  REQUIRE(d.type == PackType::kDelta);
  const std::string t = render_text(d);
  INFO(t);
  // One block of additions in main, after the last post's count: the title, then its lines under it.
  CHECK(t.find("<added region=\"main\" after=\"") != std::string::npos);
  CHECK(t.find("region=\"footer\"") == std::string::npos);
  CHECK(t.find(" heading \"Post 4\" level=2\n e") != std::string::npos);
  CHECK(t.find("\n e") != std::string::npos);
  const std::size_t title = t.find("heading \"Post 4\""), like = t.find(" button \"Like post 4\"");
  REQUIRE(like != std::string::npos);
  CHECK(title < like);
  CHECK(t[t.rfind('\n', like) + 1] == ' ');  // indented: under the post's title
}

TEST_CASE(
    "roles by context: an aside inside sectioning content is a landmark only when named, and main does not scope it",
    "[compiler][regions][sections]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int section = b.el(0, body, "section");
  b.text(0, b.el(0, b.el(0, section, "aside"), "button"), "Unnamed in section");
  b.text(0, b.el(0, b.el(0, section, "aside", {{"aria-label", "Related"}}), "button"), "Named in section");
  const int article = b.el(0, body, "article");
  b.text(0, b.el(0, b.el(0, article, "aside", {{"title", "Notes"}}), "button"), "Titled in article");
  b.text(0, b.el(0, b.el(0, article, "header"), "button"), "Article header");
  b.text(0, b.el(0, b.el(0, b.el(0, body, "main"), "aside"), "button"), "In main");
  b.text(0, b.el(0, b.el(0, body, "aside"), "button"), "Top level");
  b.text(0, b.el(0, b.el(0, b.el(0, body, "div", {{"role", "region"}, {"aria-label", "Q"}}), "footer"), "button"),
         "Footer in role=region");
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Unnamed in section")->region == Region::kPage);
  CHECK(by_name(s, "Named in section")->region == Region::kAside);
  CHECK(by_name(s, "Named in section")->region_label == "Related");
  CHECK(by_name(s, "Titled in article")->region == Region::kAside);
  CHECK(by_name(s, "Article header")->region == Region::kPage);
  CHECK(by_name(s, "In main")->region == Region::kAside);
  CHECK(by_name(s, "Top level")->region == Region::kAside);
  // Chrome 156 does not scope a header or footer by role=region: it stays the page's contentinfo.
  CHECK(by_name(s, "Footer in role=region")->region == Region::kFooter);
}

TEST_CASE("outline: a list item's and a row's controls stay under the item's first line", "[compiler][sections]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int ul = b.el(0, body, "ul");
  for (const char* name : {"Alpha", "Beta"}) {
    const int li = b.el(0, ul, "li");
    b.text(0, b.el(0, li, "a", {{"href", std::string("/") + name}}), name);
    const int inner = b.el(0, li, "ul");
    b.text(0, b.el(0, b.el(0, inner, "li"), "button"), std::string("Edit ") + name);
  }
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Alpha")->depth == 0);
  CHECK(by_name(s, "Edit Alpha")->depth == 1);
  CHECK(by_name(s, "Beta")->depth == 0);
  CHECK(by_name(s, "Edit Beta")->depth == 1);
}

TEST_CASE("outline: mdBook's sidebar nests a chapter's sections, written in the next list item, under the chapter",
          "[compiler][sections]") {
  // <ol class="chapter"><li><a>1. Getting Started</a></li><li><ol class="section"><li><a>1.1.
  // Installation</a></li>…</ol></li><li><a>2. Guessing Game</a></li>…
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int nav = b.el(0, body, "nav", {{"aria-label", "Table of contents"}});
  const int ol = b.el(0, nav, "ol", {{"class", "chapter"}});
  auto chapter = [&](const std::string& name, std::vector<std::string> sections) {
    b.text(0, b.el(0, b.el(0, ol, "li", {{"class", "chapter-item expanded"}}), "a", {{"href", name + ".html"}}), name);
    if (sections.empty()) return;
    const int inner = b.el(0, b.el(0, ol, "li"), "ol", {{"class", "section"}});
    for (const std::string& s : sections)
      b.text(0, b.el(0, b.el(0, inner, "li", {{"class", "chapter-item expanded"}}), "a", {{"href", s + ".html"}}), s);
  };
  chapter("Introduction", {});
  chapter("Getting Started", {"Installation", "Hello, World!", "Hello, Cargo!"});
  chapter("Guessing Game", {});
  chapter("Error Handling", {"Unrecoverable Errors", "Recoverable Errors"});
  // A list item that holds nothing but a list, with no item before it, sits where its list does.
  const int lone = b.el(0, b.el(0, b.el(0, body, "ul"), "li"), "ul");
  b.text(0, b.el(0, b.el(0, lone, "li"), "a", {{"href", "/x"}}), "Lone");
  const Snapshot s = compile_ok(b);
  for (const char* top : {"Introduction", "Getting Started", "Guessing Game", "Error Handling", "Lone"}) {
    INFO(top);
    CHECK(by_name(s, top)->depth == 0);
  }
  for (const char* sec :
       {"Installation", "Hello, World!", "Hello, Cargo!", "Unrecoverable Errors", "Recoverable Errors"}) {
    INFO(sec);
    CHECK(by_name(s, sec)->depth == 1);
  }
}
