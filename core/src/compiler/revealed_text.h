// Text blocks: the paragraphs, list items, captions, titles and table rows an agent reads.
// Agents act on controls but decide on text ("This will delete 12 files", a parameter's
// description, the top row of a sorted grid); these rules say which text becomes a
// Category::kText element and what its words are.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/dom_view.h"
#include "compiler/visibility.h"

namespace athena::compiler {

/// tabpanel, dialog, alertdialog: containers whose text is revealed with them. A focusable one
/// (a tab panel with tabindex=0) is still a container, not a control hiding its text.
bool is_container_role(std::string_view role);

/// Paragraph-like: p, li, dd, dt, blockquote, pre, figcaption, td, th, any element with a
/// non-blank text child of its own, or one whose children are all plain inline boxes, two or
/// more of them with words (a line of styled pieces); never a label or legend (their words are
/// a control's name).
bool is_text_block(const Dom& dom, int i);

/// What a page shows rather than writes: an image (its alt text, or its label), a progress bar
/// or a meter (how far it is). Its own line where it stands alone; its words, inside a block.
bool is_figure_role(std::string_view role);
/// An image's name; a bar's or a meter's value (measure_value). "" when it says nothing.
std::string figure_words(const Dom& dom, const Visibility& vis, int i, std::string_view role);

/// A list or table (ul, ol, dl, menu, table): inside a text block, it still has lines of its own.
bool is_text_container(const Dom& dom, int i);

/// The block's rendered text, whitespace-collapsed, without the text of descendants marked in
/// `opaque` (controls and headings: the agent already sees them as their own lines), of nested
/// lists and tables (is_text_container: their items are lines of their own) or of hidden ones. An
/// image or a gauge inside (by `role`, the compiler's roles per node) gives its figure_words where
/// it stands. Stops reading once `max_bytes` are gathered (bounded work on huge blocks).
std::string block_text(const Dom& dom, const Visibility& vis, int i, const std::vector<std::string>& role,
                       const std::vector<char>& opaque, std::size_t max_bytes);

/// The cells of a row: its td/th or cell-role descendants (not inside a nested row or table),
/// or, in a row that has none, its element children (at most limits::kMaxRowCells).
std::vector<int> cells_of(const Dom& dom, int row, const std::vector<std::string>& role);

/// A row's cells in order, " | " between them, each without the words of its controls (they have
/// their own lines).
std::string row_text(const Dom& dom, const Visibility& vis, int row, const std::vector<std::string>& role,
                     const std::vector<char>& opaque);

/// The page's title: the main document's <head><title>, else the capture's document title.
std::string page_title(const Dom& dom);

}  // namespace athena::compiler
