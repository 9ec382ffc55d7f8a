// The accessible name computation (accname 1.2 §4.3.2) and the role rules it leans on (HTML-AAM,
// ARIA 1.2 §9.3), one table per step, each case written from what the specification's text says
// (and, where Chrome departs from it, from what Chrome does: docs/design.md, "Accessible names").
// A case builds a small page, names one element of it, and states the one role and name it has.
#include <functional>
#include <string>
#include <vector>

#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {

struct Page {
  CaptureBuilder b;
  int body;
  Page() { body = b.el(0, 0, "body"); }
  int add(int parent, const std::string& tag, const Attrs& a = {}, const std::string& text = "") {
    const int e = b.el(0, parent, tag, a);
    if (!text.empty()) b.text(0, e, text);
    return e;
  }
  /// An inline element (the builder's elements are blocks unless styled otherwise).
  int span(int parent, const std::string& text, const Attrs& a = {}) {
    const int e = add(parent, "span", a, text);
    b.style(0, e, "display", "inline");
    return e;
  }
};

struct Case {
  const char* rule;                 // what the specification says, in a few words
  std::function<int(Page&)> build;  // builds the page, returns the element to name
  std::string role, name;
};

void run(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    Page p;
    const int target = c.build(p);
    const Snapshot s = compile_ok(p.b);
    INFO(c.rule);
    const ReadableNode* n = by_backend(s, p.b.backend(0, target));
    REQUIRE(n != nullptr);
    CHECK(n->role == c.role);
    CHECK(n->name == c.name);
  }
}

}  // namespace

TEST_CASE("accname step 2A: hidden content is left out unless referenced", "[compiler][accname]") {
  run({
      {"a hidden descendant is not part of the name from content",
       [](Page& p) {
         const int b = p.add(p.body, "button", {}, "Save ");
         // display:none: no box for it or its text, as DOMSnapshot reports it
         const int d = p.add(b, "span");
         p.b.no_box(0, d);
         p.b.no_box(0, p.b.text(0, d, "draft"));
         p.span(b, "now");
         return b;
       },
       "button", "Save now"},
      {"aria-hidden content is not part of the name from content",
       [](Page& p) {
         const int b = p.add(p.body, "button", {}, "Next ");
         p.span(b, "→", {{"aria-hidden", "true"}});
         return b;
       },
       "button", "Next"},
      {"visibility:hidden is inherited yet undone by a visible child, which counts",
       [](Page& p) {
         const int b = p.add(p.body, "button", {}, "Keep ");
         const int h = p.span(b, "");
         p.b.style(0, h, "visibility", "hidden");
         p.span(h, "visible child");
         return b;
       },
       "button", "Keep visible child"},
      {"a hidden element referenced by aria-labelledby is used, hidden descendants too",
       [](Page& p) {
         const int l = p.add(p.body, "div", {{"id", "l"}});
         p.b.no_box(0, l);
         p.b.no_box(0, p.b.text(0, l, "Hidden label"));
         return p.add(p.body, "button", {{"aria-labelledby", "l"}}, "content");
       },
       "button", "Hidden label"},
  });
}

TEST_CASE("accname step 2B: aria-labelledby", "[compiler][accname]") {
  run({
      {"references are joined by a space, in the order of the attribute",
       [](Page& p) {
         p.add(p.body, "span", {{"id", "a"}}, "first");
         p.add(p.body, "span", {{"id", "b"}}, "second");
         return p.add(p.body, "a", {{"href", "#"}, {"aria-labelledby", "b a"}}, "x");
       },
       "link", "second first"},
      {"a self-reference is the element's own text alternative from step 2C on: its aria-label",
       [](Page& p) {
         p.add(p.body, "span", {{"id", "f"}}, "report.pdf");
         return p.add(p.body, "button", {{"id", "d"}, {"aria-label", "Delete"}, {"aria-labelledby", "d f"}}, "X");
       },
       "button", "Delete report.pdf"},
      {"a referenced node's own aria-labelledby is not followed (no second traversal)",
       [](Page& p) {
         p.add(p.body, "span", {{"id", "n1"}, {"aria-labelledby", "n2"}}, "Outer");
         p.add(p.body, "span", {{"id", "n2"}}, "Inner");
         return p.add(p.body, "button", {{"aria-labelledby", "n1"}}, "x");
       },
       "button", "Outer"},
      {"a referenced node's aria-label is its text alternative",
       [](Page& p) {
         p.add(p.body, "span", {{"id", "r"}, {"aria-label", "Label of r"}}, "content of r");
         return p.add(p.body, "button", {{"aria-labelledby", "r"}}, "x");
       },
       "button", "Label of r"},
      {"references to nothing give no name: the next step (aria-label) names it",
       [](Page& p) {
         return p.add(p.body, "button", {{"aria-labelledby", "nosuch"}, {"aria-label", "Fallback"}}, "x");
       },
       "button", "Fallback"},
  });
}

TEST_CASE("accname step 2C: an embedded control gives its value inside another name", "[compiler][accname]") {
  run({
      {"a textbox in a label: its value",
       [](Page& p) {
         const int l = p.add(p.body, "label", {{"for", "c"}}, "Send ");
         p.b.style(0, l, "display", "inline");
         const int t = p.add(l, "input", {{"type", "text"}});
         p.b.rare_string(0, t, "inputValue", "5");
         p.b.style(0, t, "display", "inline-block");
         p.b.text(0, l, " reminders");
         return p.add(p.body, "input", {{"id", "c"}, {"type", "checkbox"}});
       },
       "checkbox", "Send 5 reminders"},
      {"a combobox (select) in a label: its selected option only, not the others",
       [](Page& p) {
         const int l = p.add(p.body, "label", {{"for", "c"}}, "Colour ");
         p.b.style(0, l, "display", "inline");
         const int s = p.add(l, "select");
         p.b.style(0, s, "display", "inline-block");
         p.add(s, "option", {}, "Red");
         const int blue = p.add(s, "option", {}, "Blue");
         p.b.flag(0, blue, "optionSelected");
         p.b.text(0, l, " theme");
         return p.add(p.body, "input", {{"id", "c"}, {"type", "checkbox"}});
       },
       "checkbox", "Colour Blue theme"},
      {"an ARIA spinbutton referenced by aria-labelledby: aria-valuetext, else aria-valuenow",
       [](Page& p) {
         p.add(p.body, "span",
               {{"id", "s"}, {"role", "spinbutton"}, {"aria-valuenow", "4"}, {"aria-valuetext", "four"}});
         return p.add(p.body, "button", {{"aria-labelledby", "s"}}, "x");
       },
       "button", "four"},
  });
}

TEST_CASE("accname step 2D: aria-label", "[compiler][accname]") {
  run({
      {"aria-label wins over content",
       [](Page& p) {
         return p.add(p.body, "button", {{"aria-label", "Close"}}, "×");
       },
       "button", "Close"},
      {"a blank aria-label is skipped",
       [](Page& p) {
         return p.add(p.body, "button", {{"aria-label", "  "}}, "Content");
       },
       "button", "Content"},
  });
}

TEST_CASE("accname step 2E: the host language label (HTML-AAM)", "[compiler][accname]") {
  run({
      {"input type=image: a <label> comes before alt",
       [](Page& p) {
         p.add(p.body, "label", {{"for", "i"}}, "Send form");
         return p.add(p.body, "input", {{"id", "i"}, {"type", "image"}, {"alt", "alt text"}});
       },
       "button", "Send form"},
      {"input type=image: alt",
       [](Page& p) {
         return p.add(p.body, "input", {{"type", "image"}, {"alt", "Continue"}});
       },
       "button", "Continue"},
      {"input type=image: title when there is no alt",
       [](Page& p) {
         return p.add(p.body, "input", {{"type", "image"}, {"title", "Upload it"}});
       },
       "button", "Upload it"},
      {"input type=image: \"Submit\" when nothing else names it",
       [](Page& p) {
         return p.add(p.body, "input", {{"type", "image"}});
       },
       "button", "Submit"},
      {"input type=submit without value: \"Submit\"",
       [](Page& p) {
         return p.add(p.body, "input", {{"type", "submit"}});
       },
       "button", "Submit"},
  });
}

TEST_CASE("accname step 2F: name from content", "[compiler][accname]") {
  run({
      {"inline boxes separated by a space keep it",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.span(b, "button");
         p.b.text(0, b, " ");
         p.span(b, "label");
         return b;
       },
       "button", "button label"},
      {"inline boxes with no space between join",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.span(b, "tight");
         p.span(b, "ly");
         return b;
       },
       "button", "tightly"},
      {"block boxes separate words (2F.iii)",
       [](Page& p) {
         const int a = p.add(p.body, "a", {{"href", "#"}});
         p.add(a, "div", {}, "Block");
         p.add(a, "div", {}, "link");
         return a;
       },
       "link", "Block link"},
      {"an image's alt is a word of its own",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         const int img = p.add(b, "img", {{"alt", "Icon"}});
         p.b.style(0, img, "display", "inline");
         p.b.text(0, b, "Text");
         return b;
       },
       "button", "Icon Text"},
      {"an <img alt=\"\"> is presentational: its title does not leak into the name",
       [](Page& p) {
         const int a = p.add(p.body, "a", {{"href", "#"}});
         const int img = p.add(a, "img", {{"alt", ""}, {"title", "Tooltip"}});
         p.b.style(0, img, "display", "inline");
         p.b.text(0, a, "Home");
         return a;
       },
       "link", "Home"},
  });
}

TEST_CASE("accname step 2I: the tooltip attribute", "[compiler][accname]") {
  run({
      {"title names a control nothing else names",
       [](Page& p) {
         return p.add(p.body, "button", {{"title", "Settings"}});
       },
       "button", "Settings"},
      {"an <img alt=\"\"> is presentational even with a title: a button holding only it is nameless",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.add(b, "img", {{"alt", ""}, {"title", "Decoration"}});
         return b;
       },
       "button", ""},
  });
}

TEST_CASE("ARIA 1.2 §9.3: presentational role conflict resolution", "[compiler][roles][accname]") {
  run({
      {"role=none on a focusable element is ignored",
       [](Page& p) {
         return p.add(p.body, "a", {{"href", "#"}, {"role", "none"}}, "Still a link");
       },
       "link", "Still a link"},
      {"role=none with a global ARIA property (aria-label) is ignored",
       [](Page& p) {
         return p.add(p.body, "h1", {{"role", "none"}, {"aria-label", "Heading kept"}}, "Heading");
       },
       "heading", "Heading kept"},
      {"role=presentation on a button is ignored (focusable)",
       [](Page& p) {
         return p.add(p.body, "button", {{"role", "presentation"}}, "Still a button");
       },
       "button", "Still a button"},
  });
}

TEST_CASE("HTML-AAM input roles and nameless widgets as Chrome maps them", "[compiler][roles][accname]") {
  run({
      {"input type=month: Chrome's DateTime",
       [](Page& p) {
         return p.add(p.body, "input", {{"type", "month"}, {"aria-label", "Month"}});
       },
       "DateTime", "Month"},
      {"input type=week: Chrome's DateTime",
       [](Page& p) {
         return p.add(p.body, "input", {{"type", "week"}, {"aria-label", "Week"}});
       },
       "DateTime", "Week"},
      {"input type=date: Chrome's Date",
       [](Page& p) {
         return p.add(p.body, "input", {{"type", "date"}, {"aria-label", "Day"}});
       },
       "Date", "Day"},
      {"an element with a widget role and no name, no box, is still that widget",
       [](Page& p) {
         return p.b.el(0, p.body, "div", {{"role", "button"}, {"aria-pressed", "true"}}, {0, 0, 1280, 0});
       },
       "button", ""},
  });
}

TEST_CASE("accname step 2F.ii: CSS generated content, its alternative text and counters", "[compiler][accname]") {
  run({
      {"::before and ::after text is part of a name from content",
       [](Page& p) {
         const int a = p.add(p.body, "a", {{"href", "#"}});
         p.b.pseudo(0, a, "before", "\"→ \"", {"→ "});
         p.b.text(0, a, "Docs");
         p.b.pseudo(0, a, "after", "\" (opens in a new tab)\"", {" (opens in a new tab)"});
         return a;
       },
       "link", "→ Docs (opens in a new tab)"},
      {"CSS alternative text replaces the generated text (content: \"★\" / \"Favourite\")",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.b.pseudo(0, b, "before", "\"★\" / \"Favourite\"", {"★"});
         return b;
       },
       "button", "Favourite"},
      {"Chrome sets the alternative text apart from the element's own text as a word",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.b.pseudo(0, b, "before", "\"★\" / \"Favourite\"", {"★"});
         p.b.text(0, b, "Pin");
         return b;
       },
       "button", "Favourite Pin"},
      {"an empty alternative text hides the generated text from the name",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.b.pseudo(0, b, "before", "\"✕\" / \"\"", {"✕"});
         p.b.text(0, b, "Close");
         return b;
       },
       "button", "Close"},
      {"the alternative text may read an attribute of its element (attr())",
       [](Page& p) {
         const int b = p.add(p.body, "button", {{"data-tip", "Help"}});
         p.b.pseudo(0, b, "before", "\"?\" / attr(data-tip)", {"?"});
         return b;
       },
       "button", "Help"},
      {"escapes in the computed value are read (\\2605 is ★, \\\" a quote)",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.b.pseudo(0, b, "before", "\"x\" / \"Say \\\"hi\\\" \\2605 \"", {"x"});
         return b;
       },
       "button", "Say \"hi\" ★"},
      {"Chrome leaves a counter's value out: \"Step \" counter(step) \": \" names \"Step : \"",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.b.pseudo(0, b, "before", "\"Step \" counter(step) \": \"", {"Step ", "2", ": "});
         p.b.text(0, b, "Payment");
         return b;
       },
       "button", "Step : Payment"},
      {"counters() too, and an item without text keeps the count",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.b.pseudo(0, b, "before", "url(\"dot.png\") counters(item, \".\") \" \"", {"", "1.2", " "});
         p.b.text(0, b, "Intro");
         return b;
       },
       "button", "Intro"},
      {"a capture without the content style names from the generated text as it is",
       [](Page& p) {
         const int b = p.add(p.body, "button");
         p.b.pseudo(0, b, "before", "", {"Step ", "1", ": "});
         p.b.text(0, b, "Account");
         return b;
       },
       "button", "Step 1: Account"},
  });
}

TEST_CASE("accname step 2F with aria-owns: owned elements are the owner's children", "[compiler][accname]") {
  run({
      {"an owned element's text is part of its owner's name from content, after its own children",
       [](Page& p) {
         const int b = p.add(p.body, "div", {{"role", "button"}, {"tabindex", "0"}, {"aria-owns", "unit"}}, "Size");
         p.add(p.body, "span", {{"id", "unit"}}, "in cm");
         return b;
       },
       "button", "Size in cm"},
      {"an owned inline element is still a word of its own (Chrome: \"Size in cm\", not \"Sizein cm\")",
       [](Page& p) {
         const int b = p.add(p.body, "div", {{"role", "button"}, {"tabindex", "0"}, {"aria-owns", "u"}}, "Size");
         const int para = p.add(p.body, "p");
         p.span(para, "in cm", {{"id", "u"}});
         return b;
       },
       "button", "Size in cm"},
      {"an owned element leaves its DOM parent's name",
       [](Page& p) {
         const int a = p.add(p.body, "a", {{"href", "#"}}, "Read");
         p.add(a, "span", {{"id", "moved"}}, "elsewhere");
         p.add(p.body, "div", {{"aria-owns", "moved"}});
         return a;
       },
       "link", "Read"},
      {"the first owner in document order wins",
       [](Page& p) {
         p.add(p.body, "div", {{"aria-owns", "x"}});
         const int b = p.add(p.body, "div", {{"role", "button"}, {"tabindex", "0"}, {"aria-owns", "x"}}, "Second");
         p.add(p.body, "span", {{"id", "x"}}, "owned");
         return b;
       },
       "button", "Second"},
      {"an element cannot own its ancestor",
       [](Page& p) {
         const int outer = p.add(p.body, "div", {{"role", "button"}, {"tabindex", "0"}, {"id", "outer"}}, "Outer");
         p.add(outer, "span", {{"aria-owns", "outer"}}, "inner");
         return outer;
       },
       "button", "Outer inner"},
  });
}
