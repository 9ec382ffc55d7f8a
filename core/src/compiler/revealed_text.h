// Revealed text: the paragraphs an action can show (a tab panel's, an expanded accordion's, an
// open <details>'s, a dialog's body). Agents act on controls but decide on text ("This will
// delete 12 files"); these rules say which text becomes a Category::kText element.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/dom_view.h"
#include "compiler/visibility.h"

namespace athena::compiler {

/// Per node: 1 when it lives in a revealable container (role tabpanel / dialog / alertdialog,
/// an open <details> (its <summary> is a control, never text), or an element named by aria-controls
/// of an element carrying aria-expanded), inherited down the flat tree. `role` is role_of per node.
std::vector<char> revealable_nodes(const Dom& dom, const std::vector<std::string>& role);

/// tabpanel, dialog, alertdialog: containers whose text is revealed with them. A focusable one
/// (a tab panel with tabindex=0) is still a container, not a control hiding its text.
bool is_container_role(std::string_view role);

/// Paragraph-like: p, li, dd, dt, blockquote, pre, figcaption, td, th, or any element with a
/// non-blank text child of its own; never a label or legend (their words are a control's name).
bool is_text_block(const Dom& dom, int i);

/// The block's rendered text, whitespace-collapsed, without the text of descendants marked in
/// `opaque` (controls and headings: the agent already sees them as their own lines) or hidden
/// ones. Stops reading once `max_bytes` are gathered (bounded work on huge blocks).
std::string block_text(const Dom& dom, const Visibility& vis, int i, const std::vector<char>& opaque, std::size_t max_bytes);

}  // namespace athena::compiler
