#pragma once

#ifndef ATHENA_VERSION
#error "ATHENA_VERSION must be defined (the top CMakeLists.txt reads it from package.json)"
#endif

namespace athena {
/// Version of the core, package.json's: also the wire protocol's "core" field and the bridge's --version.
inline constexpr const char* kVersion = ATHENA_VERSION;
}  // namespace athena
