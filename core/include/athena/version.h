#pragma once

namespace athena {
/// Version of the core; also the wire protocol's "core" field.
inline constexpr const char* kVersion = "0.1.0";
}  // namespace athena
